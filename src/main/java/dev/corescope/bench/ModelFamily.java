package dev.corescope.bench;

import dev.corescope.report.ResultsFile;
import dev.corescope.text.TextDoc;

import java.util.Optional;

/**
 * A family whose run saves one typed model ({@code models.NAME}, {@link FamilyRun#model}) and whose
 * view renders it: {@link #model} reads it back from a results file ({@link SavedModel}) and
 * {@link #document} renders it, for a live run and a saved file alike.
 *
 * @param <M> the model's type
 */
public interface ModelFamily<M> extends BenchFamily {

    /** The model's type, as {@code models.NAME} holds it. */
    Class<M> modelType();

    /** The family's document of {@code model}, which {@code file} holds (with the rows it points at). */
    TextDoc document(M model, ResultsFile file);

    @Override
    default Optional<M> model(ResultsFile file) {
        return SavedModel.read(file, name(), modelType());
    }

    @Override
    default Optional<TextDoc> document(ResultsFile file) {
        return model(file).map(m -> document(m, file));
    }
}
