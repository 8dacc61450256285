package dev.corescope.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import dev.corescope.jitter.JitterReport;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The whole results file, {@code "schema": "corescope-results/1"} (see CONTRACT.md).
 * {@code results} is always there, {@code []} when nothing finished, so scripts can rely on it;
 * {@code layouts}, {@code histograms} and {@code matrix} appear only where a family has them;
 * {@code failures} lists families that failed, with the reason, so a partial run still says so;
 * {@code counters} holds each family's {@code perf_event_open} counts; {@code topology} the
 * machine's topology summary and picture; {@code code} the machine code of the measured
 * functions (docs/formats-code.md); {@code models} each family's typed model by family name,
 * from which its view renders what the live run printed; {@code jitter} a jitter run's per-CPU
 * rows (docs/jitter.md); {@code claims} each seed claim's finding from this file's rows
 * ({@link ClaimResult}, docs/verdicts.md).
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record ResultsFile(String schema, Environment environment,
                          @JsonInclude(JsonInclude.Include.ALWAYS) List<Result> results, List<Layout> layouts,
                          List<Histogram> histograms, Matrix matrix, List<Failure> failures, List<Counters> counters,
                          MachineTopology topology, List<MachineCode> code, Map<String, JsonNode> models,
                          JitterReport jitter, List<ClaimResult> claims) {

    public static final String SCHEMA = "corescope-results/1";

    public ResultsFile {
        results = results == null ? List.of() : List.copyOf(results);
        layouts = layouts == null ? List.of() : List.copyOf(layouts);
        histograms = histograms == null ? List.of() : List.copyOf(histograms);
        failures = failures == null ? List.of() : List.copyOf(failures);
        counters = counters == null ? List.of() : List.copyOf(counters);
        code = code == null ? List.of() : List.copyOf(code);
        models = models == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(models));
        claims = claims == null ? List.of() : List.copyOf(claims);
    }

    /** Without claims' findings (files from before them, and tests). */
    public ResultsFile(String schema, Environment environment, List<Result> results, List<Layout> layouts,
                       List<Histogram> histograms, Matrix matrix, List<Failure> failures, List<Counters> counters,
                       MachineTopology topology, List<MachineCode> code, Map<String, JsonNode> models,
                       JitterReport jitter) {
        this(schema, environment, results, layouts, histograms, matrix, failures, counters, topology, code, models, jitter, null);
    }

    /** This file with {@code claims} as its claims' findings. */
    public ResultsFile withClaims(List<ClaimResult> claims) {
        return new ResultsFile(schema, environment, results, layouts, histograms, matrix, failures, counters, topology, code,
                models, jitter, claims);
    }

    /** Without a jitter run. */
    public ResultsFile(String schema, Environment environment, List<Result> results, List<Layout> layouts,
                       List<Histogram> histograms, Matrix matrix, List<Failure> failures, List<Counters> counters,
                       MachineTopology topology, List<MachineCode> code, Map<String, JsonNode> models) {
        this(schema, environment, results, layouts, histograms, matrix, failures, counters, topology, code, models, null);
    }

    /** Without family models (files from before them, and tests). */
    public ResultsFile(String schema, Environment environment, List<Result> results, List<Layout> layouts,
                       List<Histogram> histograms, Matrix matrix, List<Failure> failures, List<Counters> counters,
                       MachineTopology topology, List<MachineCode> code) {
        this(schema, environment, results, layouts, histograms, matrix, failures, counters, topology, code, Map.of(), null);
    }

    /** Without machine code and family models. */
    public ResultsFile(String schema, Environment environment, List<Result> results, List<Layout> layouts,
                       List<Histogram> histograms, Matrix matrix, List<Failure> failures, List<Counters> counters,
                       MachineTopology topology) {
        this(schema, environment, results, layouts, histograms, matrix, failures, counters, topology, List.of(), Map.of(), null);
    }

    /** The first version's fields, without counters and topology. */
    public ResultsFile(String schema, Environment environment, List<Result> results, List<Layout> layouts,
                       List<Histogram> histograms, Matrix matrix, List<Failure> failures) {
        this(schema, environment, results, layouts, histograms, matrix, failures, List.of(), null, List.of(), Map.of(), null);
    }

    /** A family that did not finish: its name and why. */
    public record Failure(String benchmark, String reason) {
    }
}
