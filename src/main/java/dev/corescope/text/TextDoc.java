package dev.corescope.text;

import java.util.ArrayList;
import java.util.List;

/**
 * A text document for people: headings, paragraphs, tables and notes, laid out at a width by
 * {@link #render(int)} (the terminal's, {@link Width#of}; {@link Integer#MAX_VALUE} for
 * {@code --wide}). Paragraphs and notes wrap at spaces; a table keeps its row key on every
 * line and leaves out or folds columns ({@link TextTable#render(String, int)}). Strings from
 * input are escaped for the terminal once, when rendered.
 */
public final class TextDoc {

    private sealed interface Block permits Heading, Paragraph, Table, Notes, Blank, Doc {
    }

    private record Heading(String text) implements Block {
    }

    private record Paragraph(String text, String indent) implements Block {
    }

    private record Table(TextTable table, String indent) implements Block {
    }

    private record Notes(List<String> notes, String mark, String indent) implements Block {
    }

    private record Blank() implements Block {
    }

    private record Doc(TextDoc doc) implements Block {
    }

    private final List<Block> blocks = new ArrayList<>();

    /** A heading line (a section's title); it wraps like a paragraph when long. */
    public TextDoc heading(String text) {
        blocks.add(new Heading(text));
        return this;
    }

    public TextDoc paragraph(String text) {
        return paragraph("", text);
    }

    /** A paragraph indented by {@code indent}, its later lines too. */
    public TextDoc paragraph(String indent, String text) {
        blocks.add(new Paragraph(text, indent));
        return this;
    }

    public TextDoc table(TextTable table) {
        return table("  ", table);
    }

    public TextDoc table(String indent, TextTable table) {
        blocks.add(new Table(table, indent));
        return this;
    }

    /** Notes as a list, each under a {@code -} mark, wrapped with a hanging indent. */
    public TextDoc notes(List<String> notes) {
        return notes("  ", "- ", notes);
    }

    public TextDoc notes(String indent, String mark, List<String> notes) {
        if (!notes.isEmpty()) blocks.add(new Notes(List.copyOf(notes), mark, indent));
        return this;
    }

    /** An empty line. */
    public TextDoc blank() {
        blocks.add(new Blank());
        return this;
    }

    /** Another document's blocks, in place. */
    public TextDoc add(TextDoc other) {
        blocks.add(new Doc(other));
        return this;
    }

    public boolean isEmpty() {
        return blocks.isEmpty();
    }

    /** The document with no line wider than {@code width} where its words and keys allow. */
    public String render(int width) {
        StringBuilder sb = new StringBuilder();
        render(sb, width);
        return sb.toString();
    }

    private void render(StringBuilder sb, int width) {
        for (Block b : blocks) {
            switch (b) {
                case Heading h -> Paragraphs.wrap(sb, "", "  ", Terminal.escape(h.text()), width);
                case Paragraph p -> Paragraphs.wrap(sb, p.indent(), p.indent(), Terminal.escape(p.text()), width);
                case Table t -> sb.append(t.table().render(t.indent(), width));
                case Notes n -> {
                    String cont = n.indent() + " ".repeat(n.mark().length());
                    for (String note : n.notes()) Paragraphs.wrap(sb, n.indent() + n.mark(), cont, Terminal.escape(note), width);
                }
                case Blank x -> sb.append('\n');
                case Doc d -> d.doc().render(sb, width);
            }
        }
    }
}
