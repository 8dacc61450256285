package dev.corescope.report;

import dev.corescope.text.Terminal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A plain-text table with column widths taken from the data, as JOL prints its layouts:
 * a header row, then rows; columns marked numeric are right-aligned.
 */
public final class TextTable {

    private final String[] header;
    private final boolean[] right;
    private final List<String[]> rows = new ArrayList<>();

    /** Columns whose name starts with {@code >} are right-aligned (the {@code >} is not printed). */
    public TextTable(String... columns) {
        header = new String[columns.length];
        right = new boolean[columns.length];
        for (int i = 0; i < columns.length; i++) {
            right[i] = columns[i].startsWith(">");
            header[i] = right[i] ? columns[i].substring(1) : columns[i];
        }
    }

    public TextTable row(Object... cells) {
        if (cells.length != header.length) {
            throw new IllegalArgumentException("row has " + cells.length + " cells, table has " + header.length + " columns");
        }
        // a cell from a file or another process is one line with nothing a terminal would obey
        rows.add(Arrays.stream(cells).map(c -> c == null ? "" : Terminal.escape(String.valueOf(c))).toArray(String[]::new));
        return this;
    }

    public boolean isEmpty() {
        return rows.isEmpty();
    }

    /** The table, each line prefixed with {@code indent} and ending in a newline. */
    public String render(String indent) {
        int[] width = new int[header.length];
        for (int i = 0; i < header.length; i++) width[i] = header[i].length();
        for (String[] r : rows) for (int i = 0; i < r.length; i++) width[i] = Math.max(width[i], r[i].length());
        StringBuilder sb = new StringBuilder();
        line(sb, indent, header, width);
        for (String[] r : rows) line(sb, indent, r, width);
        return sb.toString();
    }

    private void line(StringBuilder sb, String indent, String[] cells, int[] width) {
        StringBuilder l = new StringBuilder(indent);
        for (int i = 0; i < cells.length; i++) {
            if (i > 0) l.append("  ");
            String pad = " ".repeat(width[i] - cells[i].length());
            l.append(right[i] ? pad + cells[i] : cells[i] + pad);
        }
        sb.append(l.toString().stripTrailing()).append('\n');
    }
}
