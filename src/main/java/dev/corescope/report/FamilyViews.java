package dev.corescope.report;

import dev.corescope.text.TextDoc;

import java.util.List;

/**
 * Each benchmark family's own view of a results file, for the page shell to place: the
 * document {@code bench NAME} lays out as text and the family's pictures, rendered from the model
 * the file holds, so a saved file shows what the live run showed.
 */
public interface FamilyViews {

    FamilyViews NONE = file -> List.of();

    /** The views of the families that have one in {@code file}, in registry order. */
    List<View> of(ResultsFile file);

    /**
     * The families' claims, which the page tests against each file ({@link SeedVerdicts}); none by
     * default, and then a file's own saved {@code claims} are shown.
     */
    default List<Claim> claims() {
        return List.of();
    }

    /** The latency by relation the families' models in {@code file} hold, for {@link MachineSummary}; none by default. */
    default List<MachineSummary.RelationLatency> relationLatencies(ResultsFile file) {
        return List.of();
    }

    /** The jitter run's quantiles over CPUs in {@code file}, for {@link MachineSummary}; null by default and without one. */
    default MachineSummary.JitterQuantiles jitter(ResultsFile file) {
        return null;
    }

    /** The families' own between-run allowances ({@link NoiseAllowance}); none by default. */
    default List<NoiseAllowance> allowances() {
        return List.of();
    }

    /**
     * @param family   the family's name
     * @param svgs     its pictures (SVG documents), possibly none
     * @param document its report as data (headings, paragraphs, typed tables, notes, findings),
     *                 or null when the file holds no model for it; the text {@code bench NAME}
     *                 prints is this document laid out
     */
    record View(String family, List<String> svgs, TextDoc document) {
        public View {
            svgs = List.copyOf(svgs);
        }
    }
}
