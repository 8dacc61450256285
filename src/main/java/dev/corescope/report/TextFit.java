package dev.corescope.report;

import dev.corescope.text.TextTable;
import java.util.ArrayList;
import java.util.List;

/**
 * Fits finished text to a width ({@link ComparisonText#WIDTH} columns by default), whoever
 * wrote it: the seed verdicts, the families' own reports, the counters and the environment.
 * Lines that fit are left alone. Tables (runs of lines whose columns are separated by two or
 * more spaces at the same places, as {@link TextTable} prints them) are cut into groups of
 * columns, each repeating the first column, one group under the other; a last column that is
 * too long on its own (a key and its value) wraps within its column. Other lines wrap at spaces
 * with a hanging indent ({@code # } lines stay comments, list items stay under their dash).
 * Only spaces change: every word stays, in order. A word longer than the width stays whole.
 */
public final class TextFit {

    /** The narrowest room a last column may wrap in beside the others. */
    private static final int MIN_WRAP_WIDTH = 32;

    private TextFit() {
    }

    /** {@code text} with no line wider than {@code width} where its words allow; unchanged for {@link Integer#MAX_VALUE}. */
    public static String fit(String text, int width) {
        if (width == Integer.MAX_VALUE || text.lines().allMatch(l -> l.length() <= width)) return text;
        List<String> lines = text.lines().toList();
        StringBuilder sb = new StringBuilder();
        int i = 0;
        while (i < lines.size()) {
            String line = lines.get(i);
            if (isTableRow(line)) {
                int j = i + 1;
                // Right-aligned numbers indent each row differently: a row indented at least as far
                // as the block's first belongs to it.
                while (j < lines.size() && isTableRow(lines.get(j)) && indent(lines.get(j)) >= indent(line)) j++;
                List<String> block = lines.subList(i, j);
                if (j - i >= 2) {
                    table(sb, block, width);
                    i = j;
                    continue;
                }
            }
            prose(sb, line, width);
            i++;
        }
        if (!text.endsWith("\n") && !sb.isEmpty()) sb.setLength(sb.length() - 1);
        return sb.toString();
    }

    /** A line with two or more spaces between words after its indentation: a row of a table. */
    private static boolean isTableRow(String line) {
        String s = line.strip();
        return !s.isEmpty() && s.contains("  ");
    }

    private static int indent(String line) {
        int n = 0;
        while (n < line.length() && line.charAt(n) == ' ') n++;
        return n;
    }

    /** Columns as [start, end) pairs, found from the gaps of two or more spaces every row has at the same place. */
    private static List<int[]> columns(List<String> rows) {
        int w = rows.stream().mapToInt(String::length).max().orElse(0);
        boolean[] blank = new boolean[w];
        for (int x = 0; x < w; x++) {
            boolean all = true;
            for (String r : rows) {
                if (x < r.length() && r.charAt(x) != ' ') {
                    all = false;
                    break;
                }
            }
            blank[x] = all;
        }
        List<int[]> cols = new ArrayList<>();
        int x = 0;
        while (x < w && blank[x]) x++;
        int start = x;
        while (x < w) {
            if (blank[x]) {
                int g = x;
                while (g < w && blank[g]) g++;
                if (g - x >= 2 || g == w) {
                    cols.add(new int[]{start, x});
                    start = g;
                }
                x = g;
            } else {
                x++;
            }
        }
        if (start < w) cols.add(new int[]{start, w});
        return cols;
    }

    private static String cell(String row, int[] c) {
        if (c[0] >= row.length()) return "";
        return row.substring(c[0], Math.min(c[1], row.length()));
    }

    private static void table(StringBuilder sb, List<String> rows, int width) {
        if (rows.stream().allMatch(r -> r.length() <= width)) {
            for (String r : rows) sb.append(r).append('\n');
            return;
        }
        List<int[]> cols = columns(rows);
        // a comment mark ("#   CPU  ...") belongs to the first column, not a column of its own
        while (cols.size() > 2 && rows.stream().allMatch(r -> cell(r, cols.getFirst()).strip().matches("#*"))) {
            cols.set(1, new int[]{cols.getFirst()[0], cols.get(1)[1]});
            cols.removeFirst();
        }
        if (cols.size() < 2) {
            for (String r : rows) prose(sb, r, width);
            return;
        }
        int[] first = cols.getFirst();
        int firstW = first[1];                              // the indentation and the first column
        // Groups of columns after the first, each fitting beside the first with a two-space gap.
        List<List<int[]>> groups = new ArrayList<>();
        List<int[]> group = new ArrayList<>();
        int used = firstW;
        for (int k = 1; k < cols.size(); k++) {
            int[] c = cols.get(k);
            int cw = c[1] - c[0];
            // A last column of words (a description) wraps within what is left of the line, if
            // that is a fair width, rather than going to a group of its own under the numbers.
            boolean wrapsHere = k == cols.size() - 1 && width - (used + 2) >= MIN_WRAP_WIDTH;
            if (!group.isEmpty() && used + 2 + cw > width && !wrapsHere) {
                groups.add(group);
                group = new ArrayList<>();
                used = firstW;
            }
            group.add(c);
            used += 2 + cw;
        }
        groups.add(group);
        for (int g = 0; g < groups.size(); g++) {
            if (g > 0) sb.append('\n');
            List<int[]> gc = groups.get(g);
            for (String r : rows) {
                StringBuilder line = new StringBuilder(r.substring(0, Math.min(firstW, r.length())));
                int last = gc.size() - 1;
                for (int k = 0; k <= last; k++) {
                    int[] c = gc.get(k);
                    String cell = cell(r, c);
                    pad(line, firstW + (k == 0 ? 0 : offset(gc, k)) + 2);
                    if (k == last && line.length() + cell.stripTrailing().length() > width) {
                        wrapCell(sb, line, cell.strip(), width, r.startsWith("#"));
                        line = null;
                        break;
                    }
                    line.append(cell);
                }
                if (line != null) sb.append(line.toString().stripTrailing()).append('\n');
            }
        }
    }

    /** Where column {@code k} of a group starts, after the first column and the two-space gap. */
    private static int offset(List<int[]> gc, int k) {
        int o = 0;
        for (int i = 0; i < k; i++) o += gc.get(i)[1] - gc.get(i)[0] + 2;
        return o;
    }

    private static void pad(StringBuilder line, int to) {
        while (line.length() < to) line.append(' ');
    }

    /** The rest of a row whose last cell is too long: that cell wraps, aligned under its own start. */
    private static void wrapCell(StringBuilder sb, StringBuilder line, String cell, int width, boolean comment) {
        int at = line.length();
        String cont = comment ? "#" + " ".repeat(Math.max(0, at - 1)) : " ".repeat(at);
        if (width - at < MIN_WRAP_WIDTH) cont = comment ? "#     " : " ".repeat(Math.min(at, 8));
        words(sb, line.toString(), cont, cell, width);
    }

    /** A line that is not a table row: wrapped at spaces under a hanging indent. */
    private static void prose(StringBuilder sb, String line, int width) {
        if (line.length() <= width) {
            sb.append(line).append('\n');
            return;
        }
        int lead = indent(line);
        String body = line.substring(lead);
        String head = line.substring(0, lead);
        String cont;
        if (body.startsWith("#")) {
            int t = 1;
            while (t < body.length() && body.charAt(t) == ' ') t++;
            head = line.substring(0, lead + t);
            body = body.substring(t);
            cont = " ".repeat(lead) + "#" + " ".repeat(Math.max(1, t - 1) + 2);
        } else if (body.startsWith("- ") || body.startsWith("* ")) {
            head = line.substring(0, lead + 2);
            body = body.substring(2);
            cont = " ".repeat(lead + 2);
        } else {
            cont = " ".repeat(lead + 4);
        }
        if (cont.length() > width / 2) cont = "    ";
        words(sb, head, cont, body, width);
    }

    /** {@code text}'s words after {@code head}, new lines starting with {@code cont}, none wider than {@code width} unless a word is. */
    private static void words(StringBuilder sb, String head, String cont, String text, int width) {
        StringBuilder line = new StringBuilder(head);
        boolean empty = true;
        for (String word : text.split(" +")) {
            if (word.isEmpty()) continue;
            if (!empty && line.length() + 1 + word.length() > width) {
                sb.append(line.toString().stripTrailing()).append('\n');
                line = new StringBuilder(cont);
                empty = true;
            }
            if (!empty) line.append(' ');
            line.append(word);
            empty = false;
        }
        sb.append(line.toString().stripTrailing()).append('\n');
    }
}
