package dev.corescope.text;

/** How wide text is laid out: the terminal's width when it is known, else {@link #DEFAULT}. */
public final class Width {

    /** Columns when the terminal's width is not known (output to a file or a pipe, no COLUMNS). */
    public static final int DEFAULT = 100;

    /** {@code --wide}: no limit, every table row on one line. */
    public static final int NONE = Integer.MAX_VALUE;

    private Width() {
    }

    /** {@return the width to render at: {@link #NONE} for {@code --wide}, else {@code COLUMNS} when it is 40 to 1000, else {@link #DEFAULT}} */
    public static int of(boolean wide) {
        if (wide) return NONE;
        String columns = System.getenv("COLUMNS");
        if (columns != null && columns.matches("[0-9]{2,4}")) {
            int c = Integer.parseInt(columns);
            if (c >= 40 && c <= 1000) return c;
        }
        return DEFAULT;
    }
}
