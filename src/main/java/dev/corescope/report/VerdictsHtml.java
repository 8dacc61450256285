package dev.corescope.report;

import java.util.List;
import java.util.Locale;

import static dev.corescope.report.HtmlReport.esc;

/**
 * The parts of the report page that answer before they show: the seeds' verdicts at the top,
 * one line each, linking down to their family's evidence, and the table of contents.
 */
final class VerdictsHtml {

    static final String CSS = """
            .verdicts{list-style:none;padding:0}.verdicts li{background:#fff;border:1px solid #ddd;border-left:6px solid #999;margin:6px 0;padding:6px 10px}
            .verdicts li.significant{border-left-color:#2e7d32}.verdicts li.no-change-detectable-here{border-left-color:#e0a800}
            .verdicts li.not-resolvable-here{border-left-color:#999}
            .verdicts .finding{font-weight:bold}.verdicts div{font-size:13px;margin-top:2px}
            .verdict-family{background:#f5f7fb;border:1px solid #dde3ee;padding:6px 10px;font-size:13px}
            nav.toc ol{margin:.2em 0 .6em 1.2em;padding:0}nav.toc li{margin:1px 0}
            """;

    private VerdictsHtml() {
    }

    /** The verdicts of {@code file} (the page's file number {@code index}), or nothing when it holds no seed's family. */
    static void section(StringBuilder h, String title, List<SeedVerdicts.Verdict> verdicts, int index) {
        if (verdicts.isEmpty()) return;
        h.append("<section id=\"verdicts\">\n<h2>").append(esc(title)).append("</h2>\n");
        h.append("<p class=\"note\">One line per seed: the kernel patch's claim and what this machine shows for it, each effect "
                + "with its 99.9% interval. A run (JMH fork) is the unit; with one fork per row (--quick, the tour) the Java "
                + "figures are not resolvable here. See docs/compare.md.</p>\n<ul class=\"verdicts\">\n");
        for (SeedVerdicts.Verdict v : verdicts) {
            h.append("<li class=\"").append(cssClass(v.finding())).append("\"><a href=\"#file-").append(index).append('-')
                    .append(esc(v.family())).append("\">").append(esc(v.family())).append("</a> (").append(esc(v.seed())).append("): ")
                    .append("<span class=\"finding\">").append(esc(v.finding())).append("</span>")
                    .append(v.why().isEmpty() ? "" : " &mdash; " + esc(v.why()))
                    .append("<div>Claim: ").append(esc(v.claim())).append("</div>")
                    .append("<div>Java: ").append(esc(v.java())).append("</div>")
                    .append("<div>C: ").append(esc(v.c())).append("</div>");
            if (v.extra() != null) h.append("<div>").append(esc(v.extra())).append("</div>");
            h.append("</li>\n");
        }
        h.append("</ul>\n</section>\n");
    }

    /** A family section's opening: its verdict, when a seed belongs to it. */
    static void familyVerdict(StringBuilder h, List<SeedVerdicts.Verdict> verdicts, String family) {
        for (SeedVerdicts.Verdict v : verdicts) {
            if (!v.family().equals(family)) continue;
            h.append("<div class=\"verdict-family ").append(cssClass(v.finding())).append("\"><b>Verdict:</b> ")
                    .append(esc(v.finding())).append(v.why().isEmpty() ? "" : " (" + esc(v.why()) + ")")
                    .append(". Claim: ").append(esc(v.claim())).append(". Java: ").append(esc(v.java()))
                    .append(". C: ").append(esc(v.c())).append(".").append(v.extra() == null ? "" : " " + esc(v.extra()) + ".")
                    .append("</div>\n");
        }
    }

    /** The table of contents: verdicts, the before/after view, then each file's machine, families and counters. */
    static void toc(StringBuilder h, List<HtmlReport.Input> inputs, boolean verdicts) {
        h.append("<nav class=\"toc\"><b>Contents</b>\n<ol>\n");
        if (verdicts) h.append("<li><a href=\"#verdicts\">Verdicts</a></li>\n");
        if (inputs.size() == 2) h.append("<li><a href=\"#compare\">Before and after</a></li>\n");
        for (int i = 0; i < inputs.size(); i++) {
            ResultsFile f = inputs.get(i).file();
            int n = i + 1;
            h.append("<li><a href=\"#file-").append(n).append("\">").append(esc(inputs.get(i).name())).append("</a>\n<ol>");
            h.append("<li><a href=\"#file-").append(n).append("-machine\">Machine</a></li>");
            if (!NoisyRows.of(f).isEmpty()) h.append("<li><a href=\"#file-").append(n).append("-noisy\">Noisy rows</a></li>");
            f.results().stream().map(Result::benchmark).distinct().forEach(fam -> h.append("<li><a href=\"#file-").append(n).append('-')
                    .append(esc(fam)).append("\">").append(esc(fam)).append("</a></li>"));
            if (!f.layouts().isEmpty()) h.append("<li><a href=\"#file-").append(n).append("-layouts\">Memory layouts</a></li>");
            if (!f.counters().isEmpty()) h.append("<li><a href=\"#file-").append(n).append("-counters\">Counters</a></li>");
            h.append("</ol></li>\n");
        }
        h.append("</ol></nav>\n");
    }

    static String cssClass(String finding) {
        return finding == null ? "" : finding.toLowerCase(Locale.ROOT).replace(' ', '-');
    }
}
