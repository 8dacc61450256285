package dev.corescope.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The whole results file, {@code "schema": "corescope-results/1"}; CONTRACT.md and docs/formats.md
 * say what each part holds. {@code results} is always there, {@code []} when nothing finished,
 * so scripts can rely on it; the other parts appear only where a run has them.
 *
 * <p>Made with {@link #builder()} (or {@link #toBuilder()} to change one part); the canonical
 * constructor is for Jackson.
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record ResultsFile(String schema, Environment environment,
                          @JsonInclude(JsonInclude.Include.ALWAYS) List<Result> results, List<Layout> layouts,
                          List<Histogram> histograms, Matrix matrix, List<Failure> failures, List<Counters> counters,
                          MachineTopology topology, List<MachineCode> code, Map<String, JsonNode> models,
                          JsonNode jitter, List<ClaimResult> claims, MachineSummary machine) {

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
        jitter = jitter == null || jitter.isNull() ? null : jitter;
    }

    /** This file with {@code claims} as its claims' findings. */
    public ResultsFile withClaims(List<ClaimResult> claims) {
        return toBuilder().claims(claims).build();
    }

    /** An empty file of {@link #SCHEMA} to fill; every part left unset is absent (results {@code []}). */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding every part of this file, to change some of them. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.schema = schema;
        b.environment = environment;
        b.results.addAll(results);
        b.layouts.addAll(layouts);
        b.histograms.addAll(histograms);
        b.matrix = matrix;
        b.failures.addAll(failures);
        b.counters.addAll(counters);
        b.topology = topology;
        b.code.addAll(code);
        b.models.putAll(models);
        b.jitter = jitter;
        b.claims.addAll(claims);
        b.machine = machine;
        return b;
    }

    /** A family that did not finish: its name and why. */
    public record Failure(String benchmark, String reason) {
    }

    /**
     * The parts of a results file, each set by name. List setters replace the list
     * ({@code results(rows)}); {@code null} means none.
     */
    public static final class Builder {
        private String schema = SCHEMA;
        private Environment environment;
        private final List<Result> results = new ArrayList<>();
        private final List<Layout> layouts = new ArrayList<>();
        private final List<Histogram> histograms = new ArrayList<>();
        private Matrix matrix;
        private final List<Failure> failures = new ArrayList<>();
        private final List<Counters> counters = new ArrayList<>();
        private MachineTopology topology;
        private final List<MachineCode> code = new ArrayList<>();
        private final Map<String, JsonNode> models = new LinkedHashMap<>();
        private JsonNode jitter;
        private final List<ClaimResult> claims = new ArrayList<>();
        private MachineSummary machine;

        private Builder() {
        }

        public Builder schema(String schema) {
            this.schema = schema;
            return this;
        }

        public Builder environment(Environment environment) {
            this.environment = environment;
            return this;
        }

        public Builder results(List<Result> results) {
            return replace(this.results, results);
        }

        public Builder layouts(List<Layout> layouts) {
            return replace(this.layouts, layouts);
        }

        public Builder histograms(List<Histogram> histograms) {
            return replace(this.histograms, histograms);
        }

        public Builder matrix(Matrix matrix) {
            this.matrix = matrix;
            return this;
        }

        public Builder failures(List<Failure> failures) {
            return replace(this.failures, failures);
        }

        public Builder counters(List<Counters> counters) {
            return replace(this.counters, counters);
        }

        public Builder topology(MachineTopology topology) {
            this.topology = topology;
            return this;
        }

        public Builder code(List<MachineCode> code) {
            return replace(this.code, code);
        }

        /** The typed models by family name, replacing any set before. */
        public Builder models(Map<String, JsonNode> models) {
            this.models.clear();
            if (models != null) this.models.putAll(models);
            return this;
        }

        public Builder model(String family, JsonNode model) {
            models.put(family, model);
            return this;
        }

        /** The jitter run as JSON ({@code jitter.JitterView} reads and writes it). */
        public Builder jitter(JsonNode jitter) {
            this.jitter = jitter;
            return this;
        }

        /** Each claim's finding ({@code SeedVerdicts.evaluate}). */
        public Builder claims(List<ClaimResult> claims) {
            return replace(this.claims, claims);
        }

        /** The machine this file was measured on, summarised to compare machines ({@link MachineSummary#compute}). */
        public Builder machine(MachineSummary machine) {
            this.machine = machine;
            return this;
        }

        public ResultsFile build() {
            return new ResultsFile(schema, environment, results, layouts, histograms, matrix, failures, counters,
                    topology, code, models, jitter, claims, machine);
        }

        private <T> Builder replace(List<T> to, List<T> from) {
            to.clear();
            if (from != null) to.addAll(from);
            return this;
        }
    }
}
