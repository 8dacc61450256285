package dev.corescope.report;

import dev.corescope.jitter.JitterHtml;
import dev.corescope.text.Markup;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * {@code report}'s page: one self-contained HTML file (inline CSS and SVG, no script, nothing
 * fetched) with, for each results file, the environment and its warnings, the machine's
 * topology picture, a table per family (each score with a bar scaled within its metric),
 * the {@code perf_event_open} counters, the latency histograms as bar charts, the
 * core-to-core heatmap and the memory layouts; and the compare table when two files are given.
 * Everything comes from the results model; the page is one String built here. Nothing from a
 * results file reaches the page unescaped: text is escaped, SVG pictures are rebuilt from an
 * allow-list ({@link SvgSanitizer}), and a Content-Security-Policy forbids every script.
 */
public final class HtmlReport {

    /** One results file and the name to show for it (the path the user gave). */
    public record Input(String name, ResultsFile file) {
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
            """ + VerdictsHtml.CSS + BeforeAfterHtml.CSS;

    /**
     * The page runs no script and fetches nothing: a browser refuses any script, plugin, frame,
     * font, image or connection, even one that got past the escaping; only the page's own
     * inline CSS applies.
     */
    public static final String CONTENT_SECURITY_POLICY =
            "default-src 'none'; script-src 'none'; object-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

    private HtmlReport() {
    }

    /**
     * The page for {@code inputs}; with exactly two, the compare table of the first (before)
     * and the second (after) comes first. {@code heatmap} draws a {@link Matrix} as SVG.
     */
    public static String render(List<Input> inputs, Function<Matrix, String> heatmap, Instant madeAt) {
        return render(inputs, heatmap, FamilyViews.NONE, madeAt);
    }

    /**
     * The page for {@code inputs}, each family's section holding its own view of the file (its
     * full text report and its pictures), as {@code bench} showed them.
     */
    public static String page(List<Input> inputs, FamilyViews views, Instant madeAt) {
        return render(inputs, null, views, madeAt);
    }

    private static String render(List<Input> inputs, Function<Matrix, String> heatmap, FamilyViews views, Instant madeAt) {
        StringBuilder h = new StringBuilder();
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
        List<SeedVerdicts.Verdict> verdicts = verdictsOf == 0 ? List.of() : SeedVerdicts.of(inputs.get(verdictsOf - 1).file(), views.claims(), views.allowances());
        VerdictsHtml.toc(h, inputs, !verdicts.isEmpty());
        VerdictsHtml.section(h, inputs.size() == 2 ? "Verdicts (" + inputs.get(1).name() + ")" : "Verdicts", verdicts, verdictsOf);
        MachineComparison machines = inputs.size() == 2
                ? MachineComparison.of(inputs.get(0).name(), inputs.get(0).file(), inputs.get(1).name(), inputs.get(1).file()) : null;
        if (machines != null && machines.differentMachines()) {
            // two machines: by relation and by claim (MachinesHtml), never row by row
            MachinesHtml.section(h, machines, inputs.get(0).file(), inputs.get(1).file());
        } else if (inputs.size() == 2) {
            BeforeAfterHtml.section(h, Comparison.of(inputs.get(0).name(), List.of(inputs.get(0).file()), inputs.get(1).name(),
                            List.of(inputs.get(1).file()), null, views.allowances()),
                    inputs.get(0).file(), inputs.get(1).file());
        } else if (inputs.size() > 2) {
            h.append("<p class=\"note\">The before/after view is drawn for exactly two files; with ")
                    .append(inputs.size()).append(", run <code>compare A B</code> for each pair of interest.</p>\n");
        }
        for (int i = 0; i < inputs.size(); i++) {
            file(h, i + 1, inputs.get(i), heatmap, views.of(inputs.get(i).file()), SeedVerdicts.of(inputs.get(i).file(), views.claims(), views.allowances()));
        }
        h.append("</main>\n</body>\n</html>\n");
        return h.toString();
    }

    // ---- one results file ---------------------------------------------------------------

    private static void file(StringBuilder h, int index, Input in, Function<Matrix, String> heatmap, List<FamilyViews.View> views,
                             List<SeedVerdicts.Verdict> verdicts) {
        ResultsFile f = in.file();
        h.append("<section id=\"file-").append(index).append("\" class=\"results-file\">\n");
        h.append("<h2>").append(Markup.escape(in.name())).append("</h2>\n");
        Environment e = f.environment();
        if (e != null && e.warnings() != null) {
            for (String w : e.warnings()) h.append("<div class=\"warn\"><b>Warning:</b> ").append(Markup.escape(w)).append("</div>\n");
        }
        for (ResultsFile.Failure fl : f.failures()) {
            h.append("<div class=\"fail\"><b>Failed:</b> ").append(Markup.escape(fl.benchmark())).append(": ").append(Markup.escape(fl.reason())).append("</div>\n");
        }

        NoisyRows.section(h, index, f);
        h.append("<h3 id=\"file-").append(index).append("-machine\">Machine</h3>\n");
        MachineHtml.topology(h, index, f.topology());
        if (e != null) MachineHtml.environment(h, e);

        Map<String, List<Result>> byFamily = new LinkedHashMap<>();
        for (Result r : f.results()) byFamily.computeIfAbsent(r.benchmark(), k -> new ArrayList<>()).add(r);
        // Each family: its verdict first, then its own document (the parts bench NAME prints as
        // text: tables, figures, notes, findings), then every saved row and the machine code, folded.
        for (var fam : byFamily.entrySet()) {
            List<FamilyViews.View> own = views.stream().filter(v -> v.family().equals(fam.getKey())).toList();
            boolean documented = own.stream().anyMatch(v -> v.document() != null);
            family(h, index, fam.getKey(), own, verdicts);
            ResultsHtml.results(h, fam.getKey(), fam.getValue(), documented);
            if (!documented) legacy(h, fam.getKey(), own, f);
            h.append(MachineCodeHtml.of(f.code(), fam.getKey()));
            if (!documented) own.forEach(v -> fullText(h, v));
            h.append("</section>\n");
        }
        for (FamilyViews.View v : views) {
            if (byFamily.containsKey(v.family())) continue;
            family(h, index, v.family(), List.of(v), verdicts);
            if (v.document() == null) {
                legacy(h, v.family(), List.of(v), f);
                fullText(h, v);
            }
            h.append("</section>\n");
        }
        List<Histogram> orphans = f.histograms().stream().filter(x -> !byFamily.containsKey(x.benchmark())
                && views.stream().noneMatch(v -> v.family().equals(x.benchmark()))).toList();
        if (!orphans.isEmpty()) {
            h.append("<h3>Histograms</h3>\n");
            histograms(h, orphans);
        }
        if (heatmap != null && f.matrix() != null) {
            h.append("<h3>Core-to-core latency</h3>\n<figure class=\"heatmap\">")
                    .append(SvgSanitizer.embed(heatmap.apply(f.matrix()), "heatmap")).append("</figure>\n");
        }
        if (!f.layouts().isEmpty()) {
            h.append("<h3 id=\"file-").append(index).append("-layouts\">Memory layouts</h3>\n<details><summary>")
                    .append(f.layouts().size()).append(f.layouts().size() == 1 ? " layout table" : " layout tables")
                    .append(" (field offsets and cache lines)</summary>\n");
            ResultsHtml.layouts(h, f.layouts());
            h.append("</details>\n");
        }
        if (!f.counters().isEmpty()) {
            h.append("<span id=\"file-").append(index).append("-counters\"></span>");
            ResultsHtml.counters(h, f.counters());
        }
        if (f.jitter() != null) h.append(JitterHtml.section(f.jitter()));
        if (f.results().isEmpty() && f.failures().isEmpty() && f.jitter() == null) h.append("<p class=\"note\">This file has no results.</p>\n");
        h.append("</section>\n");
    }

    /** A family section's opening: its heading, its verdict, then its views' documents. */
    private static void family(StringBuilder h, int index, String family, List<FamilyViews.View> own, List<SeedVerdicts.Verdict> verdicts) {
        h.append("<section class=\"family\" id=\"file-").append(index).append("-").append(Markup.escape(family)).append("\">\n<h3>")
                .append(Markup.escape(family)).append("</h3>\n");
        VerdictsHtml.familyVerdict(h, verdicts, family);
        if (own.stream().anyMatch(v -> v.document() == null)) notes(h, own.stream().filter(v -> v.document() == null).toList());
        for (FamilyViews.View v : own) if (v.document() != null) DocHtml.render(h, v.document(), family, v.svgs());
    }

    /** A family whose view is still text (no document): its histograms and pictures after the rows. */
    private static void legacy(StringBuilder h, String family, List<FamilyViews.View> own, ResultsFile f) {
        List<Histogram> hs = f.histograms().stream().filter(x -> family.equals(x.benchmark())).toList();
        if (!hs.isEmpty()) histograms(h, hs);
        own.forEach(v -> pictures(h, v));
    }

    /** The notes of a family's text report (its {@code Notes} section), as a list. */
    private static void notes(StringBuilder h, List<FamilyViews.View> views) {
        List<String> notes = new ArrayList<>();
        for (FamilyViews.View v : views) notes.addAll(notesOf(v.text()));
        if (notes.isEmpty()) return;
        h.append("<ul class=\"family-notes\">\n");
        for (String n : notes) h.append("<li>").append(Markup.escape(n)).append("</li>\n");
        h.append("</ul>\n");
    }

    /**
     * The items under a text report's {@code Notes} (or {@code ## Notes}) heading: each
     * {@code - } item with its continuation lines joined; empty when there is no such heading.
     */
    static List<String> notesOf(String text) {
        List<String> out = new ArrayList<>();
        if (text == null) return out;
        List<String> lines = text.lines().toList();
        int i = 0;
        while (i < lines.size() && !lines.get(i).strip().matches("(## )?Notes:?")) i++;
        StringBuilder item = null;
        for (i++; i < lines.size(); i++) {
            String l = lines.get(i).strip();
            if (l.startsWith("- ") || l.startsWith("* ")) {
                if (item != null) out.add(item.toString());
                item = new StringBuilder(l.substring(2).strip());
            } else if (l.isEmpty() || l.startsWith("#") || l.startsWith("==")) {
                if (item != null) out.add(item.toString());
                item = null;
                if (!l.isEmpty()) break;
            } else if (item != null) {
                item.append(' ').append(l);
            } else {
                out.add(l);
            }
        }
        if (item != null) out.add(item.toString());
        return out;
    }

    /** A family's own pictures. */
    private static void pictures(StringBuilder h, FamilyViews.View v) {
        for (String svg : v.svgs()) {
            h.append("<figure class=\"heatmap\">").append(SvgSanitizer.embed(svg, v.family())).append("</figure>\n");
        }
    }

    /** The text report {@code bench} printed, folded. */
    private static void fullText(StringBuilder h, FamilyViews.View v) {
        if (v.text() != null) {
            h.append("<details class=\"family-report\"><summary>the full <code>bench ").append(Markup.escape(v.family()))
                    .append("</code> report</summary>\n<pre>").append(Markup.escape(v.text())).append("</pre></details>\n");
        }
    }

    // ---- histograms -------------------------------------------------------------------------

    private static void histograms(StringBuilder h, List<Histogram> hs) {
        h.append("<div class=\"histograms\">\n");
        for (Histogram x : hs) h.append("<figure class=\"histogram\">").append(histogramSvg(x)).append("</figure>\n");
        h.append("</div>\n");
    }

    /**
     * Bars per bucket on a log scale (latency tails span orders of magnitude), the last bucket
     * marked as holding everything above it; p50 and p99 as dashed lines.
     */
    static String histogramSvg(Histogram x) {
        long[] counts = x.counts();
        int last = counts.length - 1;
        while (last > 0 && counts[last] == 0) last--;
        int k = Histogram.factorFor(last + 1);
        if (k > 1) {  // more buckets than pixels: drawn coarser, so the page stays near the file's size
            x = x.coarser(k);
            counts = x.counts();
            last = (last + 1 + k - 1) / k - 1;
        }
        int n = Math.max(1, last + 1);
        int left = 44, right = 12, top = 54, bottom = 40, plotW = 300, plotH = 140;
        int width = left + plotW + right;
        int height = top + plotH + bottom;
        long maxCount = 1;
        for (int i = 0; i < n; i++) maxCount = Math.max(maxCount, counts[i]);
        double logMax = Math.log10(maxCount + 1);
        double bw = (double) plotW / n;

        StringBuilder s = new StringBuilder();
        String title = x.benchmark() + " " + x.variant() + (x.implementation() == null ? "" : " (" + x.implementation() + ")");
        s.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"histogram\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"11\">%n",
                width, height, width, height));
        s.append("<title>").append(Markup.escape(title)).append("</title>\n");
        s.append(String.format(Locale.ROOT, "<text x=\"4\" y=\"15\" font-size=\"13\" font-weight=\"bold\">%s</text>%n", Markup.escape(title)));
        // two caption lines: one line of a million samples, a max in ms and the overflow did not fit the chart's width
        List<String> stats = stats(x);
        for (int i = 0; i < stats.size(); i++) {
            s.append(String.format(Locale.ROOT, "<text x=\"4\" y=\"%d\" fill=\"#444\">%s</text>%n", 30 + 13 * i, Markup.escape(stats.get(i))));
        }
        for (int d = 0; d <= (int) Math.floor(logMax); d++) {
            double y = top + plotH - plotH * Math.log10(Math.pow(10, d) + 1) / logMax;
            s.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#e4e4e4\"/>%n", left, y, left + plotW, y));
            s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" fill=\"#555\">%s</text>%n", left - 4, y + 4, tick(d)));
        }
        for (int i = 0; i < n; i++) {
            if (counts[i] == 0) continue;
            double bh = plotH * Math.log10(counts[i] + 1) / logMax;
            boolean overflowBucket = i == counts.length - 1 && x.overflow() > 0;
            long from = (long) i * x.bucketNs();
            String tip = overflowBucket ? "≥ " + from + " ns: " + counts[i] : from + "-" + (from + x.bucketNs() - 1) + " ns: " + counts[i];
            s.append(String.format(Locale.ROOT, "<rect class=\"bucket\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"><title>%s</title></rect>%n",
                    left + i * bw + 0.5, top + plotH - bh, Math.max(1, bw - 1), bh, overflowBucket ? "#c0392b" : "#4a78b5", Markup.escape(tip)));
        }
        int labelRow = 0;
        for (double[] mark : new double[][] {{x.p50() == null ? -1 : x.p50(), 50}, {x.p99() == null ? -1 : x.p99(), 99}}) {
            if (mark[0] < 0) continue;
            double px = left + Math.min(plotW, mark[0] / x.bucketNs() * bw);
            s.append(String.format(Locale.ROOT, "<line class=\"percentile\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#e67e22\" stroke-dasharray=\"4 3\"/>%n", px, top, px, top + plotH));
            s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" fill=\"#e67e22\" font-size=\"10\">p%d</text>%n", px + 2, top + 10 + 11 * labelRow++, (int) mark[1]));
        }
        s.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>%n", left, top + plotH, left + plotW, top + plotH));
        int step = Histogram.labelStep(n, bw, (long) n * x.bucketNs());
        for (int i = 0; i <= n; i += step) {
            double px = left + i * bw;
            s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#555\">%d</text>%n", px, top + plotH + 14, (long) i * x.bucketNs()));
        }
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" fill=\"#333\">ns (buckets of %d ns; count on a log scale%s)</text>%n",
                left + plotW / 2, top + plotH + 32, x.bucketNs(), x.overflow() > 0 ? "; red: the rest" : ""));
        s.append("</svg>");
        return s.toString();
    }

    private static List<String> stats(Histogram x) {
        List<String> first = new ArrayList<>();
        first.add(String.format(Locale.ROOT, "%,d samples", x.total()));
        if (x.p50() != null) first.add("p50 " + ResultsText.number(x.p50()) + " ns");
        if (x.p99() != null) first.add("p99 " + ResultsText.number(x.p99()) + " ns");
        List<String> second = new ArrayList<>();
        if (x.max() != null) second.add("max " + ResultsText.number(x.max()) + " ns");
        if (x.overflow() > 0) second.add(String.format(Locale.ROOT, "%,d beyond the last bucket", x.overflow()));
        List<String> lines = new ArrayList<>();
        lines.add(String.join(", ", first));
        if (!second.isEmpty()) lines.add(String.join(", ", second));
        return lines;
    }

    private static String tick(int decade) {
        return switch (decade) {
            case 0 -> "1";
            case 1 -> "10";
            case 2 -> "100";
            case 3 -> "1k";
            case 4 -> "10k";
            case 5 -> "100k";
            case 6 -> "1M";
            default -> "1e" + decade;
        };
    }
}
