package dev.corescope.text;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * A document for people, as data: headings, paragraphs, tables, figures, notes and findings.
 * {@link #render(int)} lays it out as text at a width (the terminal's, {@link Width#of};
 * {@link Integer#MAX_VALUE} for {@code --wide}): paragraphs and notes wrap at spaces; a table
 * leaves out or folds columns ({@link TextTable#render(String, int)}). The HTML page renders the same {@link #parts()}, so
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

    /** A heading: {@code level} 1 is the document's title, 2 a section, 3 a part of a section. */
    public record Heading(String text, int level) implements Part {
    }

    /** A paragraph, wrapped at spaces; {@code indent} starts each of its text lines (the page ignores it). */
    public record Paragraph(String text, String indent) implements Part {
    }

    /** A table with typed columns and a row key; {@code indent} starts each of its text lines. */
    public record Table(TextTable table, String indent) implements Part {
    }

    /**
     * A figure: a picture the family draws (SVG, or null when only the page or {@code --format svg}
     * draws it) of this document's data, {@code id} naming which ({@code "heatmap"}), with a
     * caption that says what it shows. Text prints the caption and where to see the picture.
     */
    public record Figure(String id, String caption, String svg) implements Part {
    }

    /** Notes as a list: each after {@code mark} ({@code "- "}) in text, a list item in the page. */
    public record Notes(List<String> notes, String mark, String indent) implements Part {
        public Notes {
            notes = List.copyOf(notes);
        }
    }

    /** Findings as a list: what the measurements say of a claim, in the report's words. */
    public record Findings(List<Finding> findings, String indent) implements Part {
        public Findings {
            findings = List.copyOf(findings);
        }
    }

    /**
     * One finding: its words ({@code "supports"}), the claim it is of, and what was measured
     * ({@code "-0.8% [-1.2, -0.4]"}; may be empty).
     */
    public record Finding(String words, String claim, String measured) {
    }

    /**
     * Terms and what they mean, e.g. the legend of the finding words: text prints each as
     * {@code | term: meaning} with a hanging indent, the page as a definition list.
     */
    public record Definitions(List<Term> terms, String indent) implements Part {
        public Definitions {
            terms = List.copyOf(terms);
        }
    }

    /** One term of a {@link Definitions} part. */
    public record Term(String term, String meaning) {
    }

    /** An empty line (text only; the page separates parts itself). */
    public record Blank() implements Part {
    }

    private final List<Part> parts = new ArrayList<>();

    /** The parts in order (a copy), other documents {@linkplain #add added} in place. */
    public List<Part> parts() {
        return List.copyOf(parts);
    }

    /** A section heading (level 2); it wraps like a paragraph when long. */
    public TextDoc heading(String text) {
        return heading(2, text);
    }

    /** The document's title (level 1; text prints it after {@code == }, as the composer separates families). */
    public TextDoc title(String text) {
        return heading(1, text);
    }

    public TextDoc heading(int level, String text) {
        parts.add(new Heading(text, level));
        return this;
    }

    public TextDoc paragraph(String text) {
        return paragraph("", text);
    }

    /** A paragraph whose every line starts with {@code indent}. */
    public TextDoc paragraph(String indent, String text) {
        parts.add(new Paragraph(text, indent));
        return this;
    }

    /** A table (kept, not copied) indented by two spaces. */
    public TextDoc table(TextTable table) {
        return table("  ", table);
    }

    public TextDoc table(String indent, TextTable table) {
        parts.add(new Table(table, indent));
        return this;
    }

    public TextDoc figure(String id, String caption, String svg) {
        parts.add(new Figure(id, caption, svg));
        return this;
    }

    /** Notes, each under a {@code -} mark with a hanging indent; an empty list adds nothing. */
    public TextDoc notes(List<String> notes) {
        return notes("  ", "- ", notes);
    }

    /** Notes with a mark and indent of the caller's; an empty list adds nothing. */
    public TextDoc notes(String indent, String mark, List<String> notes) {
        if (!notes.isEmpty()) parts.add(new Notes(notes, mark, indent));
        return this;
    }

    /** Findings; an empty list adds nothing. */
    public TextDoc findings(List<Finding> findings) {
        if (!findings.isEmpty()) parts.add(new Findings(findings, "  "));
        return this;
    }

    /** Terms and their meanings, indented by two spaces; an empty list adds nothing. */
    public TextDoc definitions(List<Term> terms) {
        if (!terms.isEmpty()) parts.add(new Definitions(terms, "  "));
        return this;
    }

    public TextDoc blank() {
        parts.add(new Blank());
        return this;
    }

    /** Another document's parts, in place (it is not changed). */
    public TextDoc add(TextDoc other) {
        parts.addAll(other.parts);
        return this;
    }

    public boolean isEmpty() {
        return parts.isEmpty();
    }

    /** Every note of the document, in order (the page lists them together). */
    public List<String> allNotes() {
        List<String> out = new ArrayList<>();
        for (Part p : parts) if (p instanceof Notes n) out.addAll(n.notes());
        return out;
    }

    /** Every table of the document, in order. */
    public List<TextTable> tables() {
        List<TextTable> out = new ArrayList<>();
        for (Part p : parts) if (p instanceof Table t) out.add(t.table());
        return out;
    }

    /** {@return the document as text, escaped, no line wider than {@code width} ({@link Width#of}) where words and keys allow} */
    public String render(int width) {
        StringWriter s = new StringWriter();
        render(new PrintWriter(s), width);
        return s.toString();
    }

    /** {@link #render(int)} written to {@code out} part by part (a table line by line): a long document is never held whole. */
    public void render(PrintWriter out, int width) {
        StringBuilder sb = new StringBuilder();
        for (Part b : parts) {
            switch (b) {
                case Heading h -> Paragraphs.wrap(sb, h.level() == 1 ? "== " : "", "  ", Terminal.escape(h.text()), width);
                case Paragraph p -> Paragraphs.wrap(sb, p.indent(), p.indent(), Terminal.escape(p.text()), width);
                case Table t -> {
                    out.append(sb);
                    sb.setLength(0);
                    t.table().render(out, t.indent(), width);
                }
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
        out.append(sb).flush();
    }
}
