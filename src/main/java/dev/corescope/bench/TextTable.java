package dev.corescope.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * A plain-text table for the reports people read: column widths from the data, as JOL
 * prints its layouts. A header starting with {@code >} is right-aligned (numbers); the
 * {@code >} is not printed.
 */
public final class TextTable {

    private final List<String> headers = new ArrayList<>();
    private final List<Boolean> right = new ArrayList<>();
    private final List<List<String>> rows = new ArrayList<>();

    public TextTable(String... headers) {
        for (String h : headers) {
            boolean r = h.startsWith(">");
            this.headers.add(r ? h.substring(1) : h);
            this.right.add(r);
        }
    }

    /** Adds a row; {@code null} cells print as empty. */
    public TextTable row(Object... cells) {
        if (cells.length != headers.size()) {
            throw new IllegalArgumentException(cells.length + " cells for " + headers.size() + " columns");
        }
        List<String> r = new ArrayList<>();
        for (Object c : cells) r.add(c == null ? "" : c.toString());
        rows.add(r);
        return this;
    }

    public boolean isEmpty() {
        return rows.isEmpty();
    }

    /** The table, every line starting with {@code indent} and ending with a newline. */
    public String render(String indent) {
        int n = headers.size();
        int[] width = new int[n];
        for (int i = 0; i < n; i++) width[i] = headers.get(i).length();
        for (List<String> r : rows) for (int i = 0; i < n; i++) width[i] = Math.max(width[i], r.get(i).length());
        StringBuilder sb = new StringBuilder();
        line(sb, indent, headers, width);
        for (List<String> r : rows) line(sb, indent, r, width);
        return sb.toString();
    }

    private void line(StringBuilder sb, String indent, List<String> cells, int[] width) {
        StringBuilder l = new StringBuilder(indent);
        for (int i = 0; i < cells.size(); i++) {
            if (i > 0) l.append("  ");
            String c = cells.get(i);
            String pad = " ".repeat(width[i] - c.length());
            l.append(right.get(i) ? pad + c : c + pad);
        }
        sb.append(l.toString().stripTrailing()).append('\n');
    }
}
