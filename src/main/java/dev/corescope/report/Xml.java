package dev.corescope.report;

/** Escaping for the text and attribute values of the SVG pictures the family views draw. */
public final class Xml {

    private Xml() {
    }

    /** {@code s} with {@code & < > "} escaped. */
    public static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
