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

    /**
     * A cell holding an interval, e.g. the 99.9% interval of a change: text prints
     * {@code [low, high]} and the unit ({@link #text()}); the page draws it to scale as a bar with
     * the estimate as a dot, zero as a line and the claimed size as a tick. Pass it to
     * {@link #row} like any other cell.
     *
     * @param estimate the point estimate, or null
     * @param low      the interval's low end, or null when there is none (then {@code absent} is shown)
     * @param high     the interval's high end, or null when there is none
     * @param claim    a size to compare it with (a claim's), or null
     * @param unit     the unit of the four numbers ({@code "%"}, {@code "ns"}); empty when none
     * @param scale    half the range a picture of it spans either side of zero, or null for one from its values
     * @param absent   what text shows when the interval has no ends, e.g. {@code "not measured"}, {@code "exact"}
     */
    public record Interval(Double estimate, Double low, Double high, Double claim, String unit, Double scale, String absent) {

        /**
         * An interval; a null unit is none, a null {@code absent} is {@code "-"}.
         *
         * @param estimate the estimate, or null
         * @param low      the low end, or null
         * @param high     the high end, or null
         * @param claim    the claimed size, or null
         * @param unit     the unit
         * @param scale    the picture's half range, or null
         * @param absent   the words for no interval
         */
        public Interval {
            unit = unit == null ? "" : unit;
            absent = absent == null ? "-" : absent;
            if (low != null && high != null && low > high) {
                Double t = low;
                low = high;
                high = t;
            }
        }

        /**
         * An interval around an estimate, without unit or claim.
         *
         * @param estimate the estimate, or null
         * @param low      the low end
         * @param high     the high end
         * @return the interval
         */
        public static Interval of(Double estimate, Double low, Double high) {
            return new Interval(estimate, low, high, null, "", null, "-");
        }

        /**
         * No interval: text shows {@code words}, the page too.
         *
         * @param estimate the estimate (the page still marks it), or null
         * @param words    e.g. {@code "not measured"}
         * @return the interval
         */
        public static Interval none(Double estimate, String words) {
            return new Interval(estimate, null, null, null, "", null, words);
        }

        /**
         * This interval with a claimed size to compare it with.
         *
         * @param claim the size, or null
         * @return a new interval
         */
        public Interval claimed(Double claim) {
            return new Interval(estimate, low, high, claim, unit, scale, absent);
        }

        /**
         * This interval in {@code unit}.
         *
         * @param unit e.g. {@code "%"}
         * @return a new interval
         */
        public Interval unit(String unit) {
            return new Interval(estimate, low, high, claim, unit, scale, absent);
        }

        /**
         * This interval drawn on a fixed scale (the same for every row of a table).
         *
         * @param scale half the range drawn either side of zero, in the unit; null for one from the values
         * @return a new interval
         */
        public Interval scaled(Double scale) {
            return new Interval(estimate, low, high, claim, unit, scale, absent);
        }

        /**
         * Whether it has both ends.
         *
         * @return true when {@code low} and {@code high} are given
         */
        public boolean measured() {
            return low != null && high != null;
        }

        /**
         * The interval as text: {@code [-4.41, -1.80]%}, {@code [-0.300, -0.120] ns}; both ends
         * signed, each at {@link Num#SIG} significant figures (so no end rounds to a zero it excludes).
         *
         * @return the text, or {@code absent} when it has no ends
         */
        public String text() {
            if (!measured()) return absent;
            String u = unit.isEmpty() ? "" : unit.equals("%") ? "%" : " " + unit;
            return "[" + end(low) + ", " + end(high) + "]" + u;
        }

        private static String end(double v) {
            return Num.signed(v);
        }

        /**
         * The text, so that a table or a message shows it as it would be printed.
         *
         * @return {@link #text()}
         */
        @Override
        public String toString() {
            return text();
        }
    }

    /**
     * A cell that names something the page has a section for: text prints {@code text}; the page
     * links it to the section {@code target} (a fragment within the page, e.g. a family's name,
     * which the page may prefix with the part of the page it is in).
     *
     * @param text   what is shown
     * @param target the section's name
     */
    public record Link(String text, String target) {

        /**
         * The text, as text shows the cell.
         *
         * @return {@link #text()}
         */
        @Override
        public String toString() {
            return text;
        }
    }

    /**
     * One row as given: its cells (a {@code String}, or an {@link Interval}) and its status.
     *
     * @param cells  one per column, as given to {@link #row} (null cells as {@code ""}; other than
     *               {@link Interval} and {@link Link}, as their {@code String.valueOf})
     * @param status what the row's finding or state is (the page gives the row that class), or empty
     */
    public record Row(List<Object> cells, String status) {
        /**
         * A row; the list is copied, a null status is none.
         *
         * @param cells  the cells
         * @param status the status
         */
        public Row {
            cells = List.copyOf(cells);
            status = status == null ? "" : status;
        }
    }

    private final List<Column> columns;
    private final List<String[]> rows = new ArrayList<>();
    private final List<String[]> raw = new ArrayList<>();
    private final List<Row> typed = new ArrayList<>();
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

    private boolean wrapsLast;

    /**
     * Lets the last column's cells wrap at the width instead of folding the table: for a last
     * column of free text (a holder, a reason) whose long cells would otherwise push every
     * other column into a block of their own. The table keeps one block while the other columns
     * and 16 characters of the last fit; a cell then continues on lines that
     * start with the row's key, a word longer than the room cut.
     *
     * @return this table
     */
    public TextTable wrappingLast() {
        this.wrapsLast = true;
        return this;
    }

    /** The least room {@link #wrappingLast()} leaves the last column before the table folds after all. */
    static final int WRAP_ROOM = 16;

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
        return statusRow("", cells);
    }

    /**
     * Adds one row with a status: what the row's finding or state is, e.g. {@code "supports"}
     * or {@code "not resolvable here"}. Text does not print it (a column says it); the page
     * gives the row that class.
     *
     * @param status the status, or null/empty for none
     * @param cells  one per column ({@code String.valueOf} each; an {@link Interval} or a {@link Link} kept as one)
     * @return this table
     * @throws IllegalArgumentException when the count differs from the columns'
     */
    public TextTable statusRow(String status, Object... cells) {
        if (cells.length != columns.size()) {
            throw new IllegalArgumentException("row has " + cells.length + " cells, table has " + columns.size() + " columns");
        }
        raw.add(Arrays.stream(cells).map(c -> c == null ? "" : String.valueOf(c)).toArray(String[]::new));
        rows.add(Arrays.stream(cells).map(c -> c == null ? "" : Terminal.escape(String.valueOf(c))).toArray(String[]::new));
        typed.add(new Row(Arrays.stream(cells).map(c -> c == null ? "" : c instanceof Interval || c instanceof Link ? c : String.valueOf(c)).toList(), status));
        return this;
    }

    /**
     * The rows as given: each cell a {@code String}, an {@link Interval} or a {@link Link}, with the row's status.
     *
     * @return an unmodifiable list, in order
     */
    public List<Row> typedRows() {
        return List.copyOf(typed);
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
        while (natural(indent, shown, w) > width && !wrapsAt(indent, shown, w, width)) {
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
        if (natural(indent, shown, w) <= width || wrapsAt(indent, shown, w, width)) {
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

    /** Whether {@link #wrappingLast()} keeps the shown columns in one block at {@code width}. */
    private boolean wrapsAt(String indent, List<Integer> shown, int[] w, int width) {
        if (!wrapsLast || shown.size() < 2 || columns.get(shown.getLast()).align() != Align.LEFT) return false;
        int last = shown.getLast();
        int room = Math.max(WRAP_ROOM, Terminal.escape(columns.get(last).header()).length());
        return natural(indent, shown.subList(0, shown.size() - 1), w) + 2 + room <= width;
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
            if (last && columns.get(i).align() == Align.LEFT && l.length() + cell.length() > width && (cell.contains(" ") || wrapsLast)) {
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
