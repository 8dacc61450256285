package dev.corescope.text;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A plain-text table with column widths taken from the data, as JOL prints its layouts: a
 * header row, then rows. Columns are typed: a {@linkplain Column#key key} column names the row
 * (every line printed for a row starts with the row's key), a number column is right-aligned,
 * and a column with a priority above 0 may be left out when the table does not fit.
 *
 * <p>{@link #render(String, int)} lays the table out at a width: first as it is; then without
 * the optional columns, highest priority number first (a line under the table names them);
 * then folded, the value columns in groups one under the other, each line still starting with
 * the row's key; a cell of words too long for its place wraps, its continuation lines keyed
 * too. Cells are escaped for a terminal ({@link Terminal#escape}) once, here, at rendering.
 */
public final class TextTable {

    /** Left or right alignment. */
    public enum Align {
        /** Text: padded on the right. */
        LEFT,
        /** Numbers: padded on the left. */
        RIGHT
    }

    /**
     * One column.
     *
     * @param name     what the column holds, e.g. {@code "java"}
     * @param unit     the unit of its values, e.g. {@code "ns/op"}; empty when none
     * @param align    right for numbers
     * @param key      whether it is part of the row's key (kept on every line)
     * @param priority 0: always shown; 1, 2, ...: left out, highest first, when the table does not fit
     */
    public record Column(String name, String unit, Align align, boolean key, int priority) {

        /**
         * A column; a null unit is none.
         *
         * @param name     what the column holds
         * @param unit     the unit, or null/empty
         * @param align    the alignment
         * @param key      whether it is part of the row's key
         * @param priority 0 always shown, higher left out first
         */
        public Column {
            unit = unit == null ? "" : unit;
        }

        /**
         * A key column: names the row, shown on every line.
         *
         * @param name the header
         * @return the column
         */
        public static Column key(String name) {
            return new Column(name, "", Align.LEFT, true, 0);
        }

        /**
         * A left-aligned value column.
         *
         * @param name the header
         * @return the column
         */
        public static Column text(String name) {
            return new Column(name, "", Align.LEFT, false, 0);
        }

        /**
         * A right-aligned value column.
         *
         * @param name the header
         * @return the column
         */
        public static Column number(String name) {
            return new Column(name, "", Align.RIGHT, false, 0);
        }

        /**
         * A right-aligned value column of numbers in {@code unit}.
         *
         * @param name the header
         * @param unit the unit, shown after the name in the header
         * @return the column
         */
        public static Column number(String name, String unit) {
            return new Column(name, unit, Align.RIGHT, false, 0);
        }

        /**
         * This column, optional: left out first (highest number) when the table does not fit.
         *
         * @param priority 1 or more; 0 makes it always shown again
         * @return a new column
         */
        public Column optional(int priority) {
            return new Column(name, unit, align, key, priority);
        }

        /**
         * This column with its values in {@code unit}.
         *
         * @param unit the unit
         * @return a new column
         */
        public Column unit(String unit) {
            return new Column(name, unit, align, key, priority);
        }

        /**
         * The header text: the name, then the unit.
         *
         * @return e.g. {@code java ns/op}
         */
        public String header() {
            return unit.isEmpty() ? name : name + " " + unit;
        }
    }

    private final List<Column> columns;
    private final List<String[]> rows = new ArrayList<>();
    private final List<String[]> raw = new ArrayList<>();
    private String name = "";

    /**
     * Names the table, for the line that names the columns left out ({@code "cpumask: left out ..."}).
     *
     * @param name the name; null is none
     * @return this table
     */
    public TextTable named(String name) {
        this.name = name == null ? "" : name;
        return this;
    }

    /**
     * Untyped columns, as before: a name starting with {@code >} is right-aligned (the {@code >}
     * is not printed); the first column is the key.
     *
     * @param names the headers
     */
    public TextTable(String... names) {
        List<Column> cs = new ArrayList<>();
        for (int i = 0; i < names.length; i++) {
            boolean right = names[i].startsWith(">");
            String n = right ? names[i].substring(1) : names[i];
            cs.add(new Column(n, "", right ? Align.RIGHT : Align.LEFT, i == 0, 0));
        }
        this.columns = List.copyOf(cs);
    }

    /**
     * Typed columns.
     *
     * @param columns the columns, in order (copied)
     */
    public TextTable(List<Column> columns) {
        this.columns = List.copyOf(columns);
    }

    /**
     * Typed columns.
     *
     * @param columns the columns, in order
     */
    public TextTable(Column... columns) {
        this(List.of(columns));
    }

    /**
     * The columns.
     *
     * @return an unmodifiable list, in order
     */
    public List<Column> columns() {
        return columns;
    }

    /**
     * Adds one row; each cell is its {@code String.valueOf}, {@code null} an empty cell.
     *
     * @param cells one per column
     * @return this table
     * @throws IllegalArgumentException when the count differs from the columns'
     */
    public TextTable row(Object... cells) {
        if (cells.length != columns.size()) {
            throw new IllegalArgumentException("row has " + cells.length + " cells, table has " + columns.size() + " columns");
        }
        raw.add(Arrays.stream(cells).map(c -> c == null ? "" : String.valueOf(c)).toArray(String[]::new));
        rows.add(Arrays.stream(cells).map(c -> c == null ? "" : Terminal.escape(String.valueOf(c))).toArray(String[]::new));
        return this;
    }

    /**
     * The rows' cells as given (not escaped: the page escapes for HTML, text for the terminal).
     *
     * @return a new list of unmodifiable rows
     */
    public List<List<String>> rows() {
        return raw.stream().map(List::of).toList();
    }

    /**
     * The table's name.
     *
     * @return the name given by {@link #named}, or empty
     */
    public String name() {
        return name;
    }

    /**
     * Whether the table has no row.
     *
     * @return true before the first {@link #row}
     */
    public boolean isEmpty() {
        return rows.isEmpty();
    }

    /**
     * The number of rows.
     *
     * @return 0 or more
     */
    public int size() {
        return rows.size();
    }

    /**
     * The table at its natural width.
     *
     * @param indent what starts each line
     * @return the text, each line ending in a newline
     */
    public String render(String indent) {
        return render(indent, Integer.MAX_VALUE);
    }

    /**
     * The table laid out so that no line is wider than {@code width} where the keys allow (see
     * the class comment).
     *
     * @param indent what starts each line
     * @param width the width in characters, indent included
     * @return the text, each line ending in a newline
     */
    public String render(String indent, int width) {
        List<Integer> shown = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) shown.add(i);
        int[] w = widths();
        List<String> dropped = new ArrayList<>();
        while (natural(indent, shown, w) > width) {
            int drop = -1;
            for (int i : shown) {
                Column c = columns.get(i);
                if (c.priority() > 0 && (drop < 0 || c.priority() >= columns.get(drop).priority())) drop = i;
            }
            if (drop < 0) break;
            shown.remove(Integer.valueOf(drop));
            dropped.add(columns.get(drop).header());
        }
        StringBuilder sb = new StringBuilder();
        if (natural(indent, shown, w) <= width) {
            block(sb, indent, shown, w, width);
        } else {
            fold(sb, indent, shown, w, width);
        }
        if (!dropped.isEmpty()) {
            Paragraphs.wrap(sb, indent, indent + "  ", "(" + (name.isEmpty() ? "" : name + ": ") + "left out at " + width + " columns: " + String.join(", ", dropped.reversed())
                    + "; --wide shows them)", width);
        }
        return sb.toString();
    }

    private int[] widths() {
        int[] w = new int[columns.size()];
        for (int i = 0; i < w.length; i++) w[i] = Terminal.escape(columns.get(i).header()).length();
        for (String[] r : rows) for (int i = 0; i < r.length; i++) w[i] = Math.max(w[i], r[i].length());
        return w;
    }

    private static int natural(String indent, List<Integer> shown, int[] w) {
        int n = indent.length();
        for (int k = 0; k < shown.size(); k++) n += (k > 0 ? 2 : 0) + w[shown.get(k)];
        return n;
    }

    /** The shown columns as one block: header, then the rows; a too-long last cell of words wraps. */
    private void block(StringBuilder sb, String indent, List<Integer> shown, int[] w, int width) {
        String[] header = columns.stream().map(c -> Terminal.escape(c.header())).toArray(String[]::new);
        line(sb, indent, header, shown, w, width, List.of());
        for (String[] r : rows) line(sb, indent, r, shown, w, width, keyOf(shown));
    }

    private List<Integer> keyOf(List<Integer> shown) {
        return shown.stream().filter(i -> columns.get(i).key()).toList();
    }

    /** The value columns in groups that fit beside the key, one group under the other. */
    private void fold(StringBuilder sb, String indent, List<Integer> shown, int[] w, int width) {
        List<Integer> key = keyOf(shown);
        if (key.isEmpty() && !shown.isEmpty()) key = List.of(shown.getFirst());
        List<Integer> values = new ArrayList<>(shown);
        values.removeAll(key);
        int keyW = natural(indent, key, w);
        List<List<Integer>> groups = new ArrayList<>();
        List<Integer> group = new ArrayList<>();
        int used = keyW;
        for (int v : values) {
            if (!group.isEmpty() && used + 2 + w[v] > width) {
                groups.add(group);
                group = new ArrayList<>();
                used = keyW;
            }
            group.add(v);
            used += 2 + w[v];
        }
        if (!group.isEmpty() || groups.isEmpty()) groups.add(group);
        for (int g = 0; g < groups.size(); g++) {
            if (g > 0) sb.append('\n');
            List<Integer> cols = new ArrayList<>(key);
            cols.addAll(groups.get(g));
            block(sb, indent, cols, w, width);
        }
    }

    private void line(StringBuilder sb, String indent, String[] cells, List<Integer> cols, int[] w, int width, List<Integer> key) {
        StringBuilder l = new StringBuilder(indent);
        for (int k = 0; k < cols.size(); k++) {
            int i = cols.get(k);
            if (k > 0) l.append("  ");
            String cell = cells[i];
            boolean last = k == cols.size() - 1;
            if (last && columns.get(i).align() == Align.LEFT && l.length() + cell.length() > width && cell.contains(" ")) {
                wrapLast(sb, indent, l, cells, cols, w, key, cell, width);
                return;
            }
            String pad = " ".repeat(Math.max(0, w[i] - cell.length()));
            l.append(columns.get(i).align() == Align.RIGHT ? pad + cell : last ? cell : cell + pad);
        }
        sb.append(l.toString().stripTrailing()).append('\n');
    }

    /** A last cell of words wraps in the room after the other cells; each continuation line repeats the key. */
    private void wrapLast(StringBuilder sb, String indent, StringBuilder head, String[] cells, List<Integer> cols, int[] w,
                          List<Integer> key, String cell, int width) {
        StringBuilder cont = new StringBuilder(indent);
        for (int k = 0; k < cols.size() - 1; k++) {
            int i = cols.get(k);
            if (k > 0) cont.append("  ");
            String c = key.contains(i) ? cells[i] : "";
            String pad = " ".repeat(Math.max(0, w[i] - c.length()));
            cont.append(columns.get(i).align() == Align.RIGHT ? pad + c : c + pad);
        }
        if (cols.size() > 1) cont.append("  ");
        Paragraphs.words(sb, head.toString(), cont.toString(), cell, width);
    }
}
