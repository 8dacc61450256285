package dev.corescope.bench.cpumask;

import dev.corescope.bench.cpumask.CpumaskInputs.InputKind;
import dev.corescope.bench.cpumask.CpumaskInputs.MaskKind;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** One row of {@code bench cpumask}: the JMH {@code @Param}s of {@link CpumaskBenchmark}. */
record CpumaskConfig(int nrCpus, MaskKind mask, InputKind input) {

    /** Every combination, in report order. */
    static List<CpumaskConfig> all() {
        List<CpumaskConfig> out = new ArrayList<>();
        for (InputKind input : InputKind.values()) {
            for (MaskKind mask : MaskKind.values()) {
                for (int nrCpus : new int[]{64, 4096}) out.add(new CpumaskConfig(nrCpus, mask, input));
            }
        }
        return out;
    }

    /**
     * What {@code --quick} measures in Java (each row costs two JMH forks): the seed's
     * experiment (random CPUs on the allowed mask) for both sizes, the lookup alone at 64
     * bits, and the high mask at 4096 bits where the scan over empty words shows.
     */
    static List<CpumaskConfig> quick() {
        return List.of(
                new CpumaskConfig(64, MaskKind.ALLOWED, InputKind.RANDOM),
                new CpumaskConfig(4096, MaskKind.ALLOWED, InputKind.RANDOM),
                new CpumaskConfig(64, MaskKind.ALLOWED, InputKind.PRECOMPUTED),
                new CpumaskConfig(4096, MaskKind.HIGH, InputKind.PRECOMPUTED));
    }

    /** The smallest set that still covers both sizes and both inputs (tests). */
    static List<CpumaskConfig> smoke() {
        return List.of(
                new CpumaskConfig(64, MaskKind.ALLOWED, InputKind.RANDOM),
                new CpumaskConfig(4096, MaskKind.HIGH, InputKind.PRECOMPUTED));
    }

    /** For progress lines: {@code nrCpus=64 mask=allowed input=random}. */
    @Override
    public String toString() {
        return "nrCpus=" + nrCpus + " mask=" + mask.param() + " input=" + input.param();
    }

    /** As JMH {@code -p} values. */
    Map<String, String[]> jmhParams() {
        return Map.of("nrCpus", new String[]{Integer.toString(nrCpus)},
                "mask", new String[]{mask.param()},
                "input", new String[]{input.param()});
    }

    /** As the results file's {@code params}. */
    Map<String, Object> params() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("nrCpus", nrCpus);
        m.put("mask", mask.param());
        m.put("input", input.param());
        return m;
    }
}
