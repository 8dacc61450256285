package dev.corescope.report;

import dev.corescope.text.Markup;

import java.io.PrintWriter;
import java.util.List;

/**
 * The section of {@code report A.json B.json} for two machines: their topology pictures side
 * by side, then {@link MachineComparison}'s document ({@link ComparisonText#machines}: the machines,
 * latency by relation, jitter, each claim's finding on each), as {@code compare} prints it. Everything from the files is escaped; the pictures go through
 * {@link SvgSanitizer}.
 */
final class MachinesHtml {

    private MachinesHtml() {
    }

    static void section(PrintWriter h, MachineComparison c, ResultsFile a, ResultsFile b) {
        h.append("<section id=\"machines\">\n<h2>Two machines side by side</h2>\n");
        h.append("<p class=\"note\">These files come from different machines, so they are compared by relation and by claim, "
                + "not row by row or CPU pair by CPU pair.</p>\n");
        h.append("<div style=\"display:flex;gap:16px;flex-wrap:wrap\">\n");
        picture(h, "A: " + c.a(), c.machineA(), a);
        picture(h, "B: " + c.b(), c.machineB(), b);
        h.append("</div>\n");
        // the tables are compare's document of the two machines, the parts its text lays out
        DocHtml.render(h, ComparisonText.machines(c), "machines", List.of());
        h.append("</section>\n");
    }

    private static void picture(PrintWriter h, String title, String machine, ResultsFile f) {
        h.append("<figure class=\"topology\" style=\"flex:1;min-width:320px\"><figcaption>").append(Markup.escape(title)).append(": ").append(Markup.escape(machine)).append("</figcaption>");
        h.append(MachineHtml.picture(f.topology()).orElse("<p class=\"note\">No topology picture in this file.</p>"));
        h.append("</figure>\n");
    }
}
