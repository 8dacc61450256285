package dev.corescope.report;

import dev.corescope.text.Terminal;
import dev.corescope.text.TextTable;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code compare}'s text: the matched rows, the rows found in one file only, why rows could not
 * be resolved, and the summary line last. By default it fits {@link #WIDTH} columns: params move
 * to a key below the table ({@code [1] nrCpus=64}) and, if a row is still too long, its figures
 * go on a second line; {@code --wide} prints every field on one line per row.
 */
public final class ComparisonText {

    /** Default width of the text output. */
    public static final int WIDTH = 120;

    private ComparisonText() {
    }

    public static String render(Comparison c) {
        return render(c, Integer.MAX_VALUE);
    }

    /** The text, no line wider than {@code width} where the data allows (file names and reasons wrap only at spaces). */
    public static String render(Comparison c, int width) {
        StringBuilder sb = new StringBuilder();
        sb.append("before: ").append(Terminal.escape(c.before())).append('\n');
        sb.append("after:  ").append(Terminal.escape(c.after())).append('\n');
        wrap(sb, "test:   ", c.test(), width);
        for (String d : c.environmentDiff()) sb.append("# environment changed: ").append(Terminal.escape(d)).append('\n');
        sb.append('\n');
        if (c.rows().isEmpty()) {
            sb.append("No rows in common.\n");
        } else if (width == Integer.MAX_VALUE) {
            sb.append(wide(c));
        } else {
            sb.append(narrow(c, width));
        }
        Map<String, Integer> reasons = new LinkedHashMap<>();
        for (Comparison.Row r : c.rows()) {
            if (Comparison.NOT_RESOLVABLE.equals(r.finding())) reasons.merge(r.reason(), 1, Integer::sum);
        }
        if (!reasons.isEmpty()) {
            sb.append('\n');
            reasons.forEach((why, n) -> wrap(sb, "not resolvable here (" + n + (n == 1 ? " row): " : " rows): "), why, width));
        }
        for (String n : c.noiseNotes()) wrap(sb, "noise: ", n, width);
        only(sb, "Only in " + c.before() + " (removed):", c.onlyBefore());
        only(sb, "Only in " + c.after() + " (added):", c.onlyAfter());
        sb.append('\n').append(c.summaryLine()).append('\n');
        return sb.toString();
    }

    /** Every field, one line per row. */
    private static String wide(Comparison c) {
        TextTable t = new TextTable("benchmark", "variant", "impl", "metric", "params", ">before", ">after", "unit", ">delta",
                ">99.9% CI", ">runs", ">p", "verdict", "finding");
        for (Comparison.Row r : c.rows()) {
            t.row(r.benchmark(), r.variant(), r.implementation(), r.metric(), ResultsText.params(r.params()),
                    withError(r.before(), r.beforeError()), withError(r.after(), r.afterError()), r.unit(), delta(r), ci(r),
                    r.runsBefore() + "+" + r.runsAfter(), p(r), r.verdict(), r.finding());
        }
        return t.render("");
    }

    /** Params as a key, figures without their errors (the interval says it), a second line if still too long. */
    private static String narrow(Comparison c, int width) {
        Map<String, String> keys = new LinkedHashMap<>();
        for (Comparison.Row r : c.rows()) {
            String p = ResultsText.params(r.params());
            if (!p.isEmpty()) keys.putIfAbsent(p, "[" + (keys.size() + 1) + "]");
        }
        TextTable t = new TextTable("row", "params", ">before", ">after", "unit", ">change", ">99.9% CI", "finding");
        for (Comparison.Row r : c.rows()) {
            t.row(rowName(r), keys.getOrDefault(ResultsText.params(r.params()), ""), ResultsText.number(r.before()),
                    ResultsText.number(r.after()), r.unit(), delta(r), ci(r), shortFinding(r));
        }
        String table = t.render("");
        StringBuilder sb = new StringBuilder();
        if (table.lines().allMatch(l -> l.length() <= width)) {
            sb.append(table);
        } else {
            TextTable figures = new TextTable(">before", ">after", "unit", ">change", ">99.9% CI", "finding");
            for (Comparison.Row r : c.rows()) {
                figures.row(ResultsText.number(r.before()), ResultsText.number(r.after()), r.unit(), delta(r), ci(r), shortFinding(r));
            }
            List<String> lines = figures.render("    ").lines().toList();
            sb.append(lines.getFirst()).append('\n');
            for (int i = 0; i < c.rows().size(); i++) {
                Comparison.Row r = c.rows().get(i);
                String key = keys.getOrDefault(ResultsText.params(r.params()), "");
                sb.append(rowName(r)).append(key.isEmpty() ? "" : "  " + key).append('\n');
                sb.append(lines.get(i + 1)).append('\n');
            }
        }
        wrap(sb, "finding: ", "faster, slower, higher, lower: significant; no change: no change detectable here (the change "
                + "is within the row's noise floor); unresolved: not resolvable here (why below); a 99.9% CI \"not measured\": "
                + "one run per side, the run-to-run noise unknown (row-level statistics; the seeds' claims are tested by "
                + "report and bench, docs/verdicts.md)", width);
        for (Map.Entry<String, String> k : keys.entrySet()) wrap(sb, k.getValue() + " ", k.getKey(), width);
        return sb.toString();
    }

    private static String rowName(Comparison.Row r) {
        return Terminal.escape(r.benchmark() + " " + r.variant() + " " + r.implementation() + " " + r.metric());
    }

    private static String shortFinding(Comparison.Row r) {
        if (Comparison.NOT_RESOLVABLE.equals(r.finding())) return "unresolved";
        if (Comparison.NO_CHANGE.equals(r.finding())) return "no change";
        String u = r.unit().strip().toLowerCase(Locale.ROOT);
        boolean up = r.after() > r.before();
        if (Comparison.isTime(u)) return up ? "slower" : "faster";
        if (u.startsWith("ops/") || u.startsWith("op/")) return up ? "faster" : "slower";
        if (u.equals("bytes")) return up ? "larger" : "smaller";
        return up ? "higher" : "lower";
    }

    private static String delta(Comparison.Row r) {
        return r.deltaPercent() == null ? "n/a" : String.format(Locale.ROOT, "%+.1f%%", r.deltaPercent());
    }

    private static String ci(Comparison.Row r) {
        if (r.ciLowPercent() == null) return "-";
        if (r.noiseFloorPercent() != null && r.noiseFloorPercent() == 0) return "exact";
        // the between-run allowance stood in for unmeasured noise: its interval says nothing of the change
        if (Comparison.NOT_RESOLVABLE.equals(r.finding())) return "not measured";
        return percent(r.ciLowPercent()) + ".." + percent(r.ciHighPercent());
    }

    private static String percent(double v) {
        if (Math.abs(v) >= 1e6) return String.format(Locale.ROOT, "%+.0e", v);
        return Math.abs(v) >= 1000 ? String.format(Locale.ROOT, "%+.0f", v) : String.format(Locale.ROOT, "%+.1f", v);
    }

    private static String p(Comparison.Row r) {
        return r.p() == null ? (r.significant() == null ? "-" : "exact") : r.p() < 0.0001 ? "<0.0001" : String.format(Locale.ROOT, "%.4f", r.p());
    }

    /** {@code prefix} then {@code text}, wrapped at spaces to {@code width}, continuation lines indented. */
    static void wrap(StringBuilder sb, String prefix, String text, int width) {
        text = Terminal.escape(text);  // reasons and params come from files: one line each, nothing a terminal obeys
        if (width == Integer.MAX_VALUE || prefix.length() + text.length() <= width) {
            sb.append(prefix).append(text).append('\n');
            return;
        }
        String indent = "    ";
        StringBuilder line = new StringBuilder(prefix);
        for (String word : text.split(" ")) {
            if (line.length() + 1 + word.length() > width && line.length() > indent.length() && !line.toString().equals(prefix)) {
                sb.append(line.toString().stripTrailing()).append('\n');
                line = new StringBuilder(indent);
            }
            if (!line.isEmpty() && !line.toString().endsWith(" ")) line.append(' ');
            line.append(word);
        }
        sb.append(line.toString().stripTrailing()).append('\n');
    }

    private static void only(StringBuilder sb, String title, List<Result> results) {
        if (results.isEmpty()) return;
        sb.append('\n').append(Terminal.escape(title)).append('\n');
        TextTable t = new TextTable("benchmark", "variant", "impl", "metric", "params", ">score", "unit");
        for (Result r : results) {
            t.row(r.benchmark(), r.variant(), r.implementation(), r.metric(), ResultsText.params(r.params()),
                    withError(r.score(), r.error()), r.unit());
        }
        sb.append(t.render("  "));
    }

    static String withError(double score, Double error) {
        return ResultsText.number(score) + (error == null ? "" : " ± " + ResultsText.number(error));
    }
}
