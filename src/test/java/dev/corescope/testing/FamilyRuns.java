package dev.corescope.testing;

import dev.corescope.bench.BenchFamily;
import dev.corescope.bench.FamilyRun;
import dev.corescope.report.Json;
import dev.corescope.report.ResultsFile;
import dev.corescope.text.TextDoc;

import java.util.List;

/** What a person reads of one family's run: the family's view of the results file the run writes. */
public final class FamilyRuns {

    private FamilyRuns() {
    }

    /** The results file of {@code run} alone, its model saved as the session saves it. */
    public static ResultsFile file(FamilyRun run) {
        ResultsFile.Builder b = ResultsFile.builder().results(run.results()).layouts(run.layouts()).histograms(run.histograms())
                .matrix(run.matrix());
        if (run.model() != null) b.model(run.family(), Json.MAPPER.valueToTree(run.model()));
        return b.build();
    }

    /** {@code family}'s text of the run (its document at no width limit), or "" when it has none. */
    public static String text(BenchFamily family, FamilyRun run) {
        return family.text(file(run)).orElse("");
    }

    /** Every note of {@code family}'s document of the run. */
    public static List<String> notes(BenchFamily family, FamilyRun run) {
        return family.document(file(run)).map(TextDoc::allNotes).orElse(List.of());
    }
}
