package dev.corescope.report;

import com.fasterxml.jackson.databind.JsonNode;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The structure a results file must have before any view indexes into it: a matrix as many
 * rows and columns as it has CPUs, a histogram with buckets of at least 1 ns, no null where a
 * list holds entries. Jackson checks the types; this checks the shapes the types cannot say.
 * The first problem is a {@link BadResultsFileException} naming the field by its JSON path,
 * {@code matrix.values[1]: 1 values for 2 cpus}.
 *
 * <p>One check for every command that reads a results file ({@code report}, {@code compare},
 * {@code export}, ...): the rows are checked as {@link RowIdentity} checks them (finite scores,
 * errors and runs, samples at least 1, no row twice), {@code "results"} must be a list, and a
 * matrix is at most {@link #MAX_MATRIX_CPUS} CPUs a side, so what a page draws stays
 * proportional to the file (histograms are drawn coarser past {@link Histogram#MAX_BARS}).
 */
public final class ResultsShape {

    private ResultsShape() {
    }

    /**
     * The most CPUs a side of a matrix may have: 512 (262,144 cells, a page of about 30 MB). A
     * c2c run on a larger machine samples CPUs rather than measure every pair.
     */
    public static final int MAX_MATRIX_CPUS = 512;

    public static void check(Path file, ResultsFile f) {
        RowIdentity.check(file, f.results());  // the same rows compare accepts, no others
        if (f.matrix() != null) matrix(file, "matrix", f.matrix());
        for (int i = 0; i < f.histograms().size(); i++) histogram(file, "histograms[" + i + "]", f.histograms().get(i));
        for (int i = 0; i < f.layouts().size(); i++) layout(file, "layouts[" + i + "]", f.layouts().get(i));
        for (int i = 0; i < f.counters().size(); i++) counters(file, "counters[" + i + "]", f.counters().get(i));
    }

    /** The lists of a results file, and the lists inside their entries, that hold no nulls. */
    private static final List<String> LISTS = List.of("results", "layouts", "histograms", "failures", "counters", "code");
    private static final Map<String, String> INNER_LISTS = Map.of("results", "runs", "layouts", "rows", "counters", "counters");

    /**
     * Checks the JSON tree before it is bound: a null in a list (which the model's immutable
     * lists cannot hold, so Jackson would name a Java constructor) is refused by its path.
     */
    public static void checkTree(Path file, JsonNode root) {
        JsonNode rows = root.get("results");
        if (rows == null || !rows.isArray()) {
            throw new BadResultsFileException(file, "\"results\" is " + (rows == null ? "missing" : rows.isNull() ? "null" : "not a list")
                    + "; a results file lists its rows there ([] when none)");
        }
        for (String name : LISTS) {
            JsonNode list = root.get(name);
            if (list == null || !list.isArray()) continue;
            for (int i = 0; i < list.size(); i++) {
                JsonNode e = list.get(i);
                String at = name + "[" + i + "]";
                if (e.isNull()) throw bad(file, at, "null where an entry belongs");
                String inner = INNER_LISTS.get(name);
                JsonNode in = inner == null || !e.isObject() ? null : e.get(inner);
                if (in == null || !in.isArray()) continue;
                for (int j = 0; j < in.size(); j++) {
                    if (in.get(j).isNull()) throw bad(file, at + "." + inner + "[" + j + "]", "null where an entry belongs");
                }
            }
        }
    }

    static void matrix(Path file, String at, Matrix m) {
        if (m.cpus() == null) throw bad(file, at + ".cpus", "missing; a matrix lists its CPUs");
        if (m.values() == null) throw bad(file, at + ".values", "missing; a matrix has one row of values per CPU");
        int n = m.cpus().length;
        if (n > MAX_MATRIX_CPUS) {
            throw bad(file, at + ".cpus", n + " CPUs; corescope draws a matrix of at most " + MAX_MATRIX_CPUS
                    + " CPUs a side (measure a sample of the CPUs on a machine this large)");
        }
        for (int cpu : m.cpus()) if (cpu < 0) throw bad(file, at + ".cpus", "CPU " + cpu + " is negative");
        square(file, at + ".values", m.values(), n);
        if (m.errors() != null) square(file, at + ".errors", m.errors(), n);
    }

    private static void square(Path file, String at, Double[][] rows, int n) {
        if (rows.length != n) throw bad(file, at, rows.length + " rows for " + n + " cpus");
        for (int i = 0; i < n; i++) {
            if (rows[i] == null) throw bad(file, at + "[" + i + "]", "null where a row of " + n + " values belongs");
            if (rows[i].length != n) throw bad(file, at + "[" + i + "]", rows[i].length + " values for " + n + " cpus");
        }
    }

    static void histogram(Path file, String at, Histogram h) {
        if (h.bucketNs() < 1) throw bad(file, at + ".bucketNs", h.bucketNs() + "; a bucket is at least 1 ns wide");
        if (h.counts() == null || h.counts().length == 0) throw bad(file, at + ".counts", "missing or empty; a histogram has at least one bucket");
        for (int i = 0; i < h.counts().length; i++) {
            if (h.counts()[i] < 0) throw bad(file, at + ".counts[" + i + "]", h.counts()[i] + " is negative");
        }
        if (h.total() < 0 || h.overflow() < 0) throw bad(file, at, "a negative total or overflow");
    }

    static void layout(Path file, String at, Layout l) {
        if (l.lineSize() < 0) throw bad(file, at + ".lineSize", l.lineSize() + " is negative");
    }

    static void counters(Path file, String at, Counters c) {
        for (int i = 0; i < c.counters().size(); i++) {
            Counters.Counter x = c.counters().get(i);
            if (x.name() == null) throw bad(file, at + ".counters[" + i + "]", "an event without a name");
        }
    }

    private static BadResultsFileException bad(Path file, String at, String why) {
        return new BadResultsFileException(file, at + ": " + why);
    }
}
