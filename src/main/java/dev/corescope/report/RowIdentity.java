package dev.corescope.report;

import com.fasterxml.jackson.databind.JsonNode;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What makes a results file fit to compare: every row names its benchmark, variant,
 * implementation, metric and unit; figures are finite, errors not negative, samples at least
 * one; and no two rows of one file share an identity, {@link RowKey} (benchmark,
 * variant, implementation, metric, params). A repeated row is refused rather than guessed at:
 * repeated runs of the same build belong in separate files, given to {@code compare} with
 * {@code --before}/{@code --after}, where they become the runs of one row. The check is one
 * pass with a hash map, so a file of many copies costs what its size costs.
 */
public final class RowIdentity {

    private RowIdentity() {
    }

    /**
     * Reads {@code file} as {@link Json#readResultsChecked} does, or as JMH's {@code -rf json}
     * output (a JSON array, {@link JmhJson}), then checks its rows; bad input is a
     * {@link BadResultsFileException}.
     */
    public static ResultsFile read(Path file) {
        // a corescope file with rows: bound without its JSON tree (the tree path below names what is wrong otherwise)
        var streamed = Json.readResultsStreaming(file);  // checked there (ResultsShape.check)
        if (streamed.isPresent()) return streamed.get();
        JsonNode tree = Json.readTreeChecked(file);
        if (!tree.isArray()) return Json.readResultsChecked(file, tree);  // its rows checked by ResultsShape.check
        ResultsFile jmh = JmhJson.read(file, tree);
        check(file, jmh.results());
        return jmh;
    }

    /** Refuses the first malformed or repeated row. */
    static void check(Path file, List<Result> rows) {
        Map<RowKey, Integer> seen = new HashMap<>(rows.size() * 2);
        for (int i = 0; i < rows.size(); i++) {
            Result r = rows.get(i);
            String at = "results[" + i + "]";
            if (r == null) throw new BadResultsFileException(file, at + " is null");
            for (String[] field : new String[][]{{"benchmark", r.benchmark()}, {"variant", r.variant()},
                    {"implementation", r.implementation()}, {"metric", r.metric()}, {"unit", r.unit()}}) {
                if (field[1] == null || field[1].isBlank()) {
                    throw new BadResultsFileException(file, at + " has no \"" + field[0] + "\"; every row names benchmark, variant, "
                            + "implementation, metric and unit");
                }
            }
            if (!Double.isFinite(r.score())) throw new BadResultsFileException(file, at + ": score " + r.score() + " is not a finite number");
            if (r.error() != null && !(r.error() >= 0 && Double.isFinite(r.error()))) {
                throw new BadResultsFileException(file, at + ": error " + ResultsText.number(r.error())
                        + (r.error() < 0 ? " is negative" : " is not a finite number") + "; it is the half-width of an interval");
            }
            if (r.samples() < 1) throw new BadResultsFileException(file, at + ": samples " + r.samples() + "; a figure comes from at least 1");
            for (int j = 0; j < r.runs().size(); j++) {
                RunFigures run = r.runs().get(j);
                if (run == null || !Double.isFinite(run.mean()) || run.n() < 1 || run.sd() != null && !(run.sd() >= 0)) {
                    throw new BadResultsFileException(file, at + ".runs[" + j + "]: needs a finite mean, n >= 1 and sd >= 0");
                }
            }
            Integer first = seen.putIfAbsent(r.key(), i);
            if (first != null) {
                throw new BadResultsFileException(file, at + " repeats results[" + first + "] (" + describe(r) + "); rows are "
                        + "identified by benchmark, variant, implementation, metric and params, so give repeated runs as "
                        + "separate files (compare --before/--after)");
            }
        }
    }

    private static String describe(Result r) {
        String s = r.key().label();
        return s.length() > 80 ? s.substring(0, 77) + "..." : s;
    }
}
