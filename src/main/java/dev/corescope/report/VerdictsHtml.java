package dev.corescope.report;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

import static dev.corescope.text.Markup.escape;

/**
 * The parts of the report page that answer before they show: the seeds' verdicts at the top
 * (their document, {@link SeedVerdicts#document}, the one their text is laid out from), linking
 * down to their family's evidence, and the table of contents.
 */
final class VerdictsHtml {

    static final String CSS = """
            #verdicts table.doc-table tr th:first-child,.verdict-family table.doc-table tr th:first-child{border-left:6px solid #999}
            table.doc-table tr.supported th:first-child,table.doc-table tr.supports th:first-child{border-left-color:#2e7d32}
            table.doc-table tr.partly-supported th:first-child{border-left-color:#7cb342}
            table.doc-table tr.supports-the-direction-smaller-than-claimed th:first-child,table.doc-table tr.supports-the-direction-larger-than-claimed th:first-child{border-left-color:#7cb342}
            table.doc-table tr.contradicted th:first-child,table.doc-table tr.partly-contradicted th:first-child,table.doc-table tr.contradicts th:first-child{border-left-color:#c62828}
            table.doc-table tr.mixed th:first-child{border-left-color:#e0a800}
            .verdict-family{background:#f5f7fb;border:1px solid #dde3ee;padding:6px 10px;font-size:13px}
            nav.toc ol{margin:.2em 0 .6em 1.2em;padding:0}nav.toc li{margin:1px 0}
            figure.forest{margin:6px 0;overflow-x:auto}details.reasoning{font-size:13px;margin:4px 0 10px}details.reasoning summary{cursor:pointer;color:#444}
            """;

    private VerdictsHtml() {
    }

    /**
     * The verdicts of the page's file number {@code index}, or nothing when it holds no seed's
     * family: {@link SeedVerdicts#document} (the same document their text is), rendered by
     * {@link DocHtml}, each seed's family linked to its evidence.
     */
    static void section(PrintWriter h, String title, List<SeedVerdicts.Verdict> verdicts, int index) {
        if (verdicts.isEmpty()) return;
        h.append("<section id=\"verdicts\">\n<h2>").append(escape(title)).append("</h2>\n");
        h.append("<figure class=\"forest\">").append(SvgSanitizer.embed(VerdictsSvg.of(verdicts), "verdicts")).append("</figure>\n");
        DocHtml.render(h, VerdictsText.document(verdicts, true), "verdicts", List.of(), "file-" + index + "-");
        reasoning(h, verdicts);
        h.append("</section>\n");
    }

    /** A family section's opening: its verdict, when a seed belongs to it, as the verdicts' document of that family alone. */
    static void familyVerdict(PrintWriter h, List<SeedVerdicts.Verdict> verdicts, String family) {
        List<SeedVerdicts.Verdict> own = verdicts.stream().filter(v -> v.family().equals(family)).toList();
        if (own.isEmpty()) return;
        h.append("<div class=\"verdict-family ").append(cssClass(own.getFirst().word())).append("\"><b>Verdict:</b> ")
                .append(escape(own.getFirst().summary())).append('\n');
        DocHtml.render(h, VerdictsText.document(own, false), family + " verdict", List.of());
        reasoning(h, own);
        h.append("</div>\n");
    }

    /** Each claim's reasoning in full, folded under the short verdicts. */
    private static void reasoning(PrintWriter h, List<SeedVerdicts.Verdict> verdicts) {
        h.append("<details class=\"reasoning\"><summary>Each claim's reasoning in full</summary>\n");
        DocHtml.render(h, VerdictsText.reasoning(verdicts), "verdicts reasoning", List.of());
        h.append("</details>\n");
    }

    /** The table of contents: verdicts, the before/after view, then each file's machine, families and counters. */
    static void toc(PrintWriter h, List<HtmlReport.Input> inputs, boolean verdicts) {
        h.append("<nav class=\"toc\"><b>Contents</b>\n<ol>\n");
        if (verdicts) h.append("<li><a href=\"#verdicts\">Verdicts</a></li>\n");
        if (inputs.size() == 2) h.append("<li><a href=\"#compare\">Before and after</a></li>\n");
        for (int i = 0; i < inputs.size(); i++) {
            ResultsFile f = inputs.get(i).file();
            int n = i + 1;
            h.append("<li><a href=\"#file-").append(String.valueOf(n)).append("\">").append(escape(inputs.get(i).name())).append("</a>\n<ol>");
            h.append("<li><a href=\"#file-").append(String.valueOf(n)).append("-machine\">Machine</a></li>");
            if (!NoisyRows.of(f).isEmpty()) h.append("<li><a href=\"#file-").append(String.valueOf(n)).append("-noisy\">Noisy rows</a></li>");
            f.results().stream().map(Result::benchmark).distinct().forEach(fam -> h.append("<li><a href=\"#file-").append(String.valueOf(n)).append('-')
                    .append(escape(fam)).append("\">").append(escape(fam)).append("</a></li>"));
            if (!f.counters().isEmpty()) h.append("<li><a href=\"#file-").append(String.valueOf(n)).append("-counters\">Counters</a></li>");
            h.append("</ol></li>\n");
        }
        h.append("</ol></nav>\n");
    }

    static String cssClass(String finding) {
        return finding == null ? "" : finding.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("-$", "");
    }
}
