package dev.corescope.bench.c2c;

import dev.corescope.bench.MachineLoad;
import dev.corescope.bench.SampleStats;
import dev.corescope.report.MachineSummary;
import dev.corescope.report.Matrix;
import dev.corescope.report.Result;
import dev.corescope.text.Num;
import dev.corescope.text.TextDoc;
import dev.corescope.text.TextTable.Column;
import dev.corescope.text.TextTable;
import dev.corescope.topology.Placement;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * The one view of a {@link C2cModel}: the text report {@code bench c2c} prints and the heatmap
 * {@code --format svg} and the HTML page draw, the same from a live run or a saved file.
 */
final class C2cView {

    static final String TITLE = "Core-to-core latency";

    private C2cView() {
    }

    /** The report as a document: the CPUs, the pairs by relation, the matrix or the pairs where few, the summary, notes. */
    static TextDoc document(C2cModel m) {
        int[] cpus = m.cpuNumbers();
        List<C2cModel.Pair> pairs = m.pairs();
        TextDoc d = new TextDoc();
        d.title("bench c2c: core-to-core latency, one cache line ping-ponged between two pinned threads");
        d.paragraph("  ", "one-way ns = round trip / 2; median of the samples [99.9% confidence interval of the median]");
        d.notes("  ", "", m.cpus().stream().map(C2cModel.Cpu::longLabel).toList()).blank();
        if (!pairs.isEmpty()) {
            byRelation(d, pairs);
            // a matrix only where most of it was measured (a small machine, or --full up to 64 CPUs)
            if (cpus.length <= 64 && 2L * pairs.size() >= (long) cpus.length * (cpus.length - 1) / 2) {
                matrix(d, "Java (row: ping CPU, column: pong CPU), ns one way", cpus, pairs, C2cModel.Pair::java);
                if (pairs.stream().allMatch(p -> p.nativeTwin() != null)) {
                    matrix(d, "C twin, ns one way", cpus, pairs, C2cModel.Pair::nativeTwin);
                }
            }
            if (pairs.size() <= 64) table(d, pairs);
            summary(d, pairs);
            d.figure("heatmap", "the latencies as a heatmap (bench c2c --format svg)", null).blank();
        }
        Result jmh = m.jmh();
        if (jmh != null) {
            d.paragraph("JMH cross-check, placement " + jmh.params().get("placement") + ", CPU " + jmh.params().get("from") + " \u2192 "
                    + jmh.params().get("to") + ": " + Num.withInterval(jmh.score(), jmh.error()) + " ns one way").blank();
        }
        List<String> notes = notes(m);
        if (!notes.isEmpty()) d.heading("Notes").notes(notes);
        return d;
    }

    /** What the run could not measure (no plan: fewer than 2 CPUs), in its notes' words; decided on the saved facts. */
    static List<String> notMeasured(C2cModel m) {
        C2cModel.Facts f = m.facts();
        if (m.notesAsSentences() || f == null || f.plan() != null) return List.of();
        return List.of("not measured: a ping-pong needs 2 CPUs, " + (m.cpus().isEmpty() ? "none is" : "only CPU " + f.usable() + " is") + " usable");
    }

    /**
     * The run's notes, worded from the saved facts and pairs (a file from before the facts: the
     * sentences it saved): fewer than 2 CPUs, a busy machine, the C twin not run, the plan, the
     * placements measured both ways, the JMH cross-check, the method, and the Java / C ratio.
     */
    static List<String> notes(C2cModel m) {
        if (m.notesAsSentences()) return m.notes();
        C2cModel.Facts f = m.facts();
        List<String> notes = new ArrayList<>();
        if (f.plan() == null) return new ArrayList<>(notMeasured(m));
        if (f.loadOneMinute() != null) MachineLoad.busyNote(f.loadOneMinute(), f.onlineCpus()).ifPresent(notes::add);
        if (f.nativeUnavailable() != null) notes.add("C twin not run: " + f.nativeUnavailable());
        notes.add(C2cPlan.line(f.plan()));
        if (!f.bothDirections().isEmpty()) {
            notes.add("both directions measured for " + f.bothDirections().stream().map(C2cView::placementWords).toList()
                    + ": their first pair's two directions disagreed");
        }
        if (m.jmh() != null) {
            Map<String, Object> p = m.jmh().params();
            String key = String.valueOf(p.get("placement"));
            notes.add("ping_pong_jmh: the same ping-pong as a JMH @Group on placement " + key + " (CPU " + p.get("from") + " and CPU "
                    + p.get("to") + ": " + placementWords(key) + "); a JMH operation is a round trip, halved here");
        }
        int rt = f.plan().roundTrips();
        notes.add("One-way latency = the time of " + rt + " round trips / " + rt
                + " / 2, as in nviennot/core-to-core-latency; score = median of " + f.plan().samplesMin() + " to " + f.plan().samplesMax()
                + " samples per pair (a pair stops when its interval is tight; robust to a preempted thread), error = 99.9% confidence half-width of that median.");
        double[] ratios = m.pairs().stream().filter(p -> p.nativeTwin() != null).mapToDouble(p -> p.java().median() / p.nativeTwin().median()).toArray();
        if (ratios.length > 0) {
            SampleStats ratio = SampleStats.of(ratios);
            notes.add(String.format(Locale.ROOT,
                    "Java / C one-way latency over %d pairs: median %.2f\u00d7, from %.2f\u00d7 to %.2f\u00d7 (target: within 1.2\u00d7)",
                    ratios.length, ratio.median(), ratio.min(), Arrays.stream(ratios).max().orElse(Double.NaN)));
        }
        return notes;
    }

    /** A saved placement key in words ({@link Placement#words}; older files saved {@code SAME_CORE}); a key this version does not know, as saved. */
    private static String placementWords(String key) {
        return Placement.ofKey(key).map(Placement::words).orElse(key);
    }

    private static void matrix(TextDoc d, String title, int[] cpus, List<C2cModel.Pair> pairs, Function<C2cModel.Pair, C2cModel.Stats> side) {
        String[][] cells = new String[cpus.length][cpus.length];
        for (C2cModel.Pair p : pairs) cells[C2cModel.index(cpus, p.from())][C2cModel.index(cpus, p.to())] = median(side.apply(p));
        List<Column> cols = new ArrayList<>(List.of(Column.key("ping")));
        for (int c : cpus) cols.add(Column.number("cpu" + c));
        TextTable t = new TextTable(cols).named("c2c");
        for (int i = 0; i < cpus.length; i++) {
            Object[] row = new Object[cpus.length + 1];
            row[0] = "cpu" + cpus[i];
            for (int j = 0; j < cpus.length; j++) row[j + 1] = cells[i][j] != null ? cells[i][j] : "-";
            t.row(row);
        }
        d.heading(title).table(t).blank();
    }

    /** The tour's block: the pairs by relation, with the Java and C medians' range; empty for files from before relations. */
    static TextDoc brief(C2cModel m) {
        TextDoc d = new TextDoc();
        byRelation(d, m.pairs());
        return d;
    }

    private static void byRelation(TextDoc d, List<C2cModel.Pair> pairs) {
        if (pairs.stream().anyMatch(p -> p.relation() == null)) return;
        TextTable t = new TextTable(Column.key("relation"), Column.number("pairs"), Column.number("java median (min-max)", "ns"),
                Column.number("C median (min-max)", "ns")).named("c2c");
        for (Placement r : Placement.values()) {
            List<C2cModel.Pair> in = pairs.stream().filter(p -> p.relation().equals(r.key())).toList();
            if (!in.isEmpty()) t.row(r.words(), in.size(), range(in, C2cModel.Pair::java), range(in, C2cModel.Pair::nativeTwin));
        }
        d.heading("By relation (what the two CPUs share)").table(t).blank();
    }

    private static String range(List<C2cModel.Pair> pairs, Function<C2cModel.Pair, C2cModel.Stats> side) {
        double[] m = pairs.stream().map(side).filter(Objects::nonNull).mapToDouble(C2cModel.Stats::median).sorted().toArray();
        if (m.length == 0) return "-";
        double mid = m.length % 2 == 1 ? m[m.length / 2] : (m[m.length / 2 - 1] + m[m.length / 2]) / 2;
        return m.length == 1 ? Num.of(mid) : Num.of(mid) + " (" + Num.of(m[0]) + "-" + Num.of(m[m.length - 1]) + ")";
    }

    private static void table(TextDoc d, List<C2cModel.Pair> pairs) {
        boolean twin = pairs.stream().allMatch(p -> p.nativeTwin() != null);
        List<Column> cols = new ArrayList<>(List.of(Column.key("pair"), Column.number("java median", "ns"), Column.number("mean").optional(2),
                Column.number("min").optional(1)));
        if (twin) {
            cols.addAll(List.of(Column.number("C median", "ns"), Column.number("C mean").optional(2), Column.number("C min").optional(1),
                    Column.number("java/C")));
        }
        TextTable t = new TextTable(cols).named("c2c");
        for (C2cModel.Pair p : pairs) {
            List<Object> row = new ArrayList<>(List.of(p.from() + " \u2192 " + p.to(), median(p.java()), Num.of(p.java().mean()),
                    Num.of(p.java().min())));
            if (twin) {
                C2cModel.Stats c = p.nativeTwin();
                row.addAll(List.of(median(c), Num.of(c.mean()), Num.of(c.min()), Num.of(p.java().median() / c.median()) + "x"));
            }
            t.row(row.toArray());
        }
        d.heading("Each pair (ping \u2192 pong), ns one way").table(t).blank();
    }

    private static void summary(TextDoc d, List<C2cModel.Pair> pairs) {
        C2cModel.Pair min = pairs.stream().min(Comparator.comparingDouble(p -> p.java().median())).orElseThrow();
        C2cModel.Pair max = pairs.stream().max(Comparator.comparingDouble(p -> p.java().median())).orElseThrow();
        double mean = pairs.stream().mapToDouble(p -> p.java().median()).average().orElse(Double.NaN);
        d.paragraph("Min latency: " + median(min.java()) + " ns, CPUs (" + min.from() + "," + min.to() + ")");
        d.paragraph("Max latency: " + median(max.java()) + " ns, CPUs (" + max.from() + "," + max.to() + ")");
        d.paragraph("Mean of the pairs' medians: " + Num.of(mean) + " ns over " + pairs.size() + " pairs").blank();
    }

    /**
     * The pairs' Java and C medians by relation, for the machine summary: each pair's saved relation,
     * at the summary's depth (its relations stop at the last-level cache, then the package, so another
     * NUMA node of one package is {@code other-l3}); a file from before relations were saved is
     * classed from its CPUs' core, last-level cache and package.
     */
    static List<MachineSummary.RelationLatency> relationLatencies(C2cModel m) {
        Map<Integer, C2cModel.Cpu> cpus = new HashMap<>();
        for (C2cModel.Cpu c : m.cpus()) cpus.put(c.cpu(), c);
        Map<String, List<Double>> medians = new HashMap<>();
        for (C2cModel.Pair p : m.pairs()) {
            String rel = p.relation() != null ? p.relation()
                    : relation(cpus.get(p.from()), cpus.get(p.to()));
            if (rel == null) continue;
            medians.computeIfAbsent(rel + "/java", k -> new ArrayList<>()).add(p.java().median());
            if (p.nativeTwin() != null) medians.computeIfAbsent(rel + "/native", k -> new ArrayList<>()).add(p.nativeTwin().median());
        }
        List<MachineSummary.RelationLatency> out = new ArrayList<>();
        for (String rel : MachineSummary.RELATIONS) {
            for (String impl : List.of("java", "native")) {
                List<Double> v = medians.get(rel + "/" + impl);
                if (v != null) out.add(MachineSummary.RelationLatency.of(rel, impl, v.stream().mapToDouble(Double::doubleValue).toArray()));
            }
        }
        return out;
    }

    /** The innermost thing two CPUs share by their saved places, or null when they do not say (files from before relations). */
    private static String relation(C2cModel.Cpu a, C2cModel.Cpu b) {
        if (a == null || b == null) return null;
        if (a.pkg() != null && b.pkg() != null && !a.pkg().equals(b.pkg())) return Placement.OTHER_PACKAGE.key();
        if (a.core() != null && a.core().equals(b.core()) && Objects.equals(a.pkg(), b.pkg())) return Placement.SAME_CORE.key();
        if (a.cache() != null && b.cache() != null) return (a.cache().equals(b.cache()) ? Placement.SAME_L3 : Placement.OTHER_L3).key();
        return null;
    }

    /** {@code 27.3 [27.2, 27.4]}: the median and its interval (its order statistics), at the median's decimals. */
    static String median(C2cModel.Stats s) {
        double[] iv = s.interval();
        if (iv == null) return Num.of(s.median());
        int d = Num.decimals(s.median());
        return Num.of(s.median()) + " [" + Num.plain(iv[0], d) + ", " + Num.plain(iv[1], d) + "]";
    }

    /** The heatmap, labelled with each CPU's core, cache and package. */
    static String svg(C2cModel m) {
        return C2cHeatmap.svg(m.matrix(), m.cpus(), TITLE);
    }

    /**
     * The heatmap of a file without a model (written before models were saved): its matrix,
     * labelled by CPU number only, as the file does not say where each CPU sat.
     */
    static String svg(Matrix m) {
        return C2cHeatmap.svg(m, Arrays.stream(m.cpus()).mapToObj(c -> new C2cModel.Cpu(c, null, null, null)).toList(), TITLE);
    }


}
