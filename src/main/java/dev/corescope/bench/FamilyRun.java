package dev.corescope.bench;

import dev.corescope.report.Histogram;
import dev.corescope.report.Layout;
import dev.corescope.report.Matrix;
import dev.corescope.report.Result;

import java.util.List;

/**
 * What one family measured: the model for the results file, the notes a reader needs
 * (what the seed measured, where the analogy stops, why native rows are missing), and the
 * text report rendered from that same model. {@code model} is the family's typed model, saved in
 * the results file under {@code models.NAME} so that its view renders a saved file as it
 * rendered the live run; null for a family that has none yet.
 */
public record FamilyRun(String family, List<Result> results, List<Layout> layouts, List<Histogram> histograms,
                        Matrix matrix, List<String> notes, String text, Object model) {

    /** A run without a typed model: the results file keeps only its rows. */
    public FamilyRun(String family, List<Result> results, List<Layout> layouts, List<Histogram> histograms,
                     Matrix matrix, List<String> notes, String text) {
        this(family, results, layouts, histograms, matrix, notes, text, null);
    }

    public FamilyRun {
        results = List.copyOf(results);
        layouts = layouts == null ? List.of() : List.copyOf(layouts);
        histograms = histograms == null ? List.of() : List.copyOf(histograms);
        notes = notes == null ? List.of() : List.copyOf(notes);
    }
}
