package dev.corescope.text;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * A plain-text table with column widths taken from the data, as JOL prints its layouts: a
 * header row, then rows. Columns are typed: a {@linkplain Column#key key} column names the row,
 * a number column is right-aligned, and a column with a priority above 0 may be left out when
 * the table does not fit.
 *
 * <p>{@link #render(String, int)} lays the table out at a width: first as it is; then without
 * the optional columns, highest priority number first (a line under the table names them);
 * then folded, the value columns in groups one under the other, each line starting with the
 * row's key. A last cell of words too long for its place wraps under itself, its continuation
 * lines blank in the other columns (so they never read as another row). Cells are escaped for a
 * terminal ({@link Terminal#escape}) once, here, at rendering. Each row is held once, as given.
 */
public final class TextTable {

    /** Left (text, padded on the right) or right (numbers, padded on the left). */
    public enum Align {
        LEFT,
        RIGHT
    }

    /**
     * One column.
     *
     * @param name     what the column holds, e.g. {@code "java"}
     * @param unit     the unit of its values, e.g. {@code "ns/op"}; empty (or null) when none
     * @param align    right for numbers
     * @param key      whether it is part of the row's key (kept on every line of a folded table)
     * @param priority 0: always shown; 1, 2, ...: left out, highest first, when the table does not fit
     */
    public record Column(String name, String unit, Align align, boolean key, int priority) {

        public Column {
            unit = unit == null ? "" : unit;
        }

        /** A key column: names the row. */
        public static Column key(String name) {
            return new Column(name, "", Align.LEFT, true, 0);
        }

        /** A left-aligned value column. */
        public static Column text(String name) {
            return new Column(name, "", Align.LEFT, false, 0);
        }

        /** A right-aligned value column. */
        public static Column number(String name) {
            return new Column(name, "", Align.RIGHT, false, 0);
        }

        /** A right-aligned value column of numbers in {@code unit}, shown after the name in the header. */
        public static Column number(String name, String unit) {
            return new Column(name, unit, Align.RIGHT, false, 0);
        }

        /** This column, left out first (highest {@code priority}) when the table does not fit; 0 always shows it. */
        public Column optional(int priority) {
            return new Column(name, unit, align, key, priority);
        }

        /** This column with its values in {@code unit}. */
        public Column unit(String unit) {
            return new Column(name, unit, align, key, priority);
        }

        /** The header text: the name, then the unit ({@code java ns/op}). */
        public String header() {
            return unit.isEmpty() ? name : name + " " + unit;
        }
    }

    /**
     * A cell holding an interval, e.g. the 99.9% interval of a change: text prints
     * {@code [low, high]} and the unit ({@link #text()}); the page draws it to scale as a bar with
     * the estimate as a dot, zero as a line and the claimed size as a tick.
     *
     * @param estimate the point estimate, or null
     * @param low      the interval's low end, or null when there is none (then {@code absent} is shown)
     * @param high     the interval's high end, or null when there is none
     * @param claim    a size to compare it with (a claim's), or null
     * @param unit     the unit of the four numbers ({@code "%"}, {@code "ns"}); empty (or null) when none
     * @param scale    half the range a picture of it spans either side of zero, or null for one from its values
     * @param absent   what text shows when the interval has no ends, e.g. {@code "not measured"}; null is {@code "-"}
     */
    public record Interval(Double estimate, Double low, Double high, Double claim, String unit, Double scale, String absent) {

        public Interval {
            unit = unit == null ? "" : unit;
            absent = absent == null ? "-" : absent;
            if (low != null && high != null && low > high) {
                Double t = low;
                low = high;
                high = t;
            }
        }

        /** An interval around an estimate, without unit or claim. */
        public static Interval of(Double estimate, Double low, Double high) {
            return new Interval(estimate, low, high, null, "", null, "-");
        }

        /** No interval: text and page show {@code words} (e.g. {@code "not measured"}); the page still marks the estimate. */
        public static Interval none(Double estimate, String words) {
            return new Interval(estimate, null, null, null, "", null, words);
        }

        /** This interval with a claimed size to compare it with. */
        public Interval claimed(Double claim) {
            return new Interval(estimate, low, high, claim, unit, scale, absent);
        }

        /** This interval in {@code unit}. */
        public Interval unit(String unit) {
            return new Interval(estimate, low, high, claim, unit, scale, absent);
        }

        /** This interval drawn on a fixed scale (the same for every row of a table); null for one from the values. */
        public Interval scaled(Double scale) {
            return new Interval(estimate, low, high, claim, unit, scale, absent);
        }

        /** Whether it has both ends. */
        public boolean measured() {
            return low != null && high != null;
        }

        /**
         * The interval as text: {@code [-4.41, -1.80]%}, {@code [-0.300, -0.120] ns}; both ends
         * signed at {@link Num#SIG} significant figures (so no end rounds to a zero it excludes);
         * {@code absent} when it has no ends.
         */
        public String text() {
            if (!measured()) return absent;
            String u = unit.isEmpty() ? "" : unit.equals("%") ? "%" : " " + unit;
            return "[" + Num.signed(low) + ", " + Num.signed(high) + "]" + u;
        }

        @Override
        public String toString() {
            return text();
        }
    }

    /**
     * A cell that names something the page has a section for: text prints {@code text}; the page
     * links it to the section {@code target} (a fragment within the page, e.g. a family's name,
     * which the page may prefix with the part of the page it is in).
     */
    public record Link(String text, String target) {
        @Override
        public String toString() {
            return text;
        }
    }

    /** One row as given: a cell per column (a {@code String}, an {@link Interval} or a {@link Link}) and its status, or empty. */
    public record Row(List<Object> cells, String status) {
        public Row {
            cells = List.copyOf(cells);
            status = status == null ? "" : status;
        }
    }

    /** The least room {@link #wrappingLast()} leaves the last column before the table folds after all. */
    static final int WRAP_ROOM = 16;

    private final List<Column> columns;
    private final List<Row> rows = new ArrayList<>();
    private String name = "";
    private boolean wrapsLast;

    public TextTable(List<Column> columns) {
        this.columns = List.copyOf(columns);
    }

    public TextTable(Column... columns) {
        this(List.of(columns));
    }

    /** Names the table, for the line that names the columns left out ({@code "cpumask: left out ..."}); null is none. */
    public TextTable named(String name) {
        this.name = name == null ? "" : name;
        return this;
    }

    /**
     * Lets the last column's cells wrap at the width instead of folding the table: for a last
     * column of free text (a holder, a reason) whose long cells would otherwise push every
     * other column into a block of their own. The table keeps one block while the other columns
     * and {@link #WRAP_ROOM} characters of the last fit; a word longer than the room is cut.
     */
    public TextTable wrappingLast() {
        this.wrapsLast = true;
        return this;
    }

    public List<Column> columns() {
        return columns;
    }

    /** Adds one row, one cell per column ({@link Row}). */
    public TextTable row(Object... cells) {
        return statusRow("", cells);
    }

    /**
     * Adds one row with a status: what the row's finding or state is, e.g. {@code "supports"}.
     * Text does not print it (a column says it); the page gives the row that class.
     *
     * @throws IllegalArgumentException when the count of cells differs from the columns'
     */
    public TextTable statusRow(String status, Object... cells) {
        if (cells.length != columns.size()) {
            throw new IllegalArgumentException("row has " + cells.length + " cells, table has " + columns.size() + " columns");
        }
        rows.add(new Row(Arrays.stream(cells).map(c -> c == null ? "" : c instanceof Interval || c instanceof Link ? c : String.valueOf(c)).toList(), status));
        return this;
    }

    /** The rows as given, in order. */
    public List<Row> typedRows() {
        return Collections.unmodifiableList(rows);
    }

    /** The rows' cells as text, not escaped (the page escapes for HTML, text for the terminal). */
    public List<List<String>> rows() {
        return rows.stream().map(r -> r.cells().stream().map(String::valueOf).toList()).toList();
    }

    /** The name given by {@link #named}, or empty. */
    public String name() {
        return name;
    }

    public boolean isEmpty() {
        return rows.isEmpty();
    }

    public int size() {
        return rows.size();
    }

    /** The table at its natural width, each line starting with {@code indent} and ending in a newline. */
    public String render(String indent) {
        return render(indent, Integer.MAX_VALUE);
    }

    /** {@link #render(PrintWriter, String, int)} as a string. */
    public String render(String indent, int width) {
        StringWriter s = new StringWriter();
        render(new PrintWriter(s), indent, width);
        return s.toString();
    }

    /**
     * The table laid out so that no line is wider than {@code width} (indent included) where the
     * keys allow (see the class comment), written to {@code out} line by line.
     */
    public void render(PrintWriter out, String indent, int width) {
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
        if (natural(indent, shown, w) <= width || wrapsAt(indent, shown, w, width)) block(out, indent, shown, w, width);
        else fold(out, indent, shown, w, width);
        if (!dropped.isEmpty()) {
            StringBuilder sb = new StringBuilder();
            Paragraphs.wrap(sb, indent, indent + "  ", "(" + (name.isEmpty() ? "" : name + ": ") + "left out at " + width + " columns: "
                    + String.join(", ", dropped.reversed()) + "; --wide shows them)", width);
            out.append(sb);
        }
    }

    /** Whether {@link #wrappingLast()} keeps the shown columns in one block at {@code width}. */
    private boolean wrapsAt(String indent, List<Integer> shown, int[] w, int width) {
        if (!wrapsLast || shown.size() < 2 || columns.get(shown.getLast()).align() != Align.LEFT) return false;
        int room = Math.max(WRAP_ROOM, Terminal.escape(columns.get(shown.getLast()).header()).length());
        return natural(indent, shown.subList(0, shown.size() - 1), w) + 2 + room <= width;
    }

    private static String cell(Object value) {
        return Terminal.escape(String.valueOf(value));
    }

    private int[] widths() {
        int[] w = new int[columns.size()];
        for (int i = 0; i < w.length; i++) w[i] = Terminal.escape(columns.get(i).header()).length();
        for (Row r : rows) for (int i = 0; i < w.length; i++) w[i] = Math.max(w[i], cell(r.cells().get(i)).length());
        return w;
    }

    private static int natural(String indent, List<Integer> shown, int[] w) {
        int n = indent.length();
        for (int k = 0; k < shown.size(); k++) n += (k > 0 ? 2 : 0) + w[shown.get(k)];
        return n;
    }

    /** The shown columns as one block: header, then the rows. */
    private void block(PrintWriter out, String indent, List<Integer> shown, int[] w, int width) {
        line(out, indent, columns.stream().map(c -> Terminal.escape(c.header())).toArray(String[]::new), shown, w, width);
        String[] cells = new String[columns.size()];
        for (Row r : rows) {
            for (int i : shown) cells[i] = cell(r.cells().get(i));
            line(out, indent, cells, shown, w, width);
        }
    }

    /** The value columns in groups that fit beside the key, one group under the other. */
    private void fold(PrintWriter out, String indent, List<Integer> shown, int[] w, int width) {
        List<Integer> key = shown.stream().filter(i -> columns.get(i).key()).toList();
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
            if (g > 0) out.append('\n');
            List<Integer> cols = new ArrayList<>(key);
            cols.addAll(groups.get(g));
            block(out, indent, cols, w, width);
        }
    }

    /** One row's line; a last cell of words too long for the width wraps, its continuation lines blank before it. */
    private void line(PrintWriter out, String indent, String[] cells, List<Integer> cols, int[] w, int width) {
        StringBuilder l = new StringBuilder(indent);
        for (int k = 0; k < cols.size(); k++) {
            int i = cols.get(k);
            if (k > 0) l.append("  ");
            String cell = cells[i];
            boolean last = k == cols.size() - 1;
            if (last && columns.get(i).align() == Align.LEFT && l.length() + cell.length() > width && (cell.contains(" ") || wrapsLast)) {
                StringBuilder sb = new StringBuilder();
                Paragraphs.wrap(sb, l.toString(), " ".repeat(l.length()), cell, width);
                out.append(sb);
                return;
            }
            String pad = " ".repeat(Math.max(0, w[i] - cell.length()));
            l.append(columns.get(i).align() == Align.RIGHT ? pad + cell : last ? cell : cell + pad);
        }
        out.append(l.toString().stripTrailing()).append('\n');
    }
}
