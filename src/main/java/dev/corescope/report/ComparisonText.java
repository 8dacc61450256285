package dev.corescope.report;

import java.util.List;
import java.util.Locale;

/** {@code compare}'s text: the matched rows, the rows found in one file only, and the summary line last. */
public final class ComparisonText {

    private ComparisonText() {
    }

    public static String render(Comparison c) {
        StringBuilder sb = new StringBuilder();
        sb.append("before: ").append(c.before()).append('\n');
        sb.append("after:  ").append(c.after()).append('\n');
        sb.append("test:   ").append(c.test()).append('\n');
        for (String d : c.environmentDiff()) sb.append("# environment changed: ").append(d).append('\n');
        sb.append('\n');
        if (c.rows().isEmpty()) {
            sb.append("No rows in common.\n");
        } else {
            TextTable t = new TextTable("benchmark", "variant", "impl", "metric", "params", ">before", ">after", "unit", ">delta", ">p", "verdict");
            for (Comparison.Row r : c.rows()) {
                t.row(r.benchmark(), r.variant(), r.implementation(), r.metric(), ResultsText.params(r.params()),
                        withError(r.before(), r.beforeError()), withError(r.after(), r.afterError()), r.unit(),
                        r.deltaPercent() == null ? "n/a" : String.format(Locale.ROOT, "%+.1f%%", r.deltaPercent()),
                        r.p() == null ? (r.significant() == null ? "-" : "exact") : r.p() < 0.0001 ? "<0.0001" : String.format(Locale.ROOT, "%.4f", r.p()),
                        r.verdict());
            }
            sb.append(t.render(""));
        }
        only(sb, "Only in " + c.before() + " (removed):", c.onlyBefore());
        only(sb, "Only in " + c.after() + " (added):", c.onlyAfter());
        sb.append('\n').append(c.summaryLine()).append('\n');
        return sb.toString();
    }

    private static void only(StringBuilder sb, String title, List<Result> results) {
        if (results.isEmpty()) return;
        sb.append('\n').append(title).append('\n');
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
