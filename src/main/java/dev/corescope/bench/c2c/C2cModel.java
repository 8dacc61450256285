package dev.corescope.bench.c2c;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import dev.corescope.bench.FileSections;
import dev.corescope.bench.SampleStats;
import dev.corescope.report.Matrix;
import dev.corescope.report.Pointers;
import dev.corescope.report.Result;
import dev.corescope.topology.CpuPlace;
import dev.corescope.topology.Placement;
import dev.corescope.topology.Topology;

import java.util.ArrayList;
import java.util.List;

/**
 * What one {@code bench c2c} run measured, as saved in the results file ({@code models.c2c}):
 * the CPUs with their places in the topology, each ordered pair's Java and C figures, the JMH
 * cross-check and the notes. {@link C2cView} renders it, from a live run or a saved file alike.
 *
 * @param cpus  the measured CPUs, in matrix order, with where each sits
 * @param pairs one entry per measured ordered pair
 * @param jmh   the JMH cross-check row (the file holds it in {@code results[]}, the model points at it), or null
 * @param notes the notes as sentences: written only by files from before {@code facts} (the view shows them then)
 * @param facts what the notes are worded from ({@link C2cView#notes}); null in files from before it
 */
public record C2cModel(List<Cpu> cpus, List<Pair> pairs,
                       @JsonSerialize(using = Pointers.RowOut.class) @JsonDeserialize(using = Pointers.RowIn.class) Result jmh,
                       @JsonInclude(JsonInclude.Include.NON_EMPTY)
                       List<String> notes,
                       Facts facts) implements FileSections {

    public C2cModel {
        cpus = List.copyOf(cpus);
        pairs = List.copyOf(pairs);
        notes = notes == null ? List.of() : List.copyOf(notes);
    }

    /** A model of a run: its notes are worded from {@code facts}, none saved as sentences. */
    public C2cModel(List<Cpu> cpus, List<Pair> pairs, Result jmh, Facts facts) {
        this(cpus, pairs, jmh, List.of(), facts);
    }

    /** Whether this model is from a file that saved its notes as sentences (no facts). */
    boolean notesAsSentences() {
        return facts == null;
    }

    /**
     * What a run's notes say, as data.
     *
     * @param usable            the usable CPUs the run was given (a cpulist)
     * @param loadOneMinute     the 1-minute load average before the run, null when unknown
     * @param onlineCpus        the online CPUs the load is measured against
     * @param nativeUnavailable why the C twin did not run, null when it did
     * @param plan              what the run planned to measure, null when it measured nothing (fewer than 2 CPUs)
     * @param bothDirections    the placements ({@link Placement} keys) measured both ways: their first pair's directions disagreed
     */
    public record Facts(String usable, Double loadOneMinute, int onlineCpus, String nativeUnavailable, Plan plan,
                        List<String> bothDirections) {
        public Facts {
            bothDirections = bothDirections == null ? List.of() : List.copyOf(bothDirections);
        }
    }

    /**
     * What a run planned ({@link C2cPlan}): the matrix or by relation, how many CPUs, pair classes and
     * measurements, the samples per pair and round trips per sample, and the estimated time.
     */
    public record Plan(boolean full, int cpus, int pairClasses, long measurementsAtLeast, long measurementsAtMost,
                       int samplesMin, int samplesMax, int roundTrips, double secondsLow, double secondsHigh) {
    }

    /**
     * A CPU and its core, last-level cache ({@code L3#k}, k counting that level's instances from 0) and package,
     * each null when the topology does not know it (never guessed): the matrix's and the heatmap's labels.
     */
    public record Cpu(int cpu, Integer core, String cache, Integer pkg) {

        /** {@code cpu}'s place from {@link Topology#where(int)} (O(1)). */
        static Cpu of(Topology t, int cpu) {
            CpuPlace p = t.where(cpu);
            return new Cpu(cpu, p.coreId() < 0 ? null : p.coreId(), p.llc() < 0 ? null : t.lastLevelCaches().get(p.llc()).name() + "#" + p.llc(),
                    p.packageId() < 0 ? null : p.packageId());
        }

        /** {@code cpu3 c1 L3#0 p0}: short enough for an axis. */
        String shortLabel() {
            return "cpu" + cpu + (core == null ? "" : " c" + core) + (cache == null ? "" : " " + cache) + (pkg == null ? "" : " p" + pkg);
        }

        /** {@code CPU 3: core 1, L3 #0, package 0}. */
        String longLabel() {
            List<String> parts = new ArrayList<>();
            if (core != null) parts.add("core " + core);
            if (cache != null) parts.add(cache.replace("#", " #"));
            if (pkg != null) parts.add("package " + pkg);
            return "CPU " + cpu + (parts.isEmpty() ? "" : ": " + String.join(", ", parts));
        }
    }

    /**
     * One ordered pair: ping on {@code from}, pong on {@code to}; {@code nativeTwin} null where the
     * C twin did not run on it; {@code relation} what the two CPUs share ({@link Placement#key}:
     * {@code same-core}, {@code same-l2}, {@code same-l3}, {@code other-l3}, {@code other-node},
     * {@code other-package}; an older spelling such as {@code same_l3} or {@code cross-l3} is read as its key), null in
     * files from before it.
     */
    public record Pair(int from, int to, Stats java, Stats nativeTwin, String relation) {
        public Pair {
            if (relation != null) relation = Placement.ofKey(relation).map(Placement::key).orElse(relation);
        }
    }

    /**
     * A pair's one-way latencies in ns ({@link SampleStats} with a null error for one sample):
     * {@code low} and {@code high} are the median's 99.9% interval from order statistics, null for
     * one sample and in files from before them.
     */
    public record Stats(double median, Double error, Double low, Double high, double mean, double min, long samples) {

        static Stats of(SampleStats s) {
            return s == null ? null : new Stats(s.median(), s.errorOrNull(), nullIfNaN(s.low()), nullIfNaN(s.high()), s.mean(), s.min(), s.samples());
        }

        private static Double nullIfNaN(double v) {
            return Double.isNaN(v) ? null : v;
        }

        /**
         * The median's interval: its order statistics, or in files from before them median &plusmn; error
         * with the low end no lower than the smallest sample (no order statistic is); null without one.
         */
        double[] interval() {
            if (low != null && high != null) return new double[] {low, high};
            if (error == null) return null;
            return new double[] {Math.max(min, median - error), median + error};
        }
    }

    /** {@code matrix}: each pair's Java median and error, CPUs in this model's order; null without pairs. */
    @Override
    public Matrix matrix() {
        if (pairs.isEmpty()) return null;
        int[] cpus = cpuNumbers();
        Double[][] values = new Double[cpus.length][cpus.length];
        Double[][] errors = new Double[cpus.length][cpus.length];
        for (Pair p : pairs) {
            values[index(cpus, p.from())][index(cpus, p.to())] = p.java().median();
            errors[index(cpus, p.from())][index(cpus, p.to())] = p.java().error();
        }
        return new Matrix(cpus, "ns", values, errors);
    }

    static int index(int[] cpus, int cpu) {
        for (int i = 0; i < cpus.length; i++) if (cpus[i] == cpu) return i;
        throw new IllegalArgumentException("CPU " + cpu + " not in the matrix");
    }

    int[] cpuNumbers() {
        return cpus.stream().mapToInt(Cpu::cpu).toArray();
    }
}
