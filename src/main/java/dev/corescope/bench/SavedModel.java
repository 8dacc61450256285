package dev.corescope.bench;

import com.fasterxml.jackson.databind.DeserializationFeature;
import dev.corescope.report.Pointers;
import dev.corescope.report.ResultsFile;

import java.io.IOException;
import java.util.Optional;

/**
 * A family's typed model as a results file holds it ({@code models.NAME}), for the family's view:
 * where the model points at the file's rows, layouts and histograms, it gets the file's own ({@link Pointers}).
 * A field this version does not know (one an older or newer version saved) is skipped.
 */
public final class SavedModel {

    private SavedModel() {
    }

    /** The model saved under {@code models.family}, if the file has one. */
    public static <T> Optional<T> read(ResultsFile file, String family, Class<T> type) {
        var node = file.models().get(family);
        if (node == null) return Optional.empty();
        try {
            return Optional.of(Pointers.reader(file).forType(type).without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).readValue(node));
        } catch (IOException e) {
            throw new IllegalArgumentException("models." + family + ": " + e.getMessage(), e);
        }
    }
}
