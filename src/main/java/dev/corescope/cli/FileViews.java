package dev.corescope.cli;

import dev.corescope.bench.Families;
import dev.corescope.report.BadResultsFileException;
import dev.corescope.report.FamilyViews;
import dev.corescope.report.Json;
import dev.corescope.report.ResultsFile;

import java.nio.file.Path;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The families' views of results files a user gave: a family's part of a file (its model,
 * under {@code models.NAME}) that this corescope cannot render is bad input naming the file
 * and the family's part, exit 2, not an internal error. The families parse their own models,
 * so a model of the wrong shape shows only when its view renders; {@code --debug} still
 * prints where it failed.
 */
final class FileViews {

    private FileViews() {
    }

    /** Two files read from two paths, by identity (two reads of one file are equal records). */
    static Map<ResultsFile, Path> paths(ResultsFile a, Path pathA, ResultsFile b, Path pathB) {
        Map<ResultsFile, Path> m = new IdentityHashMap<>();
        m.put(a, pathA);
        m.put(b, pathB);
        return m;
    }

    /**
     * {@link Families#views(List)} of every family, for files read from {@code byIdentity}
     * (an {@link IdentityHashMap}: files with the same content may come from different paths).
     */
    static FamilyViews of(Map<ResultsFile, Path> byIdentity) {
        return Families.views(Families.all(), new Families.Guard() {
            @Override
            public <T> T render(ResultsFile file, String family, Supplier<T> view) {
                return FileViews.render(byIdentity.get(file), file, family, view);
            }
        });
    }

    /** {@code view} of {@code family}'s part of {@code file}; its failure is bad input naming that part. */
    static <T> T render(Path path, ResultsFile file, String family, Supplier<T> view) {
        try {
            return view.get();
        } catch (BadResultsFileException e) {
            throw e;
        } catch (RuntimeException e) {
            if (path == null) throw e;
            String part = file.models().containsKey(family) ? "models." + family : "the " + family + " rows";
            BadResultsFileException bad = new BadResultsFileException(path, Json.describeModelFailure(part, e, file.models().get(family)));
            bad.initCause(e);
            throw bad;
        }
    }
}
