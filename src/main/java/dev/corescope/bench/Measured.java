package dev.corescope.bench;

import dev.corescope.report.Result;
import dev.corescope.report.RunFigures;
import org.openjdk.jmh.util.ListStatistics;
import org.openjdk.jmh.util.Statistics;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * A results row with the samples it came from, for a before/after significance test, and
 * whether it had to keep samples taken while the thread was descheduled.
 */
public record Measured(Result result, Statistics stats, boolean includesPreemptions) {

    /** Whether {@code other} differs from this by Welch's t-test at 99.9%, as JMH compares two results. */
    public boolean differs(Measured other) {
        return stats.getN() > 1 && other.stats.getN() > 1 && stats.isDifferent(other.stats, 0.999);
    }

    /** A JMH run's undisturbed iterations as a {@code java} row (metric {@code op}). */
    public static Measured java(String benchmark, String variant, UndisturbedIterations u, String cpus,
                                Map<String, Object> params) {
        double error = u.error();
        return new Measured(Result.builder().benchmark(benchmark).variant(variant).implementation("java").metric("op").unit(u.unit())
                .score(u.score()).error(Double.isNaN(error) ? null : error).samples(u.kept()).cpus(cpus).params(params).runs(u.runs()).build(), u.stats(), u.fellBack());
    }

    /**
     * A C twin's per-op times from separately started runs (each its own batches), as a
     * {@code native} row in ns/op: the mean and 99.9% half-width over every kept batch, and one
     * of the row's {@code runs[]} per run, so the row's interval takes the run as its unit.
     */
    public static Measured nativeRuns(String benchmark, String variant, List<double[]> perOpRuns, String cpus,
                                      Map<String, Object> params, boolean includesPreemptions) {
        double[] perOp = perOpRuns.stream().flatMapToDouble(Arrays::stream).toArray();
        List<RunFigures> runs = perOpRuns.stream().map(r -> ForkFigures.of(new ListStatistics(r))).toList();
        ListStatistics s = new ListStatistics(perOp);
        double error = s.getN() > 1 ? s.getMeanErrorAt(0.999) : Double.NaN;
        return new Measured(Result.builder().benchmark(benchmark).variant(variant).implementation("native").metric("op").unit("ns/op")
                .score(s.getMean()).error(Double.isNaN(error) ? null : error).samples(s.getN()).cpus(cpus).params(params).runs(runs).build(), s, includesPreemptions);
    }
}
