package dev.corescope.text;

import java.util.ArrayList;
import java.util.List;

/**
 * A document for people, as data: headings, paragraphs, tables, figures, notes and findings.
 * {@link #render(int)} lays it out as text at a width (the terminal's, {@link Width#of};
 * {@link Integer#MAX_VALUE} for {@code --wide}): paragraphs and notes wrap at spaces; a table
 * keeps its row key on every line and leaves out or folds columns
 * ({@link TextTable#render(String, int)}). The HTML page renders the same {@link #parts()}, so
 * nothing is read back out of rendered text. Strings from input are kept as given and escaped
 * for the terminal once, when rendered as text.
 */
public final class TextDoc {

    /** An empty document; add parts with the builder-style methods, which return it. Not thread-safe. */
    public TextDoc() {
    }

    /** One part of a document, in order ({@link #parts()}). */
    public sealed interface Part permits Heading, Paragraph, Table, Figure, Notes, Findings, Definitions, Blank {
    }

    /**
     * A heading.
     *
     * @param text  the heading's words (escaped when rendered)
     * @param level 1: the document's title; 2: a section; 3: a part of a section
     */
    public record Heading(String text, int level) implements Part {
    }

    /**
     * A paragraph; {@code indent} is a hint for text (the page ignores it).
     *
     * @param text   the words, wrapped at spaces
     * @param indent what starts each of its text lines
     */
    public record Paragraph(String text, String indent) implements Part {
    }

    /**
     * A table with typed columns and a row key ({@link TextTable#columns()}, {@link TextTable#rows()}).
     *
     * @param table  the table
     * @param indent what starts each of its text lines
     */
    public record Table(TextTable table, String indent) implements Part {
    }

    /**
     * A figure: a picture the family draws (SVG) of this document's data, with words that say
     * what it shows. Text prints the caption and where to see the picture; the page draws it.
     *
     * @param id      which of the family's pictures ({@code "heatmap"}, ...), for the page
     * @param caption what it shows
     * @param svg     the picture, or null when only the page or {@code --format svg} draws it
     */
    public record Figure(String id, String caption, String svg) implements Part {
    }

    /**
     * Notes as a list: each under a {@code -} mark in text, a list item in the page.
     *
     * @param notes  the notes, in order
     * @param mark   what precedes each in text, e.g. {@code "- "}
     * @param indent what starts each text line
     */
    public record Notes(List<String> notes, String mark, String indent) implements Part {
        /**
         * Notes; the list is copied.
         *
         * @param notes  the notes
         * @param mark   the text mark
         * @param indent the text indent
         */
        public Notes {
            notes = List.copyOf(notes);
        }
    }

    /**
     * Findings as a list: what the measurements say of a claim, in the report's words.
     *
     * @param findings each with its finding word ({@code report.Finding.words()}) and the claim it is of
     * @param indent   what starts each text line
     */
    public record Findings(List<Finding> findings, String indent) implements Part {
        /**
         * Findings; the list is copied.
         *
         * @param findings the findings
         * @param indent   the text indent
         */
        public Findings {
            findings = List.copyOf(findings);
        }
    }

    /**
     * One finding.
     *
     * @param words    the finding, e.g. {@code "supports"}, {@code "inconclusive"}
     * @param claim    what it is about, e.g. the claim's words
     * @param measured what was measured, e.g. {@code "-0.8% [-1.2, -0.4]"}; may be empty
     */
    public record Finding(String words, String claim, String measured) {
    }

    /**
     * Terms and what they mean, e.g. the legend of the finding words: text prints each as
     * {@code | term: meaning} with a hanging indent, the page as a definition list.
     *
     * @param terms  the terms, in order
     * @param indent what starts each text line
     */
    public record Definitions(List<Term> terms, String indent) implements Part {
        /**
         * Definitions; the list is copied.
         *
         * @param terms  the terms
         * @param indent the text indent
         */
        public Definitions {
            terms = List.copyOf(terms);
        }
    }

    /**
     * One term of a {@link Definitions} part.
     *
     * @param term    the words defined, e.g. {@code "inconclusive"}
     * @param meaning what they mean
     */
    public record Term(String term, String meaning) {
    }

    /** An empty line (text only; the page separates parts itself). */
    public record Blank() implements Part {
    }

    private final List<Part> parts = new ArrayList<>();

    /**
     * The parts in order, other documents {@linkplain #add added} in place.
     *
     * @return a copy
     */
    public List<Part> parts() {
        return List.copyOf(parts);
    }

    /**
     * A section heading (level 2); it wraps like a paragraph when long.
     *
     * @param text the heading
     * @return this document
     */
    public TextDoc heading(String text) {
        return heading(2, text);
    }

    /**
     * The document's title (level 1; text prints it after {@code == }, as the composer separates families).
     *
     * @param text the title
     * @return this document
     */
    public TextDoc title(String text) {
        return heading(1, text);
    }

    /**
     * A heading of any level.
     *
     * @param level 1 title, 2 section, 3 part of a section
     * @param text the heading
     * @return this document
     */
    public TextDoc heading(int level, String text) {
        parts.add(new Heading(text, level));
        return this;
    }

    /**
     * A paragraph, not indented.
     *
     * @param text the words
     * @return this document
     */
    public TextDoc paragraph(String text) {
        return paragraph("", text);
    }

    /**
     * A paragraph indented by {@code indent}, its later lines too.
     *
     * @param indent what starts each line, e.g. two spaces
     * @param text the words
     * @return this document
     */
    public TextDoc paragraph(String indent, String text) {
        parts.add(new Paragraph(text, indent));
        return this;
    }

    /**
     * A table indented by two spaces.
     *
     * @param table the table (kept, not copied)
     * @return this document
     */
    public TextDoc table(TextTable table) {
        return table("  ", table);
    }

    /**
     * A table.
     *
     * @param indent what starts each line
     * @param table the table (kept, not copied)
     * @return this document
     */
    public TextDoc table(String indent, TextTable table) {
        parts.add(new Table(table, indent));
        return this;
    }

    /**
     * A figure (see {@link Figure}).
     *
     * @param id which picture
     * @param caption what it shows
     * @param svg the picture, or null
     * @return this document
     */
    public TextDoc figure(String id, String caption, String svg) {
        parts.add(new Figure(id, caption, svg));
        return this;
    }

    /**
     * Notes as a list, each under a {@code -} mark, wrapped with a hanging indent.
     *
     * @param notes the notes; an empty list adds nothing
     * @return this document
     */
    public TextDoc notes(List<String> notes) {
        return notes("  ", "- ", notes);
    }

    /**
     * Notes as a list with a mark and indent of the caller's.
     *
     * @param indent what starts each line
     * @param mark what precedes each note
     * @param notes the notes; an empty list adds nothing
     * @return this document
     */
    public TextDoc notes(String indent, String mark, List<String> notes) {
        if (!notes.isEmpty()) parts.add(new Notes(notes, mark, indent));
        return this;
    }

    /**
     * Findings as a list.
     *
     * @param findings the findings; an empty list adds nothing
     * @return this document
     */
    public TextDoc findings(List<Finding> findings) {
        if (!findings.isEmpty()) parts.add(new Findings(findings, "  "));
        return this;
    }

    /**
     * Terms and their meanings (see {@link Definitions}), indented by two spaces.
     *
     * @param terms the terms; an empty list adds nothing
     * @return this document
     */
    public TextDoc definitions(List<Term> terms) {
        if (!terms.isEmpty()) parts.add(new Definitions(terms, "  "));
        return this;
    }

    /**
     * An empty line.
     *
     * @return this document
     */
    public TextDoc blank() {
        parts.add(new Blank());
        return this;
    }

    /**
     * Another document's parts, in place.
     *
     * @param other the document whose parts are appended (it is not changed)
     * @return this document
     */
    public TextDoc add(TextDoc other) {
        parts.addAll(other.parts);
        return this;
    }

    /**
     * Whether the document has no part.
     *
     * @return true when nothing was added
     */
    public boolean isEmpty() {
        return parts.isEmpty();
    }

    /**
     * Every note of the document, in order (the page lists them together).
     *
     * @return a new list
     */
    public List<String> allNotes() {
        List<String> out = new ArrayList<>();
        for (Part p : parts) if (p instanceof Notes n) out.addAll(n.notes());
        return out;
    }

    /**
     * Every table of the document, in order.
     *
     * @return a new list
     */
    public List<TextTable> tables() {
        List<TextTable> out = new ArrayList<>();
        for (Part p : parts) if (p instanceof Table t) out.add(t.table());
        return out;
    }

    /**
     * The document as text with no line wider than {@code width} where its words and keys
     * allow; strings are escaped for the terminal here.
     *
     * @param width the width in characters ({@link Width#of}); {@link Integer#MAX_VALUE} for no limit
     * @return the text, each line ending in a newline
     */
    public String render(int width) {
        StringBuilder sb = new StringBuilder();
        for (Part b : parts) {
            switch (b) {
                case Heading h -> Paragraphs.wrap(sb, h.level() == 1 ? "== " : "", "  ", Terminal.escape(h.text()), width);
                case Paragraph p -> Paragraphs.wrap(sb, p.indent(), p.indent(), Terminal.escape(p.text()), width);
                case Table t -> sb.append(t.table().render(t.indent(), width));
                case Figure f -> Paragraphs.wrap(sb, "  ", "  ", Terminal.escape("[figure: " + f.caption() + "; the HTML page draws it]"), width);
                case Notes n -> {
                    String cont = n.indent() + " ".repeat(n.mark().length());
                    for (String note : n.notes()) Paragraphs.wrap(sb, n.indent() + n.mark(), cont, Terminal.escape(note), width);
                }
                case Findings fs -> {
                    for (Finding f : fs.findings()) {
                        String line = f.words() + ": " + f.claim() + (f.measured() == null || f.measured().isEmpty() ? "" : " (" + f.measured() + ")");
                        Paragraphs.wrap(sb, fs.indent() + "- ", fs.indent() + "  ", Terminal.escape(line), width);
                    }
                }
                case Definitions ds -> {
                    for (Term t : ds.terms()) {
                        Paragraphs.wrap(sb, ds.indent() + "| ", ds.indent() + "  ", Terminal.escape(t.term() + ": " + t.meaning()), width);
                    }
                }
                case Blank x -> sb.append('\n');
            }
        }
        return sb.toString();
    }
}
