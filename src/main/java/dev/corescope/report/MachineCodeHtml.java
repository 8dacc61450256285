package dev.corescope.report;

import dev.corescope.text.Markup;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The machine code of one family's measured functions on the HTML page: one collapsible
 * {@code <details>} block with the counts (the document its text is) and, for each group of
 * functions (same implementation and params), their disassemblies side by side. Everything read
 * from the results file is escaped.
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

    /** The block for {@code family} into {@code h}: its counts ({@link MachineCodeText#document}), then the disassemblies; nothing without machine code for it. */
    static void write(PrintWriter h, List<MachineCode> code, String family) {
        List<MachineCode> mine = code.stream().filter(c -> family.equals(c.benchmark())).toList();
        if (mine.isEmpty()) return;
        long shown = mine.stream().filter(c -> c.disassembly() != null).count();
        h.append("<details class=\"code\" data-family=\"").append(Markup.escape(family)).append("\">\n<summary>Machine code: ")
                .append(String.valueOf(mine.size())).append(mine.size() == 1 ? " function" : " functions").append(", ")
                .append(String.valueOf(shown)).append(" disassembled</summary>\n");
        DocHtml.render(h, MachineCodeText.document(code, family), family + " machine code", List.of());
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
        h.append("</details>\n");
    }
}
