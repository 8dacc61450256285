package dev.corescope.bench.cpumask;

import dev.corescope.bench.cpumask.CpumaskInputs.MaskKind;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** One row of {@code bench cpumask}: the JMH {@code @Param}s of {@link CpumaskBenchmark}. */
record CpumaskConfig(int nrCpus, MaskKind mask, String online) {

    /** The {@code online} values every full run measures: the seed's 16, then this machine's. */
    static final List<String> ONLINE = List.of(Integer.toString(CpumaskInputs.SEED_ONLINE), CpumaskInputs.HOST);

    /** Every combination, in report order. */
    static List<CpumaskConfig> all() {
        List<CpumaskConfig> out = new ArrayList<>();
        for (String online : ONLINE) {
            for (MaskKind mask : MaskKind.values()) {
                for (int nrCpus : new int[]{64, 4096}) out.add(new CpumaskConfig(nrCpus, mask, online));
            }
        }
        return out;
    }

    /**
     * What {@code --quick} measures in Java (each row costs two JMH forks): the seed's
     * experiment (16 CPUs online) for both sizes, this machine's CPUs at 64 bits, and the
     * synthetic high mask at 4096 bits where the scan over empty words shows.
     */
    static List<CpumaskConfig> quick() {
        String seed = ONLINE.getFirst();
        return List.of(
                new CpumaskConfig(64, MaskKind.ONLINE, seed),
                new CpumaskConfig(4096, MaskKind.ONLINE, seed),
                new CpumaskConfig(64, MaskKind.ONLINE, CpumaskInputs.HOST),
                new CpumaskConfig(4096, MaskKind.HIGH, seed));
    }

    /** The smallest set that still covers both sizes, both masks and both online counts (tests). */
    static List<CpumaskConfig> smoke() {
        return List.of(
                new CpumaskConfig(64, MaskKind.ONLINE, ONLINE.getFirst()),
                new CpumaskConfig(4096, MaskKind.HIGH, CpumaskInputs.HOST));
    }

    /** Whether the row is the seed's experiment: its 16 CPUs online, the mask as the kernel has it. */
    boolean seedCondition() {
        return mask == MaskKind.ONLINE && ONLINE.getFirst().equals(online);
    }

    /** For progress lines: {@code nrCpus=64 online=16 mask=online}. */
    @Override
    public String toString() {
        return "nrCpus=" + nrCpus + " online=" + online + " mask=" + mask.param();
    }

    /** As JMH {@code -p} values. */
    Map<String, String[]> jmhParams() {
        return Map.of("nrCpus", new String[]{Integer.toString(nrCpus)},
                "mask", new String[]{mask.param()},
                "online", new String[]{online});
    }

    /** As the results file's {@code params}. */
    Map<String, Object> params() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("nrCpus", nrCpus);
        m.put("online", online);
        m.put("mask", mask.param());
        return m;
    }

    /** As a native row's {@code params}: these and the code layout. */
    Map<String, Object> params(CpumaskTwins.Layout layout) {
        Map<String, Object> m = params();
        m.put("layout", layout.param());
        return m;
    }
}
