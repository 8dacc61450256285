package dev.corescope.fleet;

import dev.corescope.bench.Families;
import dev.corescope.jitter.CpuJitter;
import dev.corescope.report.ClaimResult;
import dev.corescope.report.MachineSummary;
import dev.corescope.report.ResultsFile;
import dev.corescope.topology.NumaNode;
import dev.corescope.topology.Topology;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The machine, and a results file's summaries, in Prometheus' text exposition format as
 * node_exporter's textfile collector reads it ({@code # HELP}, {@code # TYPE}, samples; no
 * timestamps). Every series is a gauge named {@code corescope_...} in base units
 * ({@code _seconds}, {@code _bytes}); labels are few and bounded: a CPU state, a relation, an
 * implementation, a NUMA node, a CPU (for jitter, one series per measured CPU) and a claim with
 * its finding. The c2c matrix is never exported pair by pair: only its quantiles by relation.
 * docs/fleet.md lists every series.
 */
public final class PrometheusText {

    private final StringBuilder sb = new StringBuilder(4096);
    /** Each family's samples by series (name and labels): one sample per series, however many files are merged. */
    private final Map<String, Map<String, String>> families = new LinkedHashMap<>();
    private final Map<String, String> help = new LinkedHashMap<>();

    private PrometheusText() {
    }

    /**
     * The metrics of {@code t} (the live machine or a saved tree) and, when {@code results} is not
     * null, of that file; {@code now} is {@code corescope_probe_timestamp_seconds}.
     */
    public static String render(Topology t, ResultsFile results, Instant now) {
        return render(t, results == null ? List.of() : List.of(results), now);
    }

    /**
     * The metrics of {@code t} and of several results files in one exposition (a benchmark run
     * and a jitter run, say): each series once, from the last file that has it, since
     * node_exporter refuses a series twice in its textfile directory.
     */
    public static String render(Topology t, List<ResultsFile> results, Instant now) {
        PrometheusText p = new PrometheusText();
        p.topology(t);
        // the last file first: a series (and a claim) already written is not written again
        Set<String> claims = new HashSet<>();
        for (ResultsFile f : results.reversed()) p.results(f, claims);
        p.gauge("corescope_probe_timestamp_seconds", "When corescope read this machine (Unix time).", Map.of(), now.toEpochMilli() / 1000.0);
        return p.text();
    }

    private void topology(Topology t) {
        String cpus = "corescope_cpus";
        String h = "CPUs of this machine by state (the kernel's sets; allowed: this process's sched_getaffinity).";
        gauge(cpus, h, Map.of("state", "online"), t.online().weight());
        gauge(cpus, h, Map.of("state", "offline"), t.offline().weight());
        gauge(cpus, h, Map.of("state", "possible"), t.possible().weight());
        gauge(cpus, h, Map.of("state", "present"), t.present().weight());
        t.allowed().ifPresent(a -> gauge(cpus, h, Map.of("state", "allowed"), a.weight()));
        gauge(cpus, h, Map.of("state", "isolated"), t.isolated().weight());
        gauge(cpus, h, Map.of("state", "nohz_full"), t.nohzFull().weight());
        // node_exporter has no per-CPU isolation (prometheus/node_exporter#2250)
        for (int cpu : t.online().toArray()) {
            gauge("corescope_cpu_isolated", "1 for each online CPU the kernel isolates from the scheduler (isolcpus=, the isolated set), else 0.",
                    Map.of("cpu", Integer.toString(cpu)), t.isolated().test(cpu) ? 1 : 0);
        }
        Topology.Summary s = t.summary();
        gauge("corescope_packages", "Packages (sockets) with online CPUs.", Map.of(), s.packages());
        gauge("corescope_dies", "Dies the kernel numbers (0 where it does not).", Map.of(), s.dies());
        gauge("corescope_clusters", "Clusters the kernel describes (0 where it does not).", Map.of(), s.clusters());
        gauge("corescope_cores", "Cores with online CPUs.", Map.of(), s.cores());
        gauge("corescope_numa_nodes", "NUMA nodes.", Map.of(), s.numaNodes());
        gauge("corescope_last_level_caches", "Last-level cache instances (L3s, or L2s without L3).", Map.of(), t.lastLevelCaches().size());
        gauge("corescope_core_kinds", "Kinds of cores (2 on a hybrid machine).", Map.of(), t.coreKinds().size());
        t.smt().ifPresent(on -> gauge("corescope_smt_active", "1 when SMT (hyper-threading) is in use.", Map.of(), on ? 1 : 0));
        gauge("corescope_cache_line_bytes", "The L1d cache line.", Map.of(), t.cacheLineSize());
        for (NumaNode n : t.numaNodes()) {
            if (n.memoryBytes() >= 0) {
                gauge("corescope_numa_node_memory_bytes", "Memory of each NUMA node (MemTotal).", Map.of("node", Integer.toString(n.id())), n.memoryBytes());
            }
        }
    }

    private void results(ResultsFile f, Set<String> claimsWritten) {
        MachineSummary m = MachineSummary.of(f, Families.views());
        for (MachineSummary.RelationLatency r : m.c2c()) {
            Map<String, String> l = new LinkedHashMap<>();
            l.put("relation", r.relation());
            l.put("implementation", r.implementation());
            gauge("corescope_c2c_one_way_latency_p50_seconds",
                    "Core-to-core one-way latency by how the two CPUs relate: the median over the pairs' medians.", l, r.p50Ns() / 1e9);
            gauge("corescope_c2c_one_way_latency_p99_seconds",
                    "Core-to-core one-way latency by relation: the 99th percentile over the pairs' medians.", l, r.p99Ns() / 1e9);
            gauge("corescope_c2c_pairs", "CPU pairs measured in each relation.", l, r.pairs());
        }
        if (f.jitter() != null) {
            for (CpuJitter c : f.jitter().rows()) {
                Map<String, String> l = Map.of("cpu", Integer.toString(c.cpu()));
                gauge("corescope_jitter_max_gap_seconds", "The longest gap a pinned spinning thread saw on each CPU.", l, c.maxNs() / 1e9);
                gauge("corescope_jitter_interruptions_per_second", "Gaps above the run's threshold per second of spinning, on each CPU.", l,
                        MachineSummary.interruptionsPerSecond(c));
            }
        }
        for (ClaimResult c : f.claims()) {
            if (!claimsWritten.add(c.id())) continue;
            Map<String, String> l = new LinkedHashMap<>();
            l.put("claim", c.id());
            l.put("family", c.family());
            l.put("finding", c.finding() == null ? "" : c.finding().words());
            gauge("corescope_claim_finding", "Each seed claim's finding, as the label finding (1 for the claim's one finding).", l, 1);
            if (c.effectPercent() != null) {
                gauge("corescope_claim_effect_ratio", "Each claim's measured change as a fraction of its baseline (-0.25: 25% less).",
                        Map.of("claim", c.id()), c.effectPercent() / 100.0);
            }
        }
        if (f.environment() != null && f.environment().startedAt() != null) {
            try {
                gauge("corescope_results_timestamp_seconds", "When the exported results file's run started (Unix time).", Map.of(),
                        Instant.parse(f.environment().startedAt()).toEpochMilli() / 1000.0);
            } catch (DateTimeParseException ignored) {
                // a file with a start time in another form: no series rather than a wrong one
            }
        }
    }

    private void gauge(String name, String helpText, Map<String, String> labels, double value) {
        String series = labels.isEmpty() ? name
                : name + labels.entrySet().stream().map(e -> e.getKey() + "=\"" + labelValue(e.getValue()) + '"').collect(Collectors.joining(",", "{", "}"));
        if (families.computeIfAbsent(name, k -> new LinkedHashMap<>()).putIfAbsent(series, series + ' ' + number(value)) == null) {
            help.putIfAbsent(name, helpText);
        }
    }

    private String text() {
        for (Map.Entry<String, Map<String, String>> e : families.entrySet()) {
            sb.append("# HELP ").append(e.getKey()).append(' ').append(helpText(help.get(e.getKey()))).append('\n');
            sb.append("# TYPE ").append(e.getKey()).append(" gauge\n");
            for (String l : e.getValue().values()) sb.append(l).append('\n');
        }
        return sb.toString();
    }

    /** A sample value: integers without a fraction, others in Java's shortest round-trip form. */
    static String number(double v) {
        if (Double.isNaN(v)) return "NaN";
        if (Double.isInfinite(v)) return v > 0 ? "+Inf" : "-Inf";
        if (v == Math.rint(v) && Math.abs(v) < 1e15) return Long.toString((long) v);
        return Double.toString(v).toLowerCase(Locale.ROOT);
    }

    /** The exposition format's label-value escapes: backslash, double quote, line feed. */
    static String labelValue(String s) {
        if (s == null) return "";
        return s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }

    private static String helpText(String s) {
        return s.replace("\\", "\\\\").replace("\n", "\\n");
    }
}
