package dev.corescope.testing;

import com.fasterxml.jackson.databind.DeserializationFeature;
import dev.corescope.bench.Families;
import dev.corescope.report.HtmlReport;
import dev.corescope.report.Json;
import dev.corescope.report.ResultsFile;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/** The committed results files of real runs ({@code src/test/resources/results}), for the family views' tests. */
public final class SavedRuns {

    private SavedRuns() {
    }

    /** {@code src/test/resources/results/NAME}, e.g. {@code locks-quick.json}. */
    public static ResultsFile read(String name) throws IOException {
        return lenient(Path.of(System.getProperty("corescope.basedir", "."), "src/test/resources/results", name));
    }

    /**
     * {@code file} bound as it is, unchecked, fields this version does not know skipped: a
     * saved run or one a test just wrote ({@code Json.readResultsChecked} is what commands read).
     */
    public static ResultsFile lenient(Path file) throws IOException {
        return Json.MAPPER.readerFor(ResultsFile.class).without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).readValue(file.toFile());
    }

    /** The same file as a corescope from before family models wrote it. */
    public static ResultsFile withoutModels(ResultsFile file) {
        return ResultsFile.builder().schema(file.schema()).environment(file.environment()).results(file.results())
                .layouts(file.layouts()).histograms(file.histograms()).matrix(file.matrix()).failures(file.failures()).counters(file.counters()).topology(file.topology()).build();
    }

    /** The HTML report page of {@code file} alone, with every registered family's view. */
    public static String page(String name, ResultsFile file) {
        return HtmlReport.page(List.of(new HtmlReport.Input(name, file)), Families.views(), Instant.EPOCH);
    }
}
