package dev.corescope.report;

import dev.corescope.text.Markup;

/** Escaping for the SVG pictures the family views draw: {@link Markup#escape}. */
public final class Xml {

    private Xml() {
    }

    /** {@code s} with {@code & < > "} escaped. */
    public static String escape(String s) {
        return Markup.escape(s);
    }
}
