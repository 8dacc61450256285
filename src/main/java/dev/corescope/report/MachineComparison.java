package dev.corescope.report;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Two results files from different machines, set side by side by what stays comparable when the
 * machines differ in size: the topology counts, core-to-core latency by relation (same core,
 * same L3, other L3, other package; never CPU pair by CPU pair, since CPU 5 on one machine is not
 * CPU 5 on the other), the jitter quantiles and each claim's finding. {@code compare} prints it
 * before the row-by-row table (without c2c's CPU pairs) when {@link MachineSummary#differsFrom} says the files come
 * from two machines; {@code report A B} draws it as a section ({@link MachinesHtml}).
 *
 * @param a          the first file's name; {@code b} the second's
 * @param machineA   what the first machine is; {@code machineB} the second
 * @param topology   one row per count (packages, cores, PUs, NUMA nodes, last-level caches, SMT)
 * @param c2c        one row per relation and implementation measured on either machine
 * @param jitter     one row per jitter quantity, when either file has a jitter run
 * @param claims     one row per claim found in either file, with each file's finding
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record MachineComparison(String a, String b, String machineA, String machineB, boolean differentMachines,
                                List<Row> topology, List<LatencyRow> c2c, List<Row> jitter, List<ClaimRow> claims) {

    /** A quantity on each machine, as text (null where a file does not have it). */
    public record Row(String what, String a, String b) {
    }

    /** One relation's one-way latency quantiles on each machine, in ns; {@code ratio} is B's p50 over A's. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record LatencyRow(String relation, String implementation, Double aP50Ns, Double aP99Ns, Integer aPairs,
                             Double bP50Ns, Double bP99Ns, Integer bPairs, Double ratio) {
    }

    /** One claim's finding on each machine and whether they agree. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record ClaimRow(String claim, String a, String b, boolean same) {
    }

    /** The comparison of {@code fa} (named {@code a}) with {@code fb}; {@code views} summarise a file that saved no summary. */
    public static MachineComparison of(String a, ResultsFile fa, String b, ResultsFile fb, FamilyViews views) {
        MachineSummary ma = MachineSummary.of(fa, views);
        MachineSummary mb = MachineSummary.of(fb, views);
        List<Row> topo = new ArrayList<>();
        MachineSummary.TopologyCounts ta = ma.topology();
        MachineSummary.TopologyCounts tb = mb.topology();
        topo.add(new Row("CPU", ma.cpuModel(), mb.cpuModel()));
        topo.add(new Row("kernel", ma.kernel(), mb.kernel()));
        topo.add(new Row("online CPUs", ma.online(), mb.online()));
        if (ta != null || tb != null) {
            topo.add(new Row("packages", ta == null ? null : "" + ta.packages(), tb == null ? null : "" + tb.packages()));
            topo.add(new Row("cores", ta == null ? null : "" + ta.cores(), tb == null ? null : "" + tb.cores()));
            topo.add(new Row("PUs", ta == null ? null : "" + ta.pus(), tb == null ? null : "" + tb.pus()));
            topo.add(new Row("NUMA nodes", ta == null ? null : "" + ta.numaNodes(), tb == null ? null : "" + tb.numaNodes()));
            topo.add(new Row("last-level caches", ta == null || ta.lastLevelCaches() == null ? null : "" + ta.lastLevelCaches(),
                    tb == null || tb.lastLevelCaches() == null ? null : "" + tb.lastLevelCaches()));
            topo.add(new Row("SMT", ta == null || ta.smt() == null ? null : ta.smt() ? "on" : "off", tb == null || tb.smt() == null ? null : tb.smt() ? "on" : "off"));
        }
        List<LatencyRow> c2c = new ArrayList<>();
        for (String rel : MachineSummary.RELATIONS) {
            for (String impl : List.of("java", "native")) {
                var la = ma.latency(rel, impl);
                var lb = mb.latency(rel, impl);
                if (la.isEmpty() && lb.isEmpty()) continue;
                Double ratio = la.isPresent() && lb.isPresent() && la.get().p50Ns() > 0 ? lb.get().p50Ns() / la.get().p50Ns() : null;
                c2c.add(new LatencyRow(rel, impl, la.map(MachineSummary.RelationLatency::p50Ns).orElse(null),
                        la.map(MachineSummary.RelationLatency::p99Ns).orElse(null), la.map(MachineSummary.RelationLatency::pairs).orElse(null),
                        lb.map(MachineSummary.RelationLatency::p50Ns).orElse(null), lb.map(MachineSummary.RelationLatency::p99Ns).orElse(null),
                        lb.map(MachineSummary.RelationLatency::pairs).orElse(null), ratio));
            }
        }
        List<Row> jitter = new ArrayList<>();
        MachineSummary.JitterQuantiles ja = ma.jitter();
        MachineSummary.JitterQuantiles jb = mb.jitter();
        if (ja != null || jb != null) {
            jitter.add(new Row("CPUs measured", ja == null ? null : "" + ja.cpus(), jb == null ? null : "" + jb.cpus()));
            jitter.add(new Row("longest gap, median CPU", ja == null ? null : us(ja.maxGapNs().p50()), jb == null ? null : us(jb.maxGapNs().p50())));
            jitter.add(new Row("longest gap, worst CPU", ja == null ? null : us(ja.maxGapNs().max()), jb == null ? null : us(jb.maxGapNs().max())));
            jitter.add(new Row("interruptions/s, median CPU", ja == null ? null : rate(ja.interruptionsPerSecond().p50()),
                    jb == null ? null : rate(jb.interruptionsPerSecond().p50())));
        }
        Map<String, String[]> byClaim = new LinkedHashMap<>();
        for (ClaimResult c : fa.claims()) byClaim.computeIfAbsent(c.id(), k -> new String[2])[0] = words(c);
        for (ClaimResult c : fb.claims()) byClaim.computeIfAbsent(c.id(), k -> new String[2])[1] = words(c);
        List<ClaimRow> claims = new ArrayList<>();
        for (var e : byClaim.entrySet()) {
            claims.add(new ClaimRow(e.getKey(), e.getValue()[0], e.getValue()[1], Objects.equals(e.getValue()[0], e.getValue()[1])));
        }
        return new MachineComparison(a, b, ma.describe(), mb.describe(), ma.differsFrom(mb), topo, c2c, jitter, claims);
    }

    private static String words(ClaimResult c) {
        return c.finding() == null ? null : c.finding().words();
    }

    static String us(double ns) {
        return String.format(Locale.ROOT, ns >= 100_000 ? "%.0f µs" : "%.1f µs", ns / 1000);
    }

    static String rate(double perSecond) {
        return String.format(Locale.ROOT, perSecond >= 100 ? "%.0f" : "%.1f", perSecond);
    }
}
