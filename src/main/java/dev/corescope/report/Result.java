package dev.corescope.report;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.Map;

/**
 * One measured figure, as {@code results[]} in the CONTRACT's results file.
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
                     @JsonInclude(JsonInclude.Include.NON_EMPTY) java.util.List<Run> runs) {

    public Result {
        params = params == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(params));
        runs = runs == null ? java.util.List.of() : java.util.List.copyOf(runs);
    }

    /** A row without per-run figures. */
    public Result(String benchmark, String variant, String implementation, String metric, String unit,
                  double score, Double error, long samples, String cpus, Map<String, Object> params) {
        this(benchmark, variant, implementation, metric, unit, score, error, samples, cpus, params, null);
    }

    /** This row with its runs recorded. */
    public Result withRuns(java.util.List<Run> runs) {
        return new Result(benchmark, variant, implementation, metric, unit, score, error, samples, cpus, params, runs);
    }

    /** The key {@code compare} matches rows on: benchmark, variant, implementation, metric and params. */
    public String matchKey() {
        return benchmark + "/" + variant + "/" + implementation + "/" + metric + "/" + new java.util.TreeMap<>(params);
    }
}
