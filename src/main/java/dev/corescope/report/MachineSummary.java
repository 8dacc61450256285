package dev.corescope.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.corescope.topology.Placement;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The machine a results file was measured on, in a form that sets two machines side by side
 * ({@code machine} in the results file): what the machine is (model, kernel, topology counts)
 * and what it measured, summarised so that machines of different sizes compare: core-to-core
 * latency by how the two CPUs relate (never the N&sup2; matrix), and the jitter of its CPUs as
 * quantiles. Computed from the file's own data ({@link #of(ResultsFile)}), so an older file
 * without it gets the same summary when it is read.
 *
 * <p>The latency by relation comes from the family that measured it (c2c, through
 * {@code BenchFamily.relationLatencies}), each relation a {@link Placement} key ({@code same-l3});
 * files of older versions ({@code same_l3}) read as the keys.
 *
 * @param cpuModel the CPU model from the environment
 * @param kernel   the kernel release
 * @param online   the online CPUs
 * @param topology the topology's counts, when the file has them
 * @param c2c      one-way latency by relation and implementation; empty without a c2c run
 * @param jitter   the jitter run's quantiles over CPUs; null without one
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record MachineSummary(String cpuModel, String kernel, String online, TopologyCounts topology,
                             List<RelationLatency> c2c, JitterQuantiles jitter) {

    /** The relations, innermost first, as label values ({@code relation="same-l3"}): the {@link Placement} keys. */
    public static final List<String> RELATIONS = Arrays.stream(Placement.values()).map(Placement::key).toList();

    public MachineSummary {
        c2c = c2c == null ? List.of() : List.copyOf(c2c);
    }

    /**
     * The counts of {@code topology --format json}'s summary, with SMT and the number of
     * last-level caches.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record TopologyCounts(int packages, int dies, int clusters, int cores, int pus, int numaNodes,
                                 Integer lastLevelCaches, Boolean smt) {
    }

    /**
     * The pairs of one relation measured by one implementation: how many, and the quantiles of
     * their median one-way latencies.
     */
    public record RelationLatency(String relation, String implementation, int pairs, double p50Ns, double p99Ns,
                                  double minNs, double maxNs) {
        public RelationLatency {
            relation = Placement.ofKey(relation).map(Placement::key).orElse(relation);
        }

        /** The quantiles of {@code medians}, the pairs' median latencies in ns (at least one). */
        public static RelationLatency of(String relation, String implementation, double[] medians) {
            double[] a = medians.clone();
            Arrays.sort(a);
            return new RelationLatency(relation, implementation, a.length, quantile(a, 0.5), quantile(a, 0.99), a[0], a[a.length - 1]);
        }
    }

    /**
     * The jitter run over its CPUs: for each quantity, the median CPU, the 99th-percentile CPU
     * and the worst.
     *
     * @param cpus                 CPUs measured
     * @param maxGapNs             each CPU's longest gap: median, p99 and max over CPUs
     * @param interruptionsPerSecond each CPU's recorded gaps per second: median, p99 and max over CPUs
     */
    public record JitterQuantiles(int cpus, Quantiles maxGapNs, Quantiles interruptionsPerSecond) {
        /** The quantiles of each CPU's longest gap and interruption rate (one value per CPU, at least one). */
        public static JitterQuantiles of(double[] maxGapNs, double[] interruptionsPerSecond) {
            return new JitterQuantiles(maxGapNs.length, Quantiles.of(maxGapNs), Quantiles.of(interruptionsPerSecond));
        }
    }

    /** Median, 99th percentile and maximum. */
    public record Quantiles(double p50, double p99, double max) {
        static Quantiles of(double[] values) {
            double[] v = values.clone();
            Arrays.sort(v);
            return new Quantiles(quantile(v, 0.5), quantile(v, 0.99), v[v.length - 1]);
        }
    }

    /**
     * The summary of {@code file}: the one it carries if it has one, else computed from its data,
     * with the latency by relation and the jitter quantiles that {@code views} read from the file.
     */
    public static MachineSummary of(ResultsFile file, FamilyViews views) {
        if (file.machine() != null) return file.machine();
        return compute(file, views.relationLatencies(file), views.jitter(file));
    }

    /**
     * Computed from the file's environment and topology, {@code c2c} (the families' latency by
     * relation) and {@code jitter} (the jitter run's quantiles, or null), ignoring a saved summary.
     */
    public static MachineSummary compute(ResultsFile file, List<RelationLatency> c2c, JitterQuantiles jitter) {
        Environment env = file.environment();
        TopologyCounts counts = file.topology() == null ? null : file.topology().counts();
        return new MachineSummary(env == null ? null : env.cpuModel(), env == null ? null : env.kernel(),
                env == null ? null : env.online(), counts, c2c, jitter);
    }

    /** A shorthand that tells machines apart: {@code AMD EPYC, 2 CPUs (0-1), kernel 6.18}. */
    public String describe() {
        StringBuilder sb = new StringBuilder(cpuModel == null ? "unknown CPU" : cpuModel);
        if (topology != null) {
            sb.append(", ").append(topology.packages()).append(topology.packages() == 1 ? " package, " : " packages, ")
                    .append(topology.cores()).append(" cores, ").append(topology.pus()).append(" PUs");
        } else if (online != null) {
            sb.append(", CPUs ").append(online);
        }
        if (kernel != null) sb.append(", kernel ").append(kernel);
        return sb.toString();
    }

    /**
     * Whether {@code other} describes a different machine: another CPU model, topology or online
     * set. The kernel alone does not make another machine (an upgrade is a before/after).
     */
    public boolean differsFrom(MachineSummary other) {
        if (!Objects.equals(cpuModel, other.cpuModel)) return true;
        if (!Objects.equals(online, other.online)) return true;
        if (topology != null && other.topology != null) {
            TopologyCounts a = topology;
            TopologyCounts b = other.topology;
            return a.packages() != b.packages() || a.cores() != b.cores() || a.pus() != b.pus() || a.numaNodes() != b.numaNodes();
        }
        return false;
    }

    /** The latency of {@code relation} by {@code implementation}, if measured. */
    public Optional<RelationLatency> latency(String relation, String implementation) {
        for (RelationLatency r : c2c) if (r.relation().equals(relation) && r.implementation().equals(implementation)) return Optional.of(r);
        return Optional.empty();
    }

    /** The nearest-rank quantile of sorted values. */
    static double quantile(double[] sorted, double q) {
        int rank = (int) Math.ceil(q * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }
}
