package dev.corescope.text;

/** Wrapping words at a width: the one place text is broken into lines. */
final class Paragraphs {

    private Paragraphs() {
    }

    /** {@code text} after {@code first}, further lines starting with {@code cont}, none wider than {@code width}: a word longer than a line is cut (unless the line's start leaves no room). */
    static void wrap(StringBuilder sb, String head, String cont, String text, int width) {
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
            // a word longer than a whole line's room (a path, a name without spaces) is cut, so no line is wider
            while (empty && width - line.length() > 0 && line.length() + word.length() > width) {
                int room = width - line.length();
                sb.append(line).append(word, 0, room).append('\n');
                word = word.substring(room);
                line = new StringBuilder(cont);
            }
            line.append(word);
            empty = false;
        }
        sb.append(line.toString().stripTrailing()).append('\n');
    }
}
