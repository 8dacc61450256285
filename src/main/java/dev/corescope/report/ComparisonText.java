package dev.corescope.report;

import dev.corescope.text.Num;
import dev.corescope.text.TextDoc;
import dev.corescope.text.TextTable;
import dev.corescope.text.TextTable.Column;
import dev.corescope.topology.Placement;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * {@code compare}'s output as a document ({@link TextDoc}): the files and the test, the legend
 * of the finding words, then one table per benchmark, metric and unit (its rows keyed by
 * variant, implementation and params, the key on every line), why rows could not be resolved,
 * the noise used, the rows found in one file only, and the summary line last. The text lays it
 * out at a width ({@code text.Width}: the terminal's, else 100; {@code --wide} none) and the
 * before/after page renders the same parts, so text and page come from one document.
 *
 * <p>Figures are at {@link Num#SIG} significant figures, changes in percent to one decimal,
 * intervals as {@code [low, high]}. Params that every row of a table shares go in its heading;
 * the rest stay in the key, in full when short, else as {@code [1]} with a legend under the table.
 */
public final class ComparisonText {

    /** A table's params shown in full in its key when none is longer than this; else as {@code [n]}. */
    static final int PARAMS_IN_FULL = 24;

    /** The finding words of the tables and what the figures are, as the legend prints them. */
    static final List<TextDoc.Term> LEGEND = List.of(
            new TextDoc.Term("faster, slower, larger, smaller, higher, lower", "the change is significant (its "
                    + Comparison.CONFIDENCE + " interval leaves out 0)"),
            new TextDoc.Term("no change", "no change detectable here (the change is within the row's noise floor)"),
            new TextDoc.Term("unresolved", "not resolvable here (why: below the tables)"),
            new TextDoc.Term("old, new", "the figure before and after; old interval, new interval: its own 99.9% interval (as measured)"),
            new TextDoc.Term("change, interval", "new/old as a change in percent, and its " + Comparison.CONFIDENCE
                    + " interval; \"not measured\": one run per side, the run-to-run noise unknown; \"exact\": error 0 on both sides"));

    /** The interval bars of the page span this change either side of 0, in percent; beyond it, an arrow. */
    static final double SCALE_PERCENT = 50;

    private ComparisonText() {
    }

    /**
     * The comparison as a document: what {@code compare} prints and the before/after page shows.
     *
     * @param c the comparison
     * @return a new document
     */
    public static TextDoc document(Comparison c) {
        TextDoc d = new TextDoc().title("compare: the change from before to after, row by row");
        d.paragraph("before: " + c.before()).paragraph("after: " + c.after()).paragraph("test: " + c.test());
        d.notes("", "# ", c.environmentDiff().stream().map(x -> "environment changed: " + x).toList());
        d.blank();
        if (c.rows().isEmpty()) {
            d.paragraph("No rows in common.");
        } else {
            d.paragraph("Row by row (the seeds' claims are tested by report and bench, docs/verdicts.md):").definitions(LEGEND);
            for (Group<Comparison.Row> g : groups(c.rows(), r -> List.of(r.benchmark(), r.metric(), r.unit()))) {
                d.blank();
                rowsTable(d, g);
            }
        }
        Map<String, Integer> reasons = new LinkedHashMap<>();
        for (Comparison.Row r : c.rows()) {
            if (Comparison.NOT_RESOLVABLE.equals(r.finding())) reasons.merge(r.reason(), 1, Integer::sum);
        }
        if (!reasons.isEmpty()) {
            List<String> why = new ArrayList<>();
            boolean resolve = false;
            for (Map.Entry<String, Integer> e : reasons.entrySet()) {
                String reason = e.getKey();
                // the advice most reasons end with is said once, after them
                if (reason.endsWith("; " + Comparison.RESOLVE)) {
                    reason = reason.substring(0, reason.length() - Comparison.RESOLVE.length() - 2);
                    resolve = true;
                }
                why.add(e.getValue() + (e.getValue() == 1 ? " row: " : " rows: ") + reason);
            }
            d.blank().heading(2, "Not resolvable here, by reason:").notes(why);
            if (resolve) d.paragraph("  ", "To resolve rows of one run per side: " + Comparison.RESOLVE + ".");
        }
        if (c.runNoise() != null && !c.runNoise().isEmpty()) d.blank().heading(2, "Run-to-run noise used:").notes(noise(c));
        only(d, "Only in " + c.before() + " (removed)", c.onlyBefore());
        only(d, "Only in " + c.after() + " (added)", c.onlyAfter());
        d.blank().paragraph(c.summaryLine());
        return d;
    }

    /** The noise used, one note per wording: the families of one allowance named together, not one note each. */
    private static List<String> noise(Comparison c) {
        Map<String, List<String>> byText = new LinkedHashMap<>();
        c.runNoise().forEach((key, n) -> byText.computeIfAbsent(Comparison.noiseText(n), t -> new ArrayList<>()).add(key));
        List<String> out = new ArrayList<>();
        byText.forEach((text, keys) -> out.add(String.join(", ", keys) + ": " + text));
        return out;
    }

    /** The rows of one benchmark, metric and unit, in the order of the first file. */
    record Group<R>(String benchmark, String metric, String unit, List<R> rows) {
    }

    /** {@code rows} grouped by the benchmark, metric and unit {@code key} gives each, in order of first appearance. */
    static <R> List<Group<R>> groups(List<R> rows, Function<R, List<String>> key) {
        Map<List<String>, List<R>> by = new LinkedHashMap<>();
        for (R r : rows) by.computeIfAbsent(key.apply(r), k -> new ArrayList<>()).add(r);
        List<Group<R>> out = new ArrayList<>();
        by.forEach((k, v) -> out.add(new Group<>(k.get(0), k.get(1), k.get(2), v)));
        return out;
    }

    private static void rowsTable(TextDoc d, Group<Comparison.Row> g) {
        Params params = Params.of(g.rows().stream().map(Comparison.Row::params).toList());
        d.heading(2, heading(g.benchmark(), g.metric(), g.unit(), g.rows().size(), params));
        List<Column> cols = new ArrayList<>(List.of(Column.key("variant"), Column.key("impl")));
        if (params.any()) cols.add(Column.key("params"));
        // old and new, as the kernel's bloat-o-meter heads them
        cols.addAll(List.of(Column.number("old"), Column.number("old interval").optional(4), Column.number("new"),
                Column.number("new interval").optional(4), Column.number("change", "%"), Column.number("interval").optional(1),
                Column.text("finding"), Column.number("runs").optional(2), Column.number("p").optional(3)));
        TextTable t = new TextTable(cols).named(g.benchmark() + " " + g.metric());
        for (int i = 0; i < g.rows().size(); i++) {
            Comparison.Row r = g.rows().get(i);
            List<Object> cells = new ArrayList<>(List.of(r.variant(), r.implementation()));
            if (params.any()) cells.add(params.cell(i));
            cells.addAll(List.of(Num.of(r.before()), interval(r.before(), r.beforeError()), Num.of(r.after()), interval(r.after(), r.afterError()),
                    r.deltaPercent() == null ? "n/a" : Num.signed(r.deltaPercent()), ci(r), shortFinding(r),
                    r.runsBefore() == null ? "" : r.runsBefore() + "+" + r.runsAfter(), p(r)));
            t.statusRow(r.finding(), cells.toArray());
        }
        d.table(t);
        d.notes("  ", "", params.legend());
    }

    /**
     * A table's params: those every row shares (for its heading), and each row's others, in full
     * when all are short, else as a reference {@code [n]} to a legend.
     */
    record Params(String common, List<String> rest, boolean full, Map<String, String> refs) {

        static Params of(List<Map<String, Object>> rows) {
            Map<String, Object> common = null;
            for (Map<String, Object> p : rows) {
                Map<String, Object> m = p == null ? Map.of() : p;
                if (common == null) common = new TreeMap<>(m);
                else common.entrySet().removeIf(e -> !Objects.equals(m.get(e.getKey()), e.getValue()) || !m.containsKey(e.getKey()));
            }
            if (common == null) common = new TreeMap<>();
            // a single row's params are all common; many rows keep what tells them apart
            List<String> rest = new ArrayList<>();
            for (Map<String, Object> p : rows) {
                Map<String, Object> m = new TreeMap<>(p == null ? Map.of() : p);
                m.keySet().removeAll(common.keySet());
                rest.add(ResultsText.params(m));
            }
            boolean full = rest.stream().allMatch(s -> s.length() <= PARAMS_IN_FULL);
            Map<String, String> refs = new LinkedHashMap<>();
            if (!full) for (String s : rest) if (!s.isEmpty()) refs.putIfAbsent(s, "[" + (refs.size() + 1) + "]");
            return new Params(ResultsText.params(common), rest, full, refs);
        }

        boolean any() {
            return rest.stream().anyMatch(s -> !s.isEmpty());
        }

        String cell(int row) {
            String s = rest.get(row);
            return full ? s : refs.getOrDefault(s, "");
        }

        List<String> legend() {
            List<String> out = new ArrayList<>();
            refs.forEach((params, ref) -> out.add(ref + " " + params));
            return out;
        }
    }

    /** {@code [low, high]} of a figure and its error, or empty when it has none. */
    private static String interval(double v, Double error) {
        return error == null || Double.isNaN(error) ? "" : Num.interval(v, error);
    }

    static String shortFinding(Comparison.Row r) {
        if (Comparison.NOT_RESOLVABLE.equals(r.finding())) return "unresolved";
        if (Comparison.NO_CHANGE.equals(r.finding())) return "no change";
        String u = r.unit().strip().toLowerCase(Locale.ROOT);
        boolean up = r.after() > r.before();
        if (Comparison.isTime(u)) return up ? "slower" : "faster";
        if (u.startsWith("ops/") || u.startsWith("op/")) return up ? "faster" : "slower";
        if (u.equals("bytes")) return up ? "larger" : "smaller";
        return up ? "higher" : "lower";
    }

    /** The change's interval in percent ({@code [-25.0, -14.7]%}, a bar on the page), or why there is none. */
    static TextTable.Interval ci(Comparison.Row r) {
        String none = r.ciLowPercent() == null ? "-"
                : r.noiseFloorPercent() != null && r.noiseFloorPercent() == 0 ? "exact"
                // the between-run allowance stood in for unmeasured noise: its interval says nothing of the change
                : Comparison.NOT_RESOLVABLE.equals(r.finding()) ? "not measured" : null;
        TextTable.Interval iv = none != null ? TextTable.Interval.none(r.deltaPercent(), none)
                : TextTable.Interval.of(r.deltaPercent(), r.ciLowPercent(), r.ciHighPercent());
        return iv.unit("%").scaled(SCALE_PERCENT);
    }

    private static String p(Comparison.Row r) {
        if (r.p() == null) return r.significant() == null ? "-" : "exact";
        return r.p() < 0.0001 ? "<0.0001" : Num.of(r.p());
    }

    /** The rows of one file only, in tables by benchmark, metric and unit like the matched rows, with their score and interval. */
    private static void only(TextDoc d, String title, List<Result> results) {
        if (results.isEmpty()) return;
        d.blank().heading(2, title + ": " + results.size() + (results.size() == 1 ? " row" : " rows"));
        for (Group<Result> g : groups(results, r -> List.of(r.benchmark(), r.metric(), r.unit()))) {
            List<Result> rows = g.rows();
            Params params = Params.of(rows.stream().map(Result::params).toList());
            d.heading(3, heading(g.benchmark(), g.metric(), g.unit(), rows.size(), params));
            List<Column> cols = new ArrayList<>(List.of(Column.key("variant"), Column.key("impl")));
            if (params.any()) cols.add(Column.key("params"));
            cols.addAll(List.of(Column.number("score"), Column.number("interval").optional(1), Column.number("runs").optional(2)));
            TextTable t = new TextTable(cols).named(g.benchmark() + " " + g.metric());
            for (int i = 0; i < rows.size(); i++) {
                Result r = rows.get(i);
                List<Object> cells = new ArrayList<>(List.of(r.variant(), r.implementation()));
                if (params.any()) cells.add(params.cell(i));
                cells.addAll(List.of(Num.of(r.score()), interval(r.score(), r.error()), Math.max(1, r.runs().size())));
                t.row(cells.toArray());
            }
            d.table(t);
            d.notes("  ", "", params.legend());
        }
    }

    /** {@code cpumask op in ns/op: 24 rows (all with nrCpus=64)}. */
    private static String heading(String benchmark, String metric, String unit, int rows, Params params) {
        return benchmark + " " + metric + " in " + unit + ": " + rows + (rows == 1 ? " row" : " rows")
                + (params.common().isEmpty() ? "" : rows == 1 ? " (" + params.common() + ")" : " (all with " + params.common() + ")");
    }

    /**
     * Two machines side by side ({@link MachineComparison}) as a document: what {@code compare}
     * prints before the rows when the files come from two machines.
     *
     * @param m the machines
     * @return a new document
     */
    public static TextDoc machines(MachineComparison m) {
        TextDoc d = new TextDoc().title(m.differentMachines() ? "Two different machines" : "The same machine");
        d.paragraph(m.differentMachines() ? "compared by relation and by claim, not CPU pair by CPU pair."
                : "model, topology and online CPUs agree.");
        d.notes("  ", "A = ", List.of(dash(m.a()) + ": " + dash(m.machineA())));
        d.notes("  ", "B = ", List.of(dash(m.b()) + ": " + dash(m.machineB())));
        d.blank().heading(2, "Machine (each CPU model is named above)");
        // the CPU models, often long, are in A = and B = above: a column of them would fold the table
        d.table(sideBySide(m.topology().stream().filter(r -> !r.what().equals("CPU")).toList()));
        d.blank().heading(2, "Core-to-core one-way latency by relation (ns; p50 and p99 over the pairs' medians)");
        if (m.c2c().isEmpty()) {
            d.paragraph("  ", "neither file has a c2c run");
        } else {
            TextTable t = new TextTable(Column.key("relation"), Column.key("impl"), Column.number("A p50", "ns"), Column.number("A p99", "ns"),
                    Column.number("A pairs").optional(1), Column.number("B p50", "ns"), Column.number("B p99", "ns"),
                    Column.number("B pairs").optional(1), Column.number("B/A p50"));
            for (MachineComparison.LatencyRow r : m.c2c()) {
                t.row(Placement.ofKey(r.relation()).map(Placement::words).orElse(r.relation()), r.implementation(), ns(r.aP50Ns()), ns(r.aP99Ns()), r.aPairs() == null ? "-" : r.aPairs(),
                        ns(r.bP50Ns()), ns(r.bP99Ns()), r.bPairs() == null ? "-" : r.bPairs(), r.ratio() == null ? "-" : Num.of(r.ratio()) + "x");
            }
            d.table(t.named("c2c by relation"));
        }
        if (!m.jitter().isEmpty()) {
            d.blank().heading(2, "Jitter");
            d.table(sideBySide(m.jitter()));
        }
        d.blank().heading(2, "Claims");
        if (m.claims().isEmpty()) {
            d.paragraph("  ", "neither file has claim findings");
        } else {
            TextTable t = new TextTable(Column.key("claim"), Column.text("A"), Column.text("B"), Column.text("A and B"));
            for (MachineComparison.ClaimRow r : m.claims()) t.row(r.claim(), dash(r.a()), dash(r.b()), r.same() ? "same" : "differs");
            d.table(t);
        }
        return d;
    }

    private static TextTable sideBySide(List<MachineComparison.Row> rows) {
        TextTable t = new TextTable(Column.key(""), Column.text("A"), Column.text("B"));
        for (MachineComparison.Row r : rows) t.row(r.what(), dash(r.a()), dash(r.b()));
        return t;
    }

    private static String ns(Double v) {
        return v == null ? "-" : Num.of(v);
    }

    private static String dash(String s) {
        return s == null ? "-" : s;
    }
}
