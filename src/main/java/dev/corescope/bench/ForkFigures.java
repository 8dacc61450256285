package dev.corescope.bench;

import dev.corescope.report.RunFigures;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.util.Statistics;

import java.util.ArrayList;
import java.util.List;
import java.util.function.DoubleUnaryOperator;

/**
 * The per-fork figures of a JMH run as a results row's {@code runs[]}: JMH keeps each fork's
 * iterations apart ({@link RunResult#getBenchmarkResults()}), and {@code compare} needs them
 * apart to see how much one fork differs from the next.
 */
public final class ForkFigures {

    private ForkFigures() {
    }

    /** One run from the statistics of its measurements. */
    public static RunFigures of(Statistics s) {
        return new RunFigures(s.getMean(), s.getN(), s.getN() > 1 ? s.getStandardDeviation() : null);
    }

    /**
     * The forks of {@code run} for the secondary result {@code label} (a {@code @Group} method),
     * each figure mapped through {@code scale} (e.g. halving a round trip); empty when a fork lacks it.
     */
    public static List<RunFigures> ofSecondary(RunResult run, String label, DoubleUnaryOperator scale) {
        List<RunFigures> out = new ArrayList<>();
        for (BenchmarkResult fork : run.getBenchmarkResults()) {
            Result r = fork.getSecondaryResults().get(label);
            if (r == null) return List.of();
            Statistics s = r.getStatistics();
            double k = scale.applyAsDouble(1.0);
            out.add(new RunFigures(s.getMean() * k, s.getN(), s.getN() > 1 ? s.getStandardDeviation() * Math.abs(k) : null));
        }
        return out;
    }
}
