package dev.corescope.report;

/** Escaping for the SVG pictures the family views draw: {@link dev.corescope.text.Markup#escape}. */
public final class Xml {

    private Xml() {
    }

    /** {@code s} with {@code & < > "} escaped. */
    public static String escape(String s) {
        return dev.corescope.text.Markup.escape(s);
    }
}
