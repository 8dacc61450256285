package dev.corescope.text;

/** Wrapping words at a width: the one place text is broken into lines. */
final class Paragraphs {

    private Paragraphs() {
    }

    /** {@code text} after {@code first}, further lines starting with {@code cont}, none wider than {@code width} unless a word is. */
    static void wrap(StringBuilder sb, String first, String cont, String text, int width) {
        words(sb, first, cont, text, width);
    }

    static void words(StringBuilder sb, String head, String cont, String text, int width) {
        StringBuilder line = new StringBuilder(head);
        boolean empty = true;
        for (String word : text.split(" +")) {
            if (word.isEmpty()) continue;
            if (!empty && line.length() + 1 + word.length() > width) {
                sb.append(line.toString().stripTrailing()).append('\n');
                line = new StringBuilder(cont);
                empty = true;
            }
            if (!empty) line.append(' ');
            line.append(word);
            empty = false;
        }
        sb.append(line.toString().stripTrailing()).append('\n');
    }
}
