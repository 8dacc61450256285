package dev.corescope.bench;

import dev.corescope.report.RunFigures;
import dev.corescope.sys.tool.BatchTime;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.util.ListStatistics;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * JMH's measurement iterations of one run, keeping those the benchmark thread ran through
 * undisturbed: an iteration's wall time (score x operations, {@code AverageTime} mode) may
 * not run more than 2% ahead of the thread's CPU time ({@link ThreadCpuTime}), the same rule
 * as for the C batches ({@link BatchTime#undisturbed()}). On a machine shared with other
 * work, an iteration that lost its CPU for a time slice would otherwise count someone else's
 * work as the benchmark's.
 *
 * @param stats    JMH's statistics over the kept iterations: the score is their mean and
 *                 the error JMH's 99.9% confidence half-width
 * @param total    measurement iterations JMH ran (all forks)
 * @param kept     how many of them {@code stats} holds
 * @param fellBack fewer than 3 ran undisturbed, so all were kept (the figure then includes
 *                 preemptions); also true when the run had no CPU time counter
 * @param runs     the same kept iterations per fork, for a between-fork error
 */
public record UndisturbedIterations(ListStatistics stats, String unit, int total, int kept, boolean fellBack,
                                    List<RunFigures> runs) {

    public static UndisturbedIterations of(RunResult run) {
        List<Double> all = new ArrayList<>(), clean = new ArrayList<>();
        List<List<Double>> allPerFork = new ArrayList<>(), cleanPerFork = new ArrayList<>();
        boolean counted = true;
        String unit = run.getPrimaryResult().getScoreUnit();
        double nsPerUnit = nanosPer(unit);
        for (BenchmarkResult fork : run.getBenchmarkResults()) {
            List<Double> forkAll = new ArrayList<>(), forkClean = new ArrayList<>();
            allPerFork.add(forkAll);
            cleanPerFork.add(forkClean);
            for (IterationResult it : fork.getIterationResults()) {
                double score = it.getPrimaryResult().getScore();
                all.add(score);
                forkAll.add(score);
                var cpu = it.getSecondaryResults().get(ThreadCpuTime.COUNTER);
                if (cpu == null || Double.isNaN(nsPerUnit)) {
                    counted = false;
                    continue;
                }
                long wallNs = Math.round(score * nsPerUnit * it.getMetadata().getMeasuredOps());
                if (new BatchTime(wallNs, Math.round(cpu.getScore())).undisturbed()) {
                    clean.add(score);
                    forkClean.add(score);
                }
            }
        }
        boolean fellBack = !counted || clean.size() < 3;
        List<Double> use = fellBack ? all : clean;
        List<RunFigures> runs = new ArrayList<>();
        for (List<Double> fork : fellBack ? allPerFork : cleanPerFork) {
            if (!fork.isEmpty()) runs.add(ForkFigures.of(new ListStatistics(toArray(fork))));
        }
        return new UndisturbedIterations(new ListStatistics(toArray(use)), unit, all.size(), use.size(), fellBack, runs);
    }

    private static double[] toArray(List<Double> l) {
        return l.stream().mapToDouble(Double::doubleValue).toArray();
    }

    public double score() {
        return stats.getMean();
    }

    /** The 99.9% half-width, or NaN with fewer than 3 iterations. */
    public double error() {
        return stats.getN() > 2 ? stats.getMeanErrorAt(0.999) : Double.NaN;
    }

    /** Nanoseconds in one {@code unit} of an AverageTime score ({@code ns/op}, {@code us/op}, ...); NaN for others. */
    private static double nanosPer(String unit) {
        String u = unit.endsWith("/op") ? unit.substring(0, unit.length() - 3) : "";
        return switch (u) {
            case "ns" -> 1;
            case "us" -> TimeUnit.MICROSECONDS.toNanos(1);
            case "ms" -> TimeUnit.MILLISECONDS.toNanos(1);
            case "s" -> TimeUnit.SECONDS.toNanos(1);
            default -> Double.NaN;
        };
    }
}
