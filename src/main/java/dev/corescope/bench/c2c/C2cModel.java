package dev.corescope.bench.c2c;

import dev.corescope.bench.SampleStats;
import dev.corescope.report.Result;

import java.util.List;
import java.util.Optional;

/**
 * What one {@code bench c2c} run measured, as saved in the results file ({@code models.c2c}):
 * the CPUs with their places in the topology, each ordered pair's Java and C figures, the JMH
 * cross-check and the notes. {@link C2cView} renders it, from a live run or a saved file alike.
 *
 * @param cpus  the measured CPUs, in matrix order, with where each sits
 * @param pairs one entry per measured ordered pair
 * @param jmh   the JMH cross-check row, or null
 * @param notes what a reader needs to know about the run
 */
public record C2cModel(List<Cpu> cpus, List<Pair> pairs, Result jmh, List<String> notes) {

    public C2cModel {
        cpus = List.copyOf(cpus);
        pairs = List.copyOf(pairs);
        notes = List.copyOf(notes);
    }

    /** A CPU and its core, last-level cache ({@code L3#k}) and package, each null when unknown. */
    public record Cpu(int cpu, Integer core, String cache, Integer pkg) {

        static Cpu of(CpuLabels.Place p) {
            return new Cpu(p.cpu(), p.core().orElse(null), p.cache().orElse(null), p.pkg().orElse(null));
        }

        CpuLabels.Place place() {
            return new CpuLabels.Place(cpu, Optional.ofNullable(core), Optional.ofNullable(cache), Optional.ofNullable(pkg));
        }
    }

    /**
     * One ordered pair: ping on {@code from}, pong on {@code to}; {@code nativeTwin} null where the
     * C twin did not run on it; {@code relation} what the two CPUs share ({@link PairClasses#key}:
     * {@code same-core}, {@code same-l2}, {@code same-l3}, {@code other-l3}, {@code other-node},
     * {@code other-package}), null in files from before it.
     */
    public record Pair(int from, int to, Stats java, Stats nativeTwin, String relation) {
        public Pair(int from, int to, Stats java, Stats nativeTwin) {
            this(from, to, java, nativeTwin, null);
        }
    }

    /** A pair's one-way latencies in ns ({@link SampleStats} with a null error for one sample). */
    public record Stats(double median, Double error, double mean, double min, long samples) {

        static Stats of(SampleStats s) {
            return s == null ? null : new Stats(s.median(), s.errorOrNull(), s.mean(), s.min(), s.samples());
        }

        SampleStats sampleStats() {
            return new SampleStats(median, error == null ? Double.NaN : error, mean, min, samples);
        }
    }

    int[] cpuNumbers() {
        return cpus.stream().mapToInt(Cpu::cpu).toArray();
    }
}
