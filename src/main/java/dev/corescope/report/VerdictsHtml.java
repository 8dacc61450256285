package dev.corescope.report;

import java.util.List;
import java.util.Locale;

import static dev.corescope.text.Markup.escape;

/**
 * The parts of the report page that answer before they show: the seeds' verdicts at the top,
 * one line each, linking down to their family's evidence, and the table of contents.
 */
final class VerdictsHtml {

    static final String CSS = """
            .verdicts{list-style:none;padding:0}.verdicts li{background:#fff;border:1px solid #ddd;border-left:6px solid #999;margin:6px 0;padding:6px 10px}
            .verdicts li.supported{border-left-color:#2e7d32}.verdicts li.partly-supported{border-left-color:#7cb342}
            .verdicts li.contradicted,.verdicts li.partly-contradicted{border-left-color:#c62828}.verdicts li.mixed{border-left-color:#e0a800}
            .verdicts li.inconclusive,.verdicts li.not-testable-here{border-left-color:#999}
            .verdicts .finding{font-weight:bold}.verdicts div,.verdicts ul{font-size:13px;margin-top:2px}
            .claims{margin:2px 0 0 1em;padding:0}.claims li{border:none;margin:2px 0;padding:0}
            dl.legend{font-size:13px;margin:4px 0 8px}dl.legend dt{font-weight:bold;float:left;clear:left;margin-right:.5em}dl.legend dd{margin:0 0 2px 0}
            .verdict-family{background:#f5f7fb;border:1px solid #dde3ee;padding:6px 10px;font-size:13px}
            nav.toc ol{margin:.2em 0 .6em 1.2em;padding:0}nav.toc li{margin:1px 0}
            """;

    private VerdictsHtml() {
    }

    /** The verdicts of {@code file} (the page's file number {@code index}), or nothing when it holds no seed's family. */
    static void section(StringBuilder h, String title, List<SeedVerdicts.Verdict> verdicts, int index) {
        if (verdicts.isEmpty()) return;
        h.append("<section id=\"verdicts\">\n<h2>").append(escape(title)).append("</h2>\n");
        h.append("<p class=\"note\">One line per seed, then each of its claims tested against this run: the measured effect "
                + "with its 99.9% interval (runs, i.e. JMH forks, as the unit) against zero and against the claimed size. "
                + "The words (docs/verdicts.md):</p>\n<dl class=\"legend\">\n");
        for (SeedVerdicts.Term t : SeedVerdicts.TERMS) {
            h.append("<dt>").append(escape(t.words())).append("</dt><dd>").append(escape(t.meaning())).append("</dd>\n");
        }
        h.append("</dl>\n<ul class=\"verdicts\">\n");
        for (SeedVerdicts.Verdict v : verdicts) {
            h.append("<li class=\"").append(cssClass(v.word())).append("\"><a href=\"#file-").append(index).append('-')
                    .append(escape(v.family())).append("\">").append(escape(v.family())).append("</a> (").append(escape(v.seed())).append("): ")
                    .append("<span class=\"finding\">").append(escape(v.summary())).append("</span>");
            claims(h, v);
            h.append("</li>\n");
        }
        h.append("</ul>\n</section>\n");
    }

    private static void claims(StringBuilder h, SeedVerdicts.Verdict v) {
        h.append("<ul class=\"claims\">");
        for (ClaimResult r : v.claims()) {
            h.append("<li class=\"").append(cssClass(r.finding().words())).append("\">").append(escape(r.quantity()))
                    .append(" (claimed ").append(escape(r.claimed())).append("): <span class=\"finding\">")
                    .append(escape(r.finding().words())).append("</span>");
            String m = SeedVerdicts.measuredText(r);
            if (!m.isEmpty()) h.append(". Measured ").append(escape(m));
            h.append("<div>Claim: &ldquo;").append(escape(r.claim())).append("&rdquo;")
                    .append(r.conditions() == null ? "" : " (" + escape(r.conditions()) + ")").append("</div>");
            if (r.reason() != null && !r.reason().isEmpty()) h.append("<div>Why: ").append(escape(r.reason())).append("</div>");
            h.append("</li>");
        }
        h.append("</ul>");
    }

    /** A family section's opening: its verdict, when a seed belongs to it. */
    static void familyVerdict(StringBuilder h, List<SeedVerdicts.Verdict> verdicts, String family) {
        for (SeedVerdicts.Verdict v : verdicts) {
            if (!v.family().equals(family)) continue;
            h.append("<div class=\"verdict-family ").append(cssClass(v.word())).append("\"><b>Verdict:</b> ")
                    .append(escape(v.summary())).append(". <span class=\"verdicts\">");
            claims(h, v);
            h.append("</span></div>\n");
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
            h.append("<li><a href=\"#file-").append(n).append("\">").append(escape(inputs.get(i).name())).append("</a>\n<ol>");
            h.append("<li><a href=\"#file-").append(n).append("-machine\">Machine</a></li>");
            if (!NoisyRows.of(f).isEmpty()) h.append("<li><a href=\"#file-").append(n).append("-noisy\">Noisy rows</a></li>");
            f.results().stream().map(Result::benchmark).distinct().forEach(fam -> h.append("<li><a href=\"#file-").append(n).append('-')
                    .append(escape(fam)).append("\">").append(escape(fam)).append("</a></li>"));
            if (!f.layouts().isEmpty()) h.append("<li><a href=\"#file-").append(n).append("-layouts\">Memory layouts</a></li>");
            if (!f.counters().isEmpty()) h.append("<li><a href=\"#file-").append(n).append("-counters\">Counters</a></li>");
            h.append("</ol></li>\n");
        }
        h.append("</ol></nav>\n");
    }

    static String cssClass(String finding) {
        return finding == null ? "" : finding.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("-$", "");
    }
}
