package dev.corescope.report;

import dev.corescope.text.Markup;
import dev.corescope.text.TextDoc;
import dev.corescope.text.TextTable;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

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
    static void render(StringBuilder h, TextDoc doc, String family, List<String> pictures) {
        Deque<String> unplaced = new ArrayDeque<>(pictures);
        h.append("<div class=\"doc\" data-family=\"").append(Markup.escape(family)).append("\">\n");
        for (TextDoc.Part part : doc.parts()) {
            switch (part) {
                case TextDoc.Heading x -> {
                    String tag = x.level() <= 2 ? "h4" : "h5";
                    h.append('<').append(tag).append('>').append(Markup.escape(x.text())).append("</").append(tag).append(">\n");
                }
                case TextDoc.Paragraph x -> h.append("<p>").append(Markup.escape(x.text())).append("</p>\n");
                case TextDoc.Table x -> table(h, x.table());
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
                case TextDoc.Blank x -> {
                }
            }
        }
        for (String svg : unplaced) h.append("<figure class=\"heatmap\">").append(SvgSanitizer.embed(svg, family + " picture")).append("</figure>\n");
        h.append("</div>\n");
    }

    /** The table with its typed columns: key cells as row headers, numbers right-aligned, units in the headers. */
    static void table(StringBuilder h, TextTable t) {
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
        for (List<String> row : t.rows()) {
            h.append("<tr>");
            for (int i = 0; i < cols.size(); i++) {
                TextTable.Column c = cols.get(i);
                String cell = Markup.escape(row.get(i));
                if (c.key()) h.append("<th scope=\"row\">").append(cell).append("</th>");
                else h.append(c.align() == TextTable.Align.RIGHT ? "<td class=\"num\">" : "<td>").append(cell).append("</td>");
            }
            h.append("</tr>\n");
        }
        h.append("</table></div>\n");
    }

    private static void figure(StringBuilder h, TextDoc.Figure f, String svg, String family) {
        h.append("<figure class=\"heatmap\"");
        if (f.id() != null && !f.id().isEmpty()) h.append(" data-figure=\"").append(Markup.escape(f.id())).append('"');
        h.append('>');
        if (f.caption() != null && !f.caption().isEmpty()) h.append("<figcaption>").append(Markup.escape(f.caption())).append("</figcaption>");
        if (svg != null) h.append(SvgSanitizer.embed(svg, family + " picture"));
        else h.append("<p class=\"note\">This file holds nothing to draw this from.</p>");
        h.append("</figure>\n");
    }
}
