package dev.corescope.report;

import dev.corescope.text.Markup;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The page's table of a family's saved rows: Java and C scores side by side with bars. Every
 * string from the file is escaped by {@link Markup}.
 */
final class ResultsHtml {

    private ResultsHtml() {
    }

    /**
     * The family's rows with Java and C side by side (a row per variant, metric and params), each
     * score with its error and a bar scaled to the largest score of the same metric and unit;
     * {@code folded} (the family's own document shows its tables) puts them in a closed
     * {@code <details>}.
     */
    static void results(PrintWriter h, String family, List<Result> rs, boolean folded) {
        if (folded) {
            h.append("<details class=\"rows\"><summary>every saved row (").append(String.valueOf(rs.size()))
                    .append("), Java and C side by side</summary>\n");
        }
        table(h, family, rs);
        if (folded) h.append("</details>\n");
    }

    private static void table(PrintWriter h, String family, List<Result> rs) {
        Map<String, Double> maxByGroup = new LinkedHashMap<>();
        for (Result r : rs) maxByGroup.merge(r.metric() + "|" + r.unit(), Math.abs(r.score()), Math::max);
        h.append("<div class=\"scroll\"><table class=\"results\" data-family=\"").append(Markup.escape(family)).append("\">\n");
        h.append("<tr><th>variant</th><th>metric</th><th>params</th><th>Java</th><th>C</th><th>unit</th><th>cpus</th>"
                + "<th title=\"scaled to the largest score of the same metric and unit; Java above, C below\">relative</th></tr>\n");
        for (Result[] pair : ResultsText.sideBySide(rs)) {
            Result any = pair[0] != null ? pair[0] : pair[1];
            double max = maxByGroup.get(any.metric() + "|" + any.unit());
            h.append("<tr><td>").append(Markup.escape(any.variant())).append("</td><td>").append(Markup.escape(any.metric()))
                    .append("</td><td class=\"mono\">").append(Markup.escape(ResultsText.params(any.params()))).append("</td>");
            for (Result r : pair) {
                h.append("<td class=\"num\"");
                if (r != null) {
                    h.append(" title=\"").append(Markup.escape(r.implementation() + ", " + r.samples() + " samples")).append("\">")
                            .append(ResultsText.number(r.score()))
                            .append(r.error() == null ? "" : " &plusmn; " + ResultsText.number(r.error()));
                } else {
                    h.append(">");
                }
                h.append("</td>");
            }
            h.append("<td>").append(Markup.escape(any.unit())).append("</td><td>").append(Markup.escape(ResultsText.cpusCell(pair))).append("</td><td>");
            for (Result r : pair) if (r != null) bar(h, r, max, r == pair[1]);
            h.append("</td></tr>\n");
        }
        h.append("</table></div>\n");
    }

    private static void bar(PrintWriter h, Result r, double max, boolean c) {
        double w = max == 0 ? 0 : 100 * Math.abs(r.score()) / max;
        double ew = max == 0 || r.error() == null ? 0 : 100 * r.error() / max;
        h.append("<div class=\"bar").append(c ? " c" : "").append("\"><span style=\"width:").append(pct(w)).append("%\"></span>");
        if (ew > 0) {
            double from = Math.max(0, w - ew);
            double to = Math.min(100, w + ew);
            h.append("<i style=\"left:").append(pct(from)).append("%;width:").append(pct(to - from)).append("%\"></i>");
        }
        h.append("</div>");
    }

    private static String pct(double v) {
        return String.format(Locale.ROOT, "%.1f", Math.max(0, Math.min(100, v)));
    }
}
