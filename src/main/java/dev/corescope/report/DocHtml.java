package dev.corescope.report;

import dev.corescope.text.Markup;
import dev.corescope.text.Num;
import dev.corescope.text.TextDoc;
import dev.corescope.text.TextTable;

import java.io.PrintWriter;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Locale;

/**
 * A family's document ({@link TextDoc}, the same parts {@code bench NAME} lays out as text) as
 * HTML: headings, paragraphs, tables with their typed columns (the row key as the row's header
 * cells, numbers right-aligned, the unit in the column's header), figures, notes and findings as
 * lists. Nothing is read back out of text; every string is escaped by {@link Markup} and every
 * picture goes through {@link SvgSanitizer}.
 */
final class DocHtml {

    private DocHtml() {
    }

    /**
     * {@code doc} into {@code h}. A figure without its own picture is drawn with the next of
     * {@code pictures} (the family's pictures of the same file, in order); pictures no figure
     * took come after the document.
     */
    static void render(PrintWriter h, TextDoc doc, String family, List<String> pictures) {
        render(h, doc, family, pictures, null);
    }

    /**
     * As {@link #render(PrintWriter, TextDoc, String, List)}, with the document's
     * {@link TextTable.Link} cells linked to {@code #linkPrefix + target}; without a prefix
     * (null) they are text.
     */
    static void render(PrintWriter h, TextDoc doc, String family, List<String> pictures, String linkPrefix) {
        Deque<String> unplaced = new ArrayDeque<>(pictures);
        h.append("<div class=\"doc\" data-family=\"").append(Markup.escape(family)).append("\">\n");
        for (TextDoc.Part part : doc.parts()) {
            switch (part) {
                case TextDoc.Heading x -> {
                    String tag = x.level() <= 2 ? "h4" : "h5";
                    h.append('<').append(tag).append('>').append(Markup.escape(x.text())).append("</").append(tag).append(">\n");
                }
                case TextDoc.Paragraph x -> h.append("<p>").append(Markup.escape(x.text())).append("</p>\n");
                case TextDoc.Table x -> table(h, x.table(), linkPrefix);
                case TextDoc.Figure x -> figure(h, x, x.svg() != null ? x.svg() : unplaced.pollFirst(), family);
                case TextDoc.Notes x -> {
                    h.append("<ul class=\"family-notes\">\n");
                    for (String n : x.notes()) h.append("<li>").append(Markup.escape(n)).append("</li>\n");
                    h.append("</ul>\n");
                }
                case TextDoc.Findings x -> {
                    h.append("<ul class=\"findings\">\n");
                    for (TextDoc.Finding f : x.findings()) {
                        h.append("<li class=\"").append(VerdictsHtml.cssClass(f.words())).append("\"><span class=\"finding\">")
                                .append(Markup.escape(f.words())).append("</span>: ").append(Markup.escape(f.claim()));
                        if (f.measured() != null && !f.measured().isEmpty()) h.append(" (").append(Markup.escape(f.measured())).append(')');
                        h.append("</li>\n");
                    }
                    h.append("</ul>\n");
                }
                case TextDoc.Definitions x -> {
                    h.append("<dl class=\"legend\">\n");
                    for (TextDoc.Term t : x.terms()) {
                        h.append("<dt>").append(Markup.escape(t.term())).append("</dt><dd>").append(Markup.escape(t.meaning())).append("</dd>\n");
                    }
                    h.append("</dl>\n");
                }
                case TextDoc.Blank x -> {
                }
            }
        }
        for (String svg : unplaced) h.append("<figure class=\"heatmap\">").append(SvgSanitizer.embed(svg, family + " picture")).append("</figure>\n");
        h.append("</div>\n");
    }

    /** The table with its typed columns: key cells as row headers, numbers right-aligned, units in the headers. */
    private static void table(PrintWriter h, TextTable t, String linkPrefix) {
        List<TextTable.Column> cols = t.columns();
        h.append("<div class=\"scroll\"><table class=\"doc-table\"");
        if (!t.name().isEmpty()) h.append(" data-name=\"").append(Markup.escape(t.name())).append('"');
        h.append(">\n<tr>");
        for (TextTable.Column c : cols) {
            h.append("<th scope=\"col\"").append(c.align() == TextTable.Align.RIGHT ? " class=\"num\"" : "").append('>')
                    .append(Markup.escape(c.name()));
            if (!c.unit().isEmpty()) h.append(" <span class=\"unit\">").append(Markup.escape(c.unit())).append("</span>");
            h.append("</th>");
        }
        h.append("</tr>\n");
        for (TextTable.Row row : t.typedRows()) {
            h.append("<tr");
            if (!row.status().isEmpty()) h.append(" class=\"").append(VerdictsHtml.cssClass(row.status())).append('"');
            h.append('>');
            for (int i = 0; i < cols.size(); i++) {
                TextTable.Column c = cols.get(i);
                Object value = row.cells().get(i);
                if (value instanceof TextTable.Interval iv) {
                    h.append("<td class=\"ci\">").append(intervalSvg(iv));
                    if (iv.measured()) h.append(" <span class=\"ci-text\">").append(Markup.escape(iv.text())).append("</span>");
                    h.append("</td>");
                    continue;
                }
                String cell = Markup.escape(String.valueOf(value));
                if (value instanceof TextTable.Link link && linkPrefix != null) {
                    cell = "<a href=\"#" + Markup.escape(linkPrefix + link.target()) + "\">" + Markup.escape(link.text()) + "</a>";
                }
                if (c.key()) h.append("<th scope=\"row\">").append(cell).append("</th>");
                else h.append(c.align() == TextTable.Align.RIGHT ? "<td class=\"num\">" : "<td>").append(cell).append("</td>");
            }
            h.append("</tr>\n");
        }
        h.append("</table></div>\n");
    }

    /** Width of an interval's picture, in px. */
    static final int CI_WIDTH = 160;

    /**
     * An interval cell drawn to scale: zero as a grey line, the interval as a bar (its colour
     * from the row's class, {@link #CSS}), the estimate as a dot, the claimed size as a tick; an
     * arrow where the interval runs off the scale. Without ends: its words.
     */
    static String intervalSvg(TextTable.Interval iv) {
        if (!iv.measured()) return "<span class=\"note\">" + Markup.escape(iv.absent()) + "</span>";
        double scale = iv.scale() != null && iv.scale() > 0 ? iv.scale() : autoScale(iv);
        int w = CI_WIDTH, mid = w / 2;
        double k = mid / scale;
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT,
                "<svg class=\"ci\" width=\"%d\" height=\"14\" viewBox=\"0 0 %d 14\" role=\"img\"><title>%s</title>"
                        + "<line x1=\"%d\" y1=\"0\" x2=\"%d\" y2=\"14\" stroke=\"#bbb\"/>",
                w, w, Markup.escape((iv.estimate() == null ? "" : Num.signed(iv.estimate()) + " ") + iv.text()
                        + (iv.claim() == null ? "" : ", claimed " + Num.signed(iv.claim()))),
                mid, mid));
        s.append(String.format(Locale.ROOT, "<line class=\"ci-bar\" x1=\"%.1f\" y1=\"7\" x2=\"%.1f\" y2=\"7\" stroke=\"#888\" stroke-width=\"3\"/>",
                mid + clamp(iv.low(), scale) * k, mid + clamp(iv.high(), scale) * k));
        if (iv.claim() != null) {
            s.append(String.format(Locale.ROOT, "<line class=\"ci-claim\" x1=\"%.1f\" y1=\"1\" x2=\"%.1f\" y2=\"13\" stroke=\"#6a3d9a\" stroke-width=\"2\"/>",
                    mid + clamp(iv.claim(), scale) * k, mid + clamp(iv.claim(), scale) * k));
        }
        if (iv.estimate() != null) {
            s.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"7\" r=\"3\" fill=\"#1b1b1b\"/>", mid + clamp(iv.estimate(), scale) * k));
        }
        if (iv.low() < -scale) s.append("<path class=\"ci-bar\" d=\"M0 7 L6 3 L6 11 Z\" fill=\"#888\"/>");
        if (iv.high() > scale) s.append(String.format(Locale.ROOT, "<path class=\"ci-bar\" d=\"M%d 7 L%d 3 L%d 11 Z\" fill=\"#888\"/>", w, w - 6, w - 6));
        return s.append("</svg>").toString();
    }

    /** The interval pictures' colours by row class: a bar in the claimed direction green, against it red. */
    static final String CSS = """
            td.ci{white-space:nowrap}.ci-text{font-size:11px;color:#555}
            tr.supports .ci-bar,tr.significant .ci-bar{stroke:#2e7d32;fill:#2e7d32}
            tr.contradicts .ci-bar{stroke:#c62828;fill:#c62828}
            tr.supports-the-direction-smaller-than-claimed .ci-bar,tr.supports-the-direction-larger-than-claimed .ci-bar{stroke:#7cb342;fill:#7cb342}
            dl.legend{font-size:13px;margin:4px 0 8px}dl.legend dt{font-weight:bold;float:left;clear:left;margin-right:.5em}dl.legend dd{margin:0 0 2px 0}
            """;

    private static double autoScale(TextTable.Interval iv) {
        double m = Math.max(Math.abs(iv.low()), Math.abs(iv.high()));
        if (iv.estimate() != null) m = Math.max(m, Math.abs(iv.estimate()));
        if (iv.claim() != null) m = Math.max(m, Math.abs(iv.claim()));
        return !(m > 0) || !Double.isFinite(m) ? 1 : m * 1.25;
    }

    private static double clamp(double v, double scale) {
        return Math.max(-scale, Math.min(scale, v));
    }

    private static void figure(PrintWriter h, TextDoc.Figure f, String svg, String family) {
        h.append("<figure class=\"heatmap\"");
        if (f.id() != null && !f.id().isEmpty()) h.append(" data-figure=\"").append(Markup.escape(f.id())).append('"');
        h.append('>');
        if (f.caption() != null && !f.caption().isEmpty()) h.append("<figcaption>").append(Markup.escape(f.caption())).append("</figcaption>");
        if (svg != null) h.append(SvgSanitizer.embed(svg, family + " picture"));
        else h.append("<p class=\"note\">This file holds nothing to draw this from.</p>");
        h.append("</figure>\n");
    }
}
