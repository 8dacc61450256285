package dev.corescope.report;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One measured figure, as {@code results[]} in the CONTRACT's results file. Made with
 * {@link #builder()} (or {@link #toBuilder()}); the canonical constructor is for Jackson.
 * Its identity is {@link #key()}.
 *
 * @param benchmark      the family: {@code cpumask}, {@code timerbase}, {@code cpupri}, {@code locks}, {@code c2c}
 * @param variant        the CONTRACT's variant name, e.g. {@code first_but}
 * @param implementation {@code java} or {@code native}
 * @param metric         what was timed, e.g. {@code op}, {@code find}, {@code set}
 * @param unit           e.g. {@code ns/op}
 * @param score          the mean
 * @param error          half-width of the 99.9% confidence interval, same unit; null when unknown
 * @param samples        how many measurements the score and error come from
 * @param cpus           the CPUs the measuring threads were pinned to (cpulist), {@code ""} if unpinned
 * @param params         the benchmark's parameters ({@code nrCpus}, {@code workload}, ...)
 * @param runs           the runs (JMH forks) the score pools, each with its own mean; absent when the
 *                       producer did not record them (files before this field, figures that are not
 *                       repeated runs), in which case {@code compare} treats the row as one run
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Result(String benchmark, String variant, String implementation, String metric, String unit,
                     double score, Double error, long samples, String cpus, Map<String, Object> params,
                     @JsonInclude(JsonInclude.Include.NON_EMPTY) List<RunFigures> runs) {

    public Result {
        // a file's rows repeat the same few names and units: one String each, not one per row
        // (at 60,000 rows the copies were ~25 MB of the heap, issue 28)
        benchmark = shared(benchmark);
        variant = shared(variant);
        implementation = shared(implementation);
        metric = shared(metric);
        unit = shared(unit);
        cpus = shared(cpus);
        params = Params.of(params);
        runs = runs == null ? List.of() : List.copyOf(runs);
    }

    private static String shared(String s) {
        return s == null ? null : s.intern();
    }

    /** A row to fill: benchmark, variant, implementation, metric and unit are required. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this row, to change part of it. */
    public Builder toBuilder() {
        return new Builder().benchmark(benchmark).variant(variant).implementation(implementation).metric(metric)
                .unit(unit).score(score).error(error).samples(samples).cpus(cpus).params(params).runs(runs);
    }

    /** This row with its runs recorded. */
    public Result withRuns(List<RunFigures> runs) {
        return toBuilder().runs(runs).build();
    }

    /** What identifies this row in its file and across files: benchmark, variant, implementation, metric, params. */
    @JsonIgnore
    public RowKey key() {
        return RowKey.of(this);
    }

    /** The parts of a row, each set by name. */
    public static final class Builder {
        private String benchmark;
        private String variant;
        private String implementation;
        private String metric;
        private String unit;
        private double score;
        private Double error;
        private long samples = 1;
        private String cpus = "";
        private final Map<String, Object> params = new LinkedHashMap<>();
        private List<RunFigures> runs = List.of();

        private Builder() {
        }

        public Builder benchmark(String benchmark) {
            this.benchmark = benchmark;
            return this;
        }

        public Builder variant(String variant) {
            this.variant = variant;
            return this;
        }

        /** {@code java} or {@code native}. */
        public Builder implementation(String implementation) {
            this.implementation = implementation;
            return this;
        }

        public Builder metric(String metric) {
            this.metric = metric;
            return this;
        }

        public Builder unit(String unit) {
            this.unit = unit;
            return this;
        }

        public Builder score(double score) {
            this.score = score;
            return this;
        }

        /** The interval's half-width; null or NaN when unknown (then absent from the file). */
        public Builder error(Double error) {
            this.error = error == null || Double.isNaN(error) ? null : error;
            return this;
        }

        /** How many measurements; 1 unless set. */
        public Builder samples(long samples) {
            this.samples = samples;
            return this;
        }

        /** The cpulist the measuring threads were pinned to; {@code ""} (unpinned) unless set. */
        public Builder cpus(String cpus) {
            this.cpus = cpus;
            return this;
        }

        /** The parameters, replacing any set before. */
        public Builder params(Map<String, ?> params) {
            this.params.clear();
            if (params != null) this.params.putAll(params);
            return this;
        }

        public Builder param(String name, Object value) {
            params.put(name, value);
            return this;
        }

        public Builder runs(List<RunFigures> runs) {
            this.runs = runs == null ? List.of() : runs;
            return this;
        }

        public Result build() {
            Objects.requireNonNull(benchmark, "benchmark");
            Objects.requireNonNull(variant, "variant");
            Objects.requireNonNull(implementation, "implementation");
            Objects.requireNonNull(metric, "metric");
            Objects.requireNonNull(unit, "unit");
            return new Result(benchmark, variant, implementation, metric, unit, score, error, samples, cpus, params, runs);
        }
    }
}
