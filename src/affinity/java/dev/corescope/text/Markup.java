package dev.corescope.text;

/**
 * Escaping for HTML and XML (the report page, the SVG pictures): the one escaper of text and
 * attribute values. {@code & < > " '} become entities; a control character that XML 1.0 does not
 * allow (C0 other than tab, newline and carriage return) becomes U+FFFD, so a hostile string from
 * a results file can neither end an element nor break the document.
 */
public final class Markup {

    private Markup() {
    }

    /** {@return {@code s} safe as HTML/XML element text or a quoted attribute value; {@code ""} for null} */
    public static String escape(String s) {
        if (s == null) return "";
        StringBuilder b = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            String rep = switch (c) {
                case '<' -> "&lt;";
                case '>' -> "&gt;";
                case '&' -> "&amp;";
                case '"' -> "&quot;";
                case '\'' -> "&#39;";
                default -> c < 0x20 && c != '\t' && c != '\n' && c != '\r' || c == 0xfffe || c == 0xffff ? "\ufffd" : null;
            };
            if (rep == null) {
                if (b != null) b.append(c);
                continue;
            }
            if (b == null) b = new StringBuilder(s.length() + 16).append(s, 0, i);
            b.append(rep);
        }
        return b == null ? s : b.toString();
    }
}
