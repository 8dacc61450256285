package dev.corescope.report;

import dev.corescope.text.Markup;

import java.util.List;

/**
 * The section of {@code report A.json B.json} for two machines: their topology pictures side
 * by side, then {@link MachineComparison}'s tables (the machines, latency by relation, jitter,
 * each claim's finding on each). Everything from the files is escaped; the pictures go through
 * {@link SvgSanitizer}.
 */
final class MachinesHtml {

    private MachinesHtml() {
    }

    static void section(StringBuilder h, MachineComparison c, ResultsFile a, ResultsFile b) {
        h.append("<section id=\"machines\">\n<h2>Two machines side by side</h2>\n");
        h.append("<p class=\"note\">These files come from different machines, so they are compared by relation and by claim, "
                + "not row by row or CPU pair by CPU pair.</p>\n");
        h.append("<div style=\"display:flex;gap:16px;flex-wrap:wrap\">\n");
        picture(h, "A: " + c.a(), c.machineA(), a);
        picture(h, "B: " + c.b(), c.machineB(), b);
        h.append("</div>\n");
        h.append("<h3>Machine</h3>\n");
        rows(h, c.topology());
        h.append("<h3>Core-to-core one-way latency by relation</h3>\n");
        if (c.c2c().isEmpty()) {
            h.append("<p class=\"note\">Neither file has a c2c run.</p>\n");
        } else {
            h.append("<table>\n<tr><th>relation</th><th>impl</th><th>A p50 ns</th><th>A p99 ns</th><th>A pairs</th>"
                    + "<th>B p50 ns</th><th>B p99 ns</th><th>B pairs</th><th>B/A p50</th></tr>\n");
            for (MachineComparison.LatencyRow r : c.c2c()) {
                h.append("<tr><td>").append(Markup.escape(r.relation().replace('_', ' '))).append("</td><td>").append(Markup.escape(r.implementation())).append("</td>");
                cell(h, MachineComparison.ns(r.aP50Ns()));
                cell(h, MachineComparison.ns(r.aP99Ns()));
                cell(h, r.aPairs() == null ? "-" : "" + r.aPairs());
                cell(h, MachineComparison.ns(r.bP50Ns()));
                cell(h, MachineComparison.ns(r.bP99Ns()));
                cell(h, r.bPairs() == null ? "-" : "" + r.bPairs());
                cell(h, r.ratio() == null ? "-" : String.format(java.util.Locale.ROOT, "%.2fx", r.ratio()));
                h.append("</tr>\n");
            }
            h.append("</table>\n");
        }
        if (!c.jitter().isEmpty()) {
            h.append("<h3>Jitter</h3>\n");
            rows(h, c.jitter());
        }
        h.append("<h3>Verdicts: each claim on each machine</h3>\n");
        if (c.claims().isEmpty()) {
            h.append("<p class=\"note\">Neither file has claim findings.</p>\n");
        } else {
            h.append("<table>\n<tr><th>claim</th><th>A</th><th>B</th><th></th></tr>\n");
            for (MachineComparison.ClaimRow r : c.claims()) {
                h.append("<tr><td>").append(Markup.escape(r.claim())).append("</td><td>").append(Markup.escape(dash(r.a()))).append("</td><td>")
                        .append(Markup.escape(dash(r.b()))).append("</td><td>").append(r.same() ? "same" : "differs").append("</td></tr>\n");
            }
            h.append("</table>\n");
        }
        h.append("</section>\n");
    }

    private static void picture(StringBuilder h, String title, String machine, ResultsFile f) {
        h.append("<figure class=\"topology\" style=\"flex:1;min-width:320px\"><figcaption>").append(Markup.escape(title)).append(": ").append(Markup.escape(machine)).append("</figcaption>");
        h.append(MachineHtml.picture(f.topology()).orElse("<p class=\"note\">No topology picture in this file.</p>"));
        h.append("</figure>\n");
    }

    private static void rows(StringBuilder h, List<MachineComparison.Row> rows) {
        h.append("<table>\n<tr><th></th><th>A</th><th>B</th></tr>\n");
        for (MachineComparison.Row r : rows) {
            h.append("<tr><td>").append(Markup.escape(r.what())).append("</td><td>").append(Markup.escape(dash(r.a()))).append("</td><td>").append(Markup.escape(dash(r.b()))).append("</td></tr>\n");
        }
        h.append("</table>\n");
    }

    private static void cell(StringBuilder h, String s) {
        h.append("<td class=\"num\">").append(Markup.escape(s)).append("</td>");
    }

    private static String dash(String s) {
        return s == null ? "-" : s;
    }
}
