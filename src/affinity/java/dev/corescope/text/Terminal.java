package dev.corescope.text;

/**
 * Makes a string from outside (a results file, a saved tree, another process's name) safe to
 * print on a terminal: every C0 and C1 control character and DEL is shown as an escape
 * ({@code \e}, {@code \r}, {@code \n}, {@code \t}, {@code \x07}, {@code \u009b}), so nothing read
 * can move the cursor, change colours, set the window title or forge a line of output.
 * A backslash is left as it is, so escaping twice changes nothing: the result has no control
 * character left to escape.
 */
public final class Terminal {

    private Terminal() {
    }

    /** {@return {@code s} with control characters escaped; null stays null, {@code s} itself when nothing needs escaping} */
    public static String escape(String s) {
        if (s == null) return null;
        int i = 0;
        while (i < s.length() && !needsEscape(s.charAt(i))) i++;
        if (i == s.length()) return s;
        StringBuilder sb = new StringBuilder(s.length() + 8).append(s, 0, i);
        for (; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\u001b' -> sb.append("\\e");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20 || c == 0x7f) sb.append(String.format("\\x%02x", (int) c));
                    else if (c >= 0x80 && c < 0xa0 || c == '\u2028' || c == '\u2029' || Character.getType(c) == Character.FORMAT && isBidi(c)) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else sb.append(c);
                }
            }
        }
        return sb.toString();
    }

    private static boolean needsEscape(char c) {
        return c < 0x20 || c == 0x7f || c >= 0x80 && c < 0xa0 || c == '\u2028' || c == '\u2029' || isBidi(c);
    }

    /** Bidirectional overrides and isolates, which reorder what a reader sees (Trojan Source). */
    private static boolean isBidi(char c) {
        return c >= '\u202a' && c <= '\u202e' || c >= '\u2066' && c <= '\u2069' || c == '\u200e' || c == '\u200f';
    }
}
