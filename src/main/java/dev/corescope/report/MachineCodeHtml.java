package dev.corescope.report;

import dev.corescope.text.Markup;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The machine code of one family's measured functions on the HTML page: one collapsible
 * {@code <details>} block with the counts and, for each group of functions (same
 * implementation and params), their disassemblies side by side. Everything read from the
 * results file is escaped.
 */
public final class MachineCodeHtml {

    /** The rules this block needs; the page includes them once. */
    public static final String CSS = """
            details.code { margin: .5em 0 1em; }
            details.code > summary { cursor: pointer; font-weight: 600; }
            .code-side { display: flex; gap: 1em; overflow-x: auto; align-items: flex-start; }
            .code-side > div { flex: 0 0 auto; }
            .code-side h4 { margin: .5em 0 .2em; font-size: .9em; }
            .code-side pre { font-size: 12px; line-height: 1.3; margin: 0; padding: .4em; background: #f6f6f6; border: 1px solid #ddd; }
            """;

    private MachineCodeHtml() {
    }

    /** The block for {@code family}, or {@code ""} when the file has no machine code for it. */
    public static String of(List<MachineCode> code, String family) {
        List<MachineCode> mine = code.stream().filter(c -> family.equals(c.benchmark())).toList();
        if (mine.isEmpty()) return "";
        StringBuilder h = new StringBuilder();
        long shown = mine.stream().filter(c -> c.disassembly() != null).count();
        h.append("<details class=\"code\" data-family=\"").append(Markup.escape(family)).append("\">\n<summary>Machine code: ")
                .append(mine.size()).append(mine.size() == 1 ? " function" : " functions").append(", ").append(shown)
                .append(" disassembled</summary>\n");
        h.append("<p class=\"note\">Static counts (each instruction once, alignment padding left out); a load or store is a memory "
                + "operand read or written; the loop is a natural loop of the control-flow graph (a back edge whose target dominates its source): the timed one for a harness, else the innermost; \"no loop\" where there is none. See docs/formats-code.md.</p>\n");
        h.append("<div class=\"scroll\"><table class=\"code-facts\">\n<tr><th>impl</th><th>variant</th><th>params</th><th>symbol</th>"
                + "<th>bytes</th><th>instructions</th><th>loads</th><th>stores</th><th>loop instructions</th><th>loop loads</th>"
                + "<th>loop stores</th></tr>\n");
        for (MachineCode c : mine) {
            MachineCode.HotLoop l = c.hotLoop();
            h.append("<tr><td>").append(Markup.escape(c.implementation())).append("</td><td>").append(Markup.escape(c.variant()))
                    .append("</td><td class=\"mono\">").append(Markup.escape(ResultsText.params(c.params())))
                    .append("</td><td class=\"mono\">").append(Markup.escape(c.symbol())).append("</td>")
                    .append(num(c.bytes())).append(num(c.instructions())).append(num(c.loads())).append(num(c.stores()))
                    .append(loop(c, l == null ? null : l.instructions())).append(loop(c, l == null ? null : l.loads()))
                    .append(loop(c, l == null ? null : l.stores())).append("</tr>\n");
        }
        h.append("</table></div>\n");

        Map<String, List<MachineCode>> groups = new LinkedHashMap<>();
        for (MachineCode c : mine) if (c.disassembly() != null) groups.computeIfAbsent(c.groupKey(), k -> new ArrayList<>()).add(c);
        for (List<MachineCode> g : groups.values()) {
            h.append("<div class=\"code-side\">\n");
            for (MachineCode c : g) {
                h.append("<div><h4>").append(Markup.escape(c.variant()));
                if (!c.params().isEmpty()) h.append(" ").append(Markup.escape(ResultsText.params(c.params())));
                h.append(" <code>").append(Markup.escape(c.symbol())).append("</code></h4><pre>")
                        .append(Markup.escape(c.disassembly())).append("</pre></div>\n");
            }
            h.append("</div>\n");
        }
        Set<String> reasons = new LinkedHashSet<>();
        for (MachineCode c : mine) if (c.reason() != null) reasons.add(c.implementation() + ": " + c.reason());
        for (String r : reasons) h.append("<p class=\"note\">").append(Markup.escape(r)).append("</p>\n");
        h.append("</details>\n");
        return h.toString();
    }

    private static String loop(MachineCode c, Integer n) {
        return "<td class=\"num\">" + MachineCodeText.loopCell(c, n) + "</td>";
    }

    private static String num(Number n) {
        return "<td class=\"num\">" + (n == null ? "n/a" : n) + "</td>";
    }
}
