package dev.corescope.report;

import dev.corescope.text.Markup;
import dev.corescope.text.TextDoc;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code report}'s page shell: one self-contained HTML file (inline CSS and SVG, no script,
 * nothing fetched). It places the parts: the verdicts and the before/after view
 * ({@link VerdictsHtml}, {@link BeforeAfterHtml}, {@link MachinesHtml}); for each results file
 * its warnings, the machine ({@link MachineHtml}: the topology drawn from the saved model, the
 * environment), each family's section (its verdict, then its own document rendered by
 * {@link DocHtml} with the family's pictures in it, then every saved row and the machine code,
 * folded: {@link ResultsHtml}, {@link MachineCodeHtml}), and the counters ({@link ResultsText#countersDocument}). A family's data (a heatmap,
 * layouts, histograms, the jitter run) is drawn by its own view, never here.
 * Nothing is read back out of rendered text. Nothing from a results file reaches the page
 * unescaped: text goes through {@link Markup}, SVG pictures are rebuilt from an
 * allow-list ({@link SvgSanitizer}), and a Content-Security-Policy forbids every script.
 */
public final class HtmlReport {

    /** One results file and the name to show for it ({@link #names}). */
    public record Input(String name, ResultsFile file) {
    }

    /** The names to show for files read from {@code paths}: each one's file name, or the path as given where two share a name. */
    public static List<String> names(List<Path> paths) {
        List<String> names = paths.stream().map(p -> p.getFileName() == null ? p.toString() : p.getFileName().toString()).toList();
        return names.stream().distinct().count() == names.size() ? names : paths.stream().map(Path::toString).toList();
    }

    private static final String CSS = """
            body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;margin:0;color:#1b1b1b;background:#fafafa}
            main{max-width:1280px;margin:0 auto;padding:16px 24px 48px}
            h1{font-size:1.6em;margin:.4em 0}h2{font-size:1.3em;margin-top:2em;border-bottom:2px solid #ccc;padding-bottom:.2em}
            h3{font-size:1.1em;margin-top:1.6em}
            table{border-collapse:collapse;margin:.4em 0 1em;background:#fff;font-size:13px}
            th,td{border:1px solid #ddd;padding:3px 8px;text-align:left;vertical-align:top}
            th{background:#f0f0f0}td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
            td.mono,code{font-family:"DejaVu Sans Mono",Menlo,Consolas,monospace;font-size:12px}
            .bar{width:140px;height:10px;background:#eee;position:relative}
            .bar span{display:block;height:10px;background:#4a78b5}.bar.c span{background:#e67e22}.bar.c{margin-top:2px}
            ul.family-notes{font-size:13px;color:#333;margin:.3em 0 .8em;padding-left:1.4em}
            section.family{margin-top:1em}
            .bar i{position:absolute;top:4px;height:2px;background:#1b1b1b}
            .warn{background:#fff4d6;border-left:4px solid #e0a800;padding:6px 10px;margin:4px 0}
            .fail{background:#fde2e2;border-left:4px solid #c0392b;padding:6px 10px;margin:4px 0}
            .note{color:#555;font-size:13px}
            .better{background:#dff3e0}.worse{background:#fde2e2}.same{color:#666}.untested{color:#999}
            .higher,.lower{background:#eef}
            figure{margin:.5em 0 1em;background:#fff;border:1px solid #ddd;padding:8px;display:inline-block;vertical-align:top;max-width:100%;overflow:auto}
            figcaption{font-size:13px;color:#333;margin-bottom:4px}
            tr.padding td{color:#999;font-style:italic}tr.line td{border-top:2px solid #4a78b5}
            nav a{margin-right:1em}
            .scroll{overflow-x:auto;max-width:100%}
            .summaryline{font-family:"DejaVu Sans Mono",Menlo,Consolas,monospace;background:#fff;border:1px solid #ddd;padding:6px 10px;display:inline-block}
            details{margin:.4em 0 1em}summary{cursor:pointer;color:#2b4f86}
            .doc-table th[scope=row]{background:#fafafa;font-weight:normal;white-space:nowrap}.doc-table .unit{color:#666;font-weight:normal}
            ul.findings{font-size:13px;margin:.3em 0 .8em;padding-left:1.4em}.doc h4{margin:1em 0 .3em}.doc p{max-width:60em}
            """ + VerdictsHtml.CSS + BeforeAfterHtml.CSS + DocHtml.CSS;

    /**
     * The page runs no script and fetches nothing: a browser refuses any script, plugin, frame,
     * font, image or connection, even one that got past the escaping; only the page's own
     * inline CSS applies.
     */
    public static final String CONTENT_SECURITY_POLICY =
            "default-src 'none'; script-src 'none'; object-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

    private HtmlReport() {
    }

    /** {@link #page(PrintWriter, List, FamilyViews, Instant)} as a string, for a page small enough to hold. */
    public static String page(List<Input> inputs, FamilyViews views, Instant madeAt) {
        StringWriter s = new StringWriter();
        page(new PrintWriter(s), inputs, views, madeAt);
        return s.toString();
    }

    /**
     * The page for {@code inputs}, written to {@code h} as it is made (a page of many rows is
     * never held whole), each family's section holding its own view of the file (its full
     * text report and its pictures), as {@code bench} showed them; with exactly two, the
     * compare table of the first (before) and the second (after) comes first.
     */
    public static void page(PrintWriter h, List<Input> inputs, FamilyViews views, Instant madeAt) {
        h.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
        h.append("<meta http-equiv=\"Content-Security-Policy\" content=\"").append(CONTENT_SECURITY_POLICY).append("\">\n");
        h.append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
        h.append("<title>corescope report: ").append(Markup.escape(String.join(", ", inputs.stream().map(Input::name).toList()))).append("</title>\n");
        h.append("<style>\n").append(CSS).append(MachineCodeHtml.CSS).append("</style>\n</head>\n<body>\n<main>\n");
        h.append("<h1>corescope report</h1>\n");
        h.append("<p class=\"note\">Made ").append(Markup.escape(madeAt.toString())).append(" from ")
                .append(Markup.escape(String.join(", ", inputs.stream().map(Input::name).toList())))
                .append(". Scores are means &plusmn; the half-width of the 99.9% confidence interval.</p>\n");

        // The verdicts of the newest file (the after file of a pair) come first, then the contents.
        int verdictsOf = inputs.size() == 2 ? 2 : inputs.size() == 1 ? 1 : 0;
        List<SeedVerdicts.Verdict> verdicts = verdictsOf == 0 ? List.of() : SeedVerdicts.recorded(inputs.get(verdictsOf - 1).file(), views.claims(), views.allowances());
        VerdictsHtml.toc(h, inputs, !verdicts.isEmpty());
        VerdictsHtml.section(h, inputs.size() == 2 ? "Verdicts (" + inputs.get(1).name() + ")" : "Verdicts", verdicts, verdictsOf);
        MachineComparison machines = inputs.size() == 2
                ? MachineComparison.of(inputs.get(0).name(), inputs.get(0).file(), inputs.get(1).name(), inputs.get(1).file(), views) : null;
        if (machines != null && machines.differentMachines()) {
            // two machines: by relation and by claim (MachinesHtml), never row by row
            MachinesHtml.section(h, machines, inputs.get(0).file(), inputs.get(1).file());
        } else if (inputs.size() == 2) {
            BeforeAfterHtml.section(h, Comparison.of(inputs.get(0).name(), List.of(inputs.get(0).file()), inputs.get(1).name(),
                            List.of(inputs.get(1).file()), null, views.allowances()),
                    inputs.get(0).file(), inputs.get(1).file());
        } else if (inputs.size() > 2) {
            h.append("<p class=\"note\">The before/after view is drawn for exactly two files; with ")
                    .append(String.valueOf(inputs.size())).append(", run <code>compare A B</code> for each pair of interest.</p>\n");
        }
        for (int i = 0; i < inputs.size(); i++) {
            file(h, i + 1, inputs.get(i), views.of(inputs.get(i).file()), SeedVerdicts.recorded(inputs.get(i).file(), views.claims(), views.allowances()));
        }
        h.append("</main>\n</body>\n</html>\n");
        h.flush();
    }

    // ---- one results file ---------------------------------------------------------------

    private static void file(PrintWriter h, int index, Input in, List<FamilyViews.View> views,
                             List<SeedVerdicts.Verdict> verdicts) {
        ResultsFile f = in.file();
        h.append("<section id=\"file-").append(String.valueOf(index)).append("\" class=\"results-file\">\n");
        h.append("<h2>").append(Markup.escape(in.name())).append("</h2>\n");
        Environment e = f.environment();
        if (e != null && e.warnings() != null) {
            for (String w : e.warnings()) h.append("<div class=\"warn\"><b>Warning:</b> ").append(Markup.escape(w)).append("</div>\n");
        }
        for (ResultsFile.Failure fl : f.failures()) {
            h.append("<div class=\"fail\"><b>Failed:</b> ").append(Markup.escape(fl.benchmark())).append(": ").append(Markup.escape(fl.reason())).append("</div>\n");
        }

        NoisyRows.section(h, index, f);
        h.append("<h3 id=\"file-").append(String.valueOf(index)).append("-machine\">Machine</h3>\n");
        MachineHtml.topology(h, index, f.topology());
        if (e != null) MachineHtml.environment(h, e);

        Map<String, List<Result>> byFamily = new LinkedHashMap<>();
        for (Result r : f.results()) byFamily.computeIfAbsent(r.benchmark(), k -> new ArrayList<>()).add(r);
        // Each family: its verdict first, then its own document (the parts bench NAME prints as
        // text: tables, figures, notes, findings), then every saved row and the machine code, folded.
        for (var fam : byFamily.entrySet()) {
            List<FamilyViews.View> own = views.stream().filter(v -> v.family().equals(fam.getKey())).toList();
            family(h, index, fam.getKey(), own, verdicts);
            ResultsHtml.results(h, fam.getKey(), fam.getValue(), own.stream().anyMatch(v -> v.document() != null));
            pictures(h, fam.getKey(), own);
            MachineCodeHtml.write(h, f.code(), fam.getKey());
            h.append("</section>\n");
        }
        for (FamilyViews.View v : views) {
            if (byFamily.containsKey(v.family())) continue;
            family(h, index, v.family(), List.of(v), verdicts);
            pictures(h, v.family(), List.of(v));
            h.append("</section>\n");
        }
        Map<String, Long> undrawn = new LinkedHashMap<>();
        for (Histogram x : f.histograms()) {
            if (views.stream().noneMatch(v -> v.family().equals(x.benchmark()))) undrawn.merge(x.benchmark(), 1L, Long::sum);
        }
        undrawn.forEach((bench, n) -> h.append("<p class=\"note\">").append(String.valueOf(n)).append(n == 1 ? " histogram" : " histograms").append(" of ")
                .append(Markup.escape(bench)).append(" not drawn: a family draws its own, and no family here draws these.</p>\n"));
        if (!f.layouts().isEmpty() && views.stream().noneMatch(v -> v.document() != null)) {
            h.append("<p class=\"note\">").append(String.valueOf(f.layouts().size())).append(f.layouts().size() == 1 ? " memory layout" : " memory layouts")
                    .append(" not drawn: a family draws its own, and no family here has its model in this file.</p>\n");
        }
        if (!f.counters().isEmpty()) {
            h.append("<span id=\"file-").append(String.valueOf(index)).append("-counters\"></span>");
            DocHtml.render(h, ResultsText.countersDocument(f.counters()), "counters", List.of());
        }
        if (f.results().isEmpty() && f.failures().isEmpty() && f.jitter() == null) h.append("<p class=\"note\">This file has no results.</p>\n");
        h.append("</section>\n");
    }

    /**
     * A family's section up to its rows: its heading, its verdict, then each view's document (the
     * parts {@code bench NAME} prints, with the family's pictures where its figures are).
     */
    private static void family(PrintWriter h, int index, String family, List<FamilyViews.View> own, List<SeedVerdicts.Verdict> verdicts) {
        h.append("<section class=\"family\" id=\"file-").append(String.valueOf(index)).append("-").append(Markup.escape(family)).append("\">\n<h3>")
                .append(Markup.escape(family)).append("</h3>\n");
        VerdictsHtml.familyVerdict(h, verdicts, family);
        for (FamilyViews.View v : own) if (v.document() != null) DocHtml.render(h, v.document(), family, v.svgs());
    }

    /** The pictures of the views without a document (a file without the family's model), after its rows. */
    private static void pictures(PrintWriter h, String family, List<FamilyViews.View> own) {
        for (FamilyViews.View v : own) if (v.document() == null && !v.svgs().isEmpty()) DocHtml.render(h, new TextDoc(), family, v.svgs());
    }
}
