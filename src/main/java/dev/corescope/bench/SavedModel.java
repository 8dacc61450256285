package dev.corescope.bench;

import dev.corescope.report.Json;
import dev.corescope.report.ResultsFile;

import java.util.Optional;

/** A family's typed model as a results file holds it ({@code models.NAME}), for the family's view. */
public final class SavedModel {

    private SavedModel() {
    }

    /** The model saved under {@code models.family}, if the file has one. */
    public static <T> Optional<T> read(ResultsFile file, String family, Class<T> type) {
        var node = file.models().get(family);
        if (node == null) return Optional.empty();
        return Optional.of(Json.MAPPER.convertValue(node, type));
    }
}
