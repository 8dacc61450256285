package dev.corescope.bench;

import dev.corescope.report.Histogram;
import dev.corescope.report.Layout;
import dev.corescope.report.Matrix;

import java.util.List;

/**
 * A family's model whose data also fills the results file's own sections ({@code layouts[]},
 * {@code histograms[]}, {@code matrix}): the session writes them there and the saved model points at
 * them. None by default.
 */
public interface FileSections {

    default List<Layout> layouts() {
        return List.of();
    }

    default List<Histogram> histograms() {
        return List.of();
    }

    default Matrix matrix() {
        return null;
    }
}
