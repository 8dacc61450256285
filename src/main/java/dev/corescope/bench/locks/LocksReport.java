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
            out.add(new Result(BENCHMARK, "tsc_rate", "native", "calibrated", "MHz", tsc.calibratedMhz(),
                    nanToNull(tsc.calibratedErr()), tsc.calibrations(), cpu, params));
        }
        for (LockMeasurement m : run.rows()) {
            out.add(new Result(BENCHMARK, m.variant().contractName(), m.implementation(), "op", "ns/op", m.ns(),
                    nanToNull(m.nsError()), m.samples(), cpu, m.params()));
            if (!Double.isNaN(m.cycles())) {
                Map<String, Object> params = new LinkedHashMap<>(m.params());
                params.put("cycles", m.cyclesFrom().text);
                out.add(new Result(BENCHMARK, m.variant().contractName(), m.implementation(), "op_cycles", "cycles/op", m.cycles(),
                        nanToNull(m.cyclesError()), m.samples(), cpu, params));
            }
        }
        for (ContendedMeasurement c : run.contended()) {
            int[] cpus = c.placement().cpus();
            String list = CpuMask.of(Arrays.stream(cpus).max().orElse(0) + 1, cpus).toList();
            Map<String, Object> params = new LinkedHashMap<>();
            params.put("placement", c.placement().name());
            params.put("threads", c.placement().threads());
            if (c.migratedRounds() > 0) params.put("migrated", c.migratedRounds());
            out.add(new Result(BENCHMARK, c.variant().contractName(), c.implementation(), "contended", "ns/op", c.nsPerOp(),
                    nanToNull(c.nsError()), c.samples(), list, params));
            out.add(new Result(BENCHMARK, c.variant().contractName(), c.implementation(), "contended_fairness", "min/max",
                    c.fairness(), null, c.samples(), list, params));
            for (ContendedMeasurement.Share s : c.shares()) {
                Map<String, Object> p = new LinkedHashMap<>(params);
                p.put("thread", s.thread());
                out.add(new Result(BENCHMARK, c.variant().contractName(), c.implementation(), "contended_thread", "ops/us",
                        s.opsPerUs(), null, c.samples(), Integer.toString(s.cpu()), p));
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
