package dev.corescope.bench;

import dev.corescope.report.Histogram;
import dev.corescope.report.Layout;
import dev.corescope.report.Matrix;
import dev.corescope.report.Result;

import java.util.List;

/**
 * What one family measured: the family's name, its rows ({@code results[]}) and its typed model,
 * saved under {@code models.NAME} so that the family's view renders a saved file as it rendered the
 * live run (null for a family without one). The layouts, histograms and matrix of the file's own
 * sections come from the model ({@link FileSections}); the notes and the text a person reads are the
 * family's view of the file ({@link BenchFamily#document}), never stored beside it.
 */
public record FamilyRun(String family, List<Result> results, Object model) {

    public FamilyRun {
        results = List.copyOf(results);
    }

    /** The model's memory layouts, for {@code layouts[]}. */
    public List<Layout> layouts() {
        return model instanceof FileSections s ? s.layouts() : List.of();
    }

    /** The model's histograms, for {@code histograms[]}. */
    public List<Histogram> histograms() {
        return model instanceof FileSections s ? s.histograms() : List.of();
    }

    /** The model's matrix, for {@code matrix}; null when it has none. */
    public Matrix matrix() {
        return model instanceof FileSections s ? s.matrix() : null;
    }
}
