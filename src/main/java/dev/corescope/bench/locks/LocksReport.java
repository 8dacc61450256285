package dev.corescope.bench.locks;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.report.Result;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The JSON rows and notes of {@code bench locks} from one {@link LocksRun}; {@link LocksView}
 * renders the text from the same run's {@link LocksModel}.
 */
final class LocksReport {

    static final String BENCHMARK = "locks";
    /** The seed's machine, for every place its figures appear. */
    static final String SEED = "i7-2620M, kernel 3.17, 2015";
    /** How much slower than its C twin the Java spinlock may be (issue 6). */
    static final double TARGET_RATIO = 1.3;

    private LocksReport() {
    }

    /** A ratio's interval against the band [1/target, target]. */
    enum RatioFinding {
        /** the whole interval lies inside the band */
        MET("met"),
        /** the whole interval lies outside it, on one side */
        NOT_MET("not met"),
        /** the interval crosses an edge of the band, or is unbounded: this run cannot tell */
        NOT_RESOLVED("not resolved by this run");

        final String words;

        RatioFinding(String words) {
            this.words = words;
        }
    }

    /**
     * The ratio {@code a / b} of two figures with 99.9% half-widths, its interval ({@code
     * (a - ea) / (b + eb)} .. {@code (a + ea) / (b - eb)}, infinite when {@code b - eb <= 0}),
     * and that interval against the two-sided band [1/target, target]: "within 1.3x" means
     * neither more than 1.3 times slower nor more than 1.3 times faster.
     *
     * @return {ratio, low, high}
     */
    static double[] ratioInterval(double a, double ea, double b, double eb) {
        ea = Double.isNaN(ea) ? 0 : ea;
        eb = Double.isNaN(eb) ? 0 : eb;
        double low = Math.max(0, (a - ea) / (b + eb));
        double high = b - eb > 0 ? (a + ea) / (b - eb) : Double.POSITIVE_INFINITY;
        return new double[]{a / b, low, high};
    }

    /** The interval [low, high] against the band [1/target, target]. */
    static RatioFinding ratioFinding(double low, double high, double target) {
        if (low >= 1 / target && high <= target) return RatioFinding.MET;
        if (high < 1 / target || low > target) return RatioFinding.NOT_MET;
        return RatioFinding.NOT_RESOLVED;
    }

    /** What a reader of the JSON needs too: rows left out and why. */
    static List<String> notes(LocksRun run) {
        List<String> notes = new ArrayList<>(run.notes());
        if (run.contendedSkipped() != null) notes.add(run.contendedSkipped());
        return notes;
    }

    /** The CONTRACT's results rows. */
    static List<Result> results(LocksRun run) {
        List<Result> out = new ArrayList<>();
        String cpu = Integer.toString(run.cpu());
        TscRate tsc = run.tsc();
        if (!Double.isNaN(tsc.calibratedMhz())) {
            Map<String, Object> params = new LinkedHashMap<>();
            params.put("used", tsc.source().name().toLowerCase(Locale.ROOT));
            if (tsc.known()) params.put("usedMHz", round(tsc.mhz(), 3));
            out.add(Result.builder().benchmark(BENCHMARK).variant("tsc_rate").implementation("native").metric("calibrated").unit("MHz")
                    .score(tsc.calibratedMhz()).error(nanToNull(tsc.calibratedErr())).samples(tsc.calibrations()).cpus(cpu).params(params).build());
        }
        for (LockMeasurement m : run.rows()) {
            out.add(Result.builder().benchmark(BENCHMARK).variant(m.variant().contractName()).implementation(m.implementation()).metric("op").unit("ns/op")
                    .score(m.ns()).error(nanToNull(m.nsError())).samples(m.samples()).cpus(cpu).params(m.params()).build());
            if (!Double.isNaN(m.cycles())) {
                Map<String, Object> params = new LinkedHashMap<>(m.params());
                params.put("cycles", m.cyclesFrom().text);
                out.add(Result.builder().benchmark(BENCHMARK).variant(m.variant().contractName()).implementation(m.implementation()).metric("op_cycles").unit("cycles/op")
                        .score(m.cycles()).error(nanToNull(m.cyclesError())).samples(m.samples()).cpus(cpu).params(params).build());
            }
        }
        for (ContendedMeasurement c : run.contended()) {
            int[] cpus = c.placement().cpus();
            String list = CpuMask.of(Arrays.stream(cpus).max().orElse(0) + 1, cpus).toList();
            Map<String, Object> params = new LinkedHashMap<>();
            params.put("placement", c.placement().name());
            params.put("threads", c.placement().threads());
            if (c.migratedRounds() > 0) params.put("migrated", c.migratedRounds());
            out.add(Result.builder().benchmark(BENCHMARK).variant(c.variant().contractName()).implementation(c.implementation()).metric("contended").unit("ns/op")
                    .score(c.nsPerOp()).error(nanToNull(c.nsError())).samples(c.samples()).cpus(list).params(params).build());
            out.add(Result.builder().benchmark(BENCHMARK).variant(c.variant().contractName()).implementation(c.implementation()).metric("contended_fairness").unit("min/max")
                    .score(c.fairness()).error(null).samples(c.samples()).cpus(list).params(params).build());
            for (ContendedMeasurement.Share s : c.shares()) {
                Map<String, Object> p = new LinkedHashMap<>(params);
                p.put("thread", s.thread());
                out.add(Result.builder().benchmark(BENCHMARK).variant(c.variant().contractName()).implementation(c.implementation()).metric("contended_thread").unit("ops/us")
                        .score(s.opsPerUs()).error(null).samples(c.samples()).cpus(Integer.toString(s.cpu())).params(p).build());
            }
        }
        return out;
    }

    private static Double nanToNull(double d) {
        return Double.isNaN(d) ? null : d;
    }

    private static double round(double d, int decimals) {
        double f = Math.pow(10, decimals);
        return Math.round(d * f) / f;
    }
}
