package dev.corescope.bench.c2c;

import dev.corescope.bench.Jmh;
import dev.corescope.bench.RunSize;
import dev.corescope.topology.Placement;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a {@code bench c2c} run will measure and about how long it takes, known before it starts
 * ({@code bench c2c --plan} prints it for this machine or a {@code --root} tree).
 *
 * <p><b>By relation</b> (the default): every class of pair the CPUs offer ({@link Placement}:
 * same core, same L2, same L3, other L3, other NUMA node, other package) with up to
 * {@link #REPRESENTATIVES} representative pairs each, in Java and in C. <b>Full</b>
 * ({@code --full}): besides those, every other pair of the matrix once, in Java. Either way a
 * pair is measured in one direction (ping on the lower CPU) when its class's first pair agreed
 * both ways, in both where it did not; and a pair stops when its median's 99.9% interval is
 * within {@link Sampling#tolerance} of it ({@link Sampling#min} to {@link Sampling#max} samples).
 *
 * <p>The estimate multiplies samples by round trips by twice an assumed one-way latency per
 * class ({@link #assumedNs}), plus a fixed cost per measurement (two threads started and
 * pinned): the range runs from every pair stopping at {@code min} samples to every pair taking
 * {@code max} in both directions. Real latencies differ by machine; the figure scales with them.
 *
 * @param cpus            the CPUs, in matrix order
 * @param full            the whole matrix, or by relation only
 * @param sampling        samples per pair
 * @param representatives per class, the pairs measured in Java and C ({@code from < to})
 * @param pairsInClass    per class, the unordered pairs of the whole matrix
 * @param nativeTwin      whether the C twin runs
 * @param jmhSeconds      about how long the JMH cross-check takes
 */
public record C2cPlan(int[] cpus, boolean full, Sampling sampling, Map<Placement, List<int[]>> representatives,
                      Map<Placement, Long> pairsInClass, boolean nativeTwin, double jmhSeconds) {

    /** Representative pairs per class. */
    public static final int REPRESENTATIVES = 3;
    /** Round trips per sample, as nviennot/core-to-core-latency. */
    public static final int ROUND_TRIPS = 1000;
    /** nviennot/core-to-core-latency's default samples per pair (one direction, one implementation). */
    public static final int NVIENNOT_SAMPLES = 300;
    /** The fixed cost of one measurement: two threads created, pinned, checked and joined (ms). */
    static final double OVERHEAD_MS = 0.3;

    /**
     * Samples per measured pair: at least {@code min}, then batches of {@code batch} until the
     * 99.9% half-width is at most {@code tolerance} of the median (or {@code floorNs}), at most {@code max}.
     */
    public record Sampling(int min, int batch, int max, double tolerance, double floorNs) {
        public static Sampling of(RunSize size) {
            return size.pick(new Sampling(5, 5, 5, 1, 0), new Sampling(20, 10, 50, 0.03, 0.5),
                    new Sampling(30, 30, NVIENNOT_SAMPLES, 0.01, 0.2));
        }

        /** Whether samples summarised as {@code median ± error} are enough. */
        boolean tight(int n, double median, double error) {
            if (n >= max) return true;
            if (n < min || Double.isNaN(error)) return false;
            return error <= Math.max(tolerance * median, floorNs);
        }
    }

    /** A typical one-way latency for each class, in ns, for the estimate only (x86 servers; a VM may be slower). */
    public static double assumedNs(Placement r) {
        return switch (r) {
            case SAME_CORE -> 15;
            case SAME_L2 -> 30;
            case SAME_L3 -> 50;
            case OTHER_L3 -> 120;
            case OTHER_NODE -> 150;
            case OTHER_PACKAGE -> 250;
        };
    }

    public static C2cPlan of(PairClasses index, int[] cpus, boolean full, RunSize size, boolean nativeTwin) {
        Map<Placement, List<int[]>> reps = cpus.length < 2 ? Map.of() : index.representatives(cpus, REPRESENTATIVES);
        var jmh = size.pick(Jmh.Settings.SMOKE, Jmh.Settings.QUICK, Jmh.Settings.FULL);
        // each fork: a JVM start (~1.5 s) plus its iterations; 0 forks run in this JVM
        double jmhSeconds = Math.max(1, jmh.forks()) * (1.5 * Math.min(1, jmh.forks())
                + (jmh.warmupIterations() * jmh.warmupMillis() + jmh.measurementIterations() * jmh.measurementMillis()) / 1e3);
        return new C2cPlan(cpus.clone(), full, Sampling.of(size), reps, count(index, cpus), nativeTwin, cpus.length < 2 ? 0 : jmhSeconds);
    }

    /** Unordered pairs per class: n(n-1)/2 look-ups in the index. */
    static Map<Placement, Long> count(PairClasses index, int[] cpus) {
        long[] n = new long[Placement.values().length];
        for (int i = 0; i < cpus.length; i++) {
            for (int j = i + 1; j < cpus.length; j++) n[index.of(cpus[i], cpus[j]).ordinal()]++;
        }
        Map<Placement, Long> out = new EnumMap<>(Placement.class);
        for (Placement r : Placement.values()) if (n[r.ordinal()] > 0) out.put(r, n[r.ordinal()]);
        return out;
    }

    public long unorderedPairs() {
        return (long) cpus.length * (cpus.length - 1) / 2;
    }

    /** Ordered pairs measured in the best case (Java and C of one pair count once): each pair one way, plus each class's reverse check. */
    public long pairsAtLeast() {
        long reps = representatives.values().stream().mapToLong(List::size).sum();
        return (full ? unorderedPairs() : reps) + representatives.size();
    }

    /** Measurements in the best case: each pair one way, the C twin on the representatives, plus each class's reverse check. */
    public long measurementsAtLeast() {
        long reps = representatives.values().stream().mapToLong(List::size).sum();
        long checks = representatives.size();
        long java = (full ? unorderedPairs() : reps) + checks;
        long c = nativeTwin ? reps + checks : 0;
        return java + c;
    }

    /** Measurements if every class disagreed both ways: every pair in both directions. */
    public long measurementsAtMost() {
        long reps = representatives.values().stream().mapToLong(List::size).sum();
        return 2 * ((full ? unorderedPairs() : reps) + (nativeTwin ? reps : 0));
    }

    /** The estimate in seconds, from every pair at {@code min} samples one way to every pair at {@code max} both ways. */
    public double[] seconds() {
        double lo = 0, hi = 0;
        for (Map.Entry<Placement, List<int[]>> e : representatives.entrySet()) {
            double ns = assumedNs(e.getKey());
            long reps = e.getValue().size();
            long javaPairs = full ? pairsInClass.getOrDefault(e.getKey(), 0L) : reps;
            long cPairs = nativeTwin ? reps : 0;
            lo += measure(javaPairs + 1 + (nativeTwin ? cPairs + 1 : 0), sampling.min(), ns);
            hi += measure(2 * (javaPairs + cPairs), sampling.max(), ns);
        }
        double warm = 6.0 * 100 * ROUND_TRIPS * 2 * assumedNs(Placement.SAME_L3) / 1e9;
        return new double[]{lo + warm, hi + warm};
    }

    /** Every measured pair one way at {@code max} samples: what a run costs when no pair is tight before nviennot's sample count. */
    public double secondsOneWayAtMax() {
        double t = 0;
        for (Map.Entry<Placement, List<int[]>> e : representatives.entrySet()) {
            long reps = e.getValue().size();
            long javaPairs = full ? pairsInClass.getOrDefault(e.getKey(), 0L) : reps;
            t += measure(javaPairs + 1 + (nativeTwin ? reps + 1 : 0), sampling.max(), assumedNs(e.getKey()));
        }
        return t + 6.0 * 100 * ROUND_TRIPS * 2 * assumedNs(Placement.SAME_L3) / 1e9;
    }

    /** nviennot/core-to-core-latency's defaults on these CPUs: every unordered pair once, 300 samples, one implementation. */
    public double nviennotSeconds() {
        double s = 0;
        for (Map.Entry<Placement, Long> e : pairsInClass.entrySet()) s += measure(e.getValue(), NVIENNOT_SAMPLES - 1, assumedNs(e.getKey()));
        return s;
    }

    /** {@code measurements} runs of {@code samples} (+1 dropped) samples at {@code ns} one way. */
    private static double measure(long measurements, int samples, double ns) {
        return measurements * ((samples + 1.0) * ROUND_TRIPS * 2 * ns / 1e9 + OVERHEAD_MS / 1e3);
    }

    /** The plan as the model saves it ({@link C2cModel.Plan}). */
    C2cModel.Plan facts() {
        double[] s = seconds();
        return new C2cModel.Plan(full, cpus.length, representatives.size(), measurementsAtLeast(), measurementsAtMost(),
                sampling.min(), sampling.max(), ROUND_TRIPS, s[0], s[1]);
    }

    /** The notes' line of a saved plan. */
    static String line(C2cModel.Plan p) {
        return String.format(Locale.ROOT, "plan: %s, %d CPUs, %d pair classes, %d measurements (at most %d), "
                        + "%d-%d samples of %d round trips each, estimated %s to %s before the JMH cross-check",
                p.full() ? "full matrix" : "by relation", p.cpus(), p.pairClasses(), p.measurementsAtLeast(), p.measurementsAtMost(),
                p.samplesMin(), p.samplesMax(), p.roundTrips(), duration(p.secondsLow()), duration(p.secondsHigh()));
    }

    /** What {@code bench c2c --plan} prints. */
    public String text(String source) {
        StringBuilder out = new StringBuilder();
        out.append("# c2c plan for ").append(source).append(": ").append(cpus.length).append(" CPUs, ")
                .append(unorderedPairs()).append(unorderedPairs() == 1 ? " unordered pair, " : " unordered pairs, ").append(full ? "the full matrix (--full)" : "by relation (--full for the whole matrix)")
                .append('\n');
        out.append(String.format(Locale.ROOT, "# samples per pair: %d to %d of %d round trips, stopping when the 99.9%% interval is within %s of the median%n",
                sampling.min(), sampling.max(), ROUND_TRIPS,
                sampling.tolerance() >= 1 ? "any width" : String.format(Locale.ROOT, "%.0f%% (or %.1f ns)", sampling.tolerance() * 100, sampling.floorNs())));
        out.append("# one direction per pair where its class's first pair agrees both ways; C twin: ")
                .append(nativeTwin ? "on the representative pairs" : "not run").append('\n');
        out.append('\n');
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[]{"relation", "pairs", "measured", "representatives", "assumed ns"});
        for (Placement r : Placement.values()) {
            long inClass = pairsInClass.getOrDefault(r, 0L);
            List<int[]> reps = representatives.getOrDefault(r, List.of());
            if (inClass == 0 && reps.isEmpty()) continue;
            StringBuilder rep = new StringBuilder();
            for (int[] p : reps) rep.append(rep.isEmpty() ? "" : " ").append(p[0]).append('-').append(p[1]);
            rows.add(new String[]{r.words(), Long.toString(inClass), Long.toString(full ? inClass : reps.size()), rep.toString(),
                    String.format(Locale.ROOT, "%.0f", assumedNs(r))});
        }
        int[] w = new int[5];
        for (String[] row : rows) for (int i = 0; i < 5; i++) w[i] = Math.max(w[i], row[i].length());
        for (String[] row : rows) {
            out.append(String.format(Locale.ROOT, "%-" + w[0] + "s  %" + w[1] + "s  %" + w[2] + "s  %-" + w[3] + "s  %" + w[4] + "s",
                    (Object[]) row).stripTrailing()).append('\n');
        }
        double[] s = seconds();
        out.append('\n');
        out.append(String.format(Locale.ROOT, "measurements: %d to %d (pair x direction x implementation)%n", measurementsAtLeast(), measurementsAtMost()));
        out.append(String.format(Locale.ROOT, "estimated time: %s to %s (assumed latencies above, %.1f ms per measurement to start its threads)%n",
                duration(s[0]), duration(s[1]), OVERHEAD_MS));
        out.append(String.format(Locale.ROOT, "  %s if every pair stops at %d samples; %s if none is tight before %d, one way; %s at %d both ways%n",
                duration(s[0]), sampling.min(), duration(secondsOneWayAtMax()), sampling.max(), duration(s[1]), sampling.max()));
        out.append(String.format(Locale.ROOT, "plus the JMH cross-check on one pair: about %s (its forks, warm-up and measurement iterations)%n",
                duration(jmhSeconds)));
        out.append(String.format(Locale.ROOT, "nviennot/core-to-core-latency's defaults on these CPUs (every pair once, %d x %d, one implementation): %s%n",
                NVIENNOT_SAMPLES, ROUND_TRIPS, duration(nviennotSeconds())));
        return out.toString();
    }

    static String duration(double seconds) {
        if (seconds < 120) return String.format(Locale.ROOT, "%.1f s", seconds);
        if (seconds < 7200) return String.format(Locale.ROOT, "%.1f min", seconds / 60);
        return String.format(Locale.ROOT, "%.1f h", seconds / 3600);
    }
}
