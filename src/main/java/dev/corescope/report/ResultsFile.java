package dev.corescope.report;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.List;

/**
 * The whole results file, {@code "schema": "corescope-results/1"} (see CONTRACT.md).
 * {@code layouts}, {@code histograms} and {@code matrix} appear only where a family has them;
 * {@code failures} lists families that failed, with the reason, so a partial run still says so.
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record ResultsFile(String schema, Environment environment, List<Result> results, List<Layout> layouts,
                          List<Histogram> histograms, Matrix matrix, List<Failure> failures) {

    public static final String SCHEMA = "corescope-results/1";

    /** A family that did not finish: its name and why. */
    public record Failure(String benchmark, String reason) {
    }
}
