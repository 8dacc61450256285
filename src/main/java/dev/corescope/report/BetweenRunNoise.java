package dev.corescope.report;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.apache.commons.math3.distribution.NormalDistribution;
import org.apache.commons.math3.distribution.TDistribution;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * How much one run of a benchmark differs from the next, beyond what its own iterations show:
 * the between-run variance of Kalibera and Jones' two-level model ("Rigorous Benchmarking in
 * Reasonable Time", ISMM 2013), with a run (a JMH fork, a separately started run of a C twin) as
 * the unit. The run means of a row with 2+ runs are the samples; their relative variance is
 * pooled over rows of one shape (two or three runs say little alone), without K&amp;J's
 * subtraction of the within-run part (docs/compare.md says why). A file with one run per side
 * gets the {@linkplain #allowance between-run allowance} as a fallback.
 *
 * @param relativeVariance the pooled variance of one run's mean over the mean squared
 * @param df               its degrees of freedom; {@link Double#POSITIVE_INFINITY} for a stated floor
 * @param rows             how many row-sides it pools
 * @param source           in words, e.g. {@code "pooled over 12 rows of cpumask/java with 2+ runs"}
 * @param assumed          true for the {@linkplain #allowance between-run allowance} of rows nothing
 *                         measured: an interval from it can find a change far beyond it, never call
 *                         a small one "no change"
 */
public record BetweenRunNoise(double relativeVariance, @JsonIgnore double df, int rows,
                       String source, boolean assumed) {

    /** A measured or stated figure. */
    public BetweenRunNoise(double relativeVariance, double df, int rows, String source) {
        this(relativeVariance, df, rows, source, false);
    }

    /**
     * The between-run allowance of every benchmark: the log-scale standard deviation of one run's
     * mean and its degrees of freedom, measured between two tours of unchanged code
     * (docs/compare.md; {@code BetweenRunNoiseAllowanceTest} recomputes it). A family whose rows
     * spread wider declares its own ({@link NoiseAllowance}); none is assumed steadier than this.
     */
    static final double[] ALLOWANCE_ANY = {0.90, 116};

    /** The family the allowance of {@code poolKey} comes from: itself (when its own figure is wider), or {@code all benchmarks}. */
    static String allowanceKey(String poolKey, List<NoiseAllowance> known) {
        NoiseAllowance a = find(poolKey, known);
        return a != null && a.logSd() > ALLOWANCE_ANY[0] ? poolKey : "all benchmarks";
    }

    private static NoiseAllowance find(String poolKey, List<NoiseAllowance> known) {
        return known.stream().filter(a -> a.poolKey().equals(poolKey)).findFirst().orElse(null);
    }

    /**
     * How far apart, as a factor, two single runs of unchanged code may be under this noise at
     * 99.9%: {@code exp(t(0.9995, df) sqrt(2 v))}.
     */
    public double factorOfTwoRuns() {
        double tq = Double.isFinite(df) ? new TDistribution(null, df).inverseCumulativeProbability(1 - Comparison.ALPHA / 2)
                : new NormalDistribution(null, 0, 1).inverseCumulativeProbability(1 - Comparison.ALPHA / 2);
        return Math.exp(tq * Math.sqrt(2 * relativeVariance));
    }

    /**
     * The run-to-run noise assumed for the rows of {@code poolKey} ({@code family/implementation})
     * when one run per side is all there is and nothing else measured or stated it. Its interval is
     * wide (at 99.9% two single runs must differ by a factor of about 74 to show),
     * so only effects far beyond what runs of unchanged code did on a loaded machine get a verdict;
     * smaller ones stay "not resolvable here".
     */
    static BetweenRunNoise allowance(String poolKey, List<NoiseAllowance> known) {
        String of = allowanceKey(poolKey, known);
        NoiseAllowance own = find(poolKey, known);
        double[] a = of.equals(poolKey) ? new double[]{own.logSd(), own.df()} : ALLOWANCE_ANY;
        return new BetweenRunNoise(a[0] * a[0], a[1], 0, String.format(Locale.ROOT,
                ALLOWANCE_WORDS + "%s (log-scale sd %.2f, df %.0f: what two tours of unchanged code showed "
                        + "on a loaded 2-vCPU machine; docs/compare.md)", of, a[0], a[1]), true);
    }

    /** How an allowance's source begins. */
    static final String ALLOWANCE_WORDS = "the between-run allowance of ";

    /** For an {@link #assumed} allowance: whose figure it is, {@code all benchmarks} or {@code family/implementation}. */
    String allowanceOf() {
        String from = ALLOWANCE_WORDS;
        if (!assumed || !source.startsWith(from)) return "";
        return source.substring(from.length(), source.indexOf(" (", from.length()));
    }

    /** The degrees of freedom for JSON: null for a stated floor (infinite). */
    @JsonProperty("df")
    public Double dfOrNull() {
        return Double.isInfinite(df) ? null : df;
    }

    /** The between-run coefficient of variation, in percent. */
    @JsonProperty("cvPercent")
    public double cvPercent() {
        return Math.sqrt(relativeVariance) * 100;
    }

    /** A stated floor: the user says one run differs from the next by {@code cvPercent} (one standard deviation). */
    public static BetweenRunNoise floor(double cvPercent) {
        double cv = cvPercent / 100;
        return new BetweenRunNoise(cv * cv, Double.POSITIVE_INFINITY, 0, "stated with --noise-floor " + cvPercent + "%");
    }

    /** The larger of two: a stated floor never makes the measured noise smaller. */
    static BetweenRunNoise max(BetweenRunNoise measured, BetweenRunNoise floor) {
        if (measured == null) return floor;
        if (floor == null) return measured;
        if (floor.relativeVariance() <= measured.relativeVariance()) return measured;
        return new BetweenRunNoise(floor.relativeVariance(), floor.df(), measured.rows(),
                floor.source() + ", above the " + String.format(Locale.ROOT, "%.2f%%", measured.cvPercent())
                        + " " + measured.source());
    }

    /**
     * One row-side's estimate of the relative between-run variance, or null when it has fewer
     * than two runs or a non-positive mean.
     */
    static double[] estimate(Result r) {
        List<RunFigures> runs = r.runs();
        if (runs.size() < 2 || r.error() != null && r.error() == 0.0) return null; // exact figures say nothing of timing noise
        double mean = runs.stream().mapToDouble(RunFigures::mean).average().orElseThrow();
        if (!(mean > 0)) return null;
        double s2 = runs.stream().mapToDouble(x -> (x.mean() - mean) * (x.mean() - mean)).sum() / (runs.size() - 1);
        return new double[]{s2 / (mean * mean), runs.size() - 1};
    }

    /**
     * The between-run noise of one row alone, from the run means of both sides (each side's
     * relative variance weighted by its {@code k - 1}); null when neither side has 2+ runs. A row
     * noisier than its family's pool keeps its own figure: under load, long operations can swing
     * far more from run to run than the family's short ones.
     */
    static BetweenRunNoise ofRow(Result x, Result y) {
        double sum = 0, df = 0;
        for (Result r : List.of(x, y)) {
            double[] e = estimate(r);
            if (e == null) continue;
            sum += e[0] * e[1];
            df += e[1];
        }
        if (df == 0) return null;
        return new BetweenRunNoise(sum / df, df, 1, "this row's own runs");
    }

    /** The pools, keyed by {@code key} of each row, over every row of the given files. */
    static Map<String, BetweenRunNoise> pools(Collection<List<Result>> files, Function<Result, String> key) {
        Map<String, double[]> acc = new HashMap<>();
        for (List<Result> rows : files) {
            for (Result r : rows) {
                double[] e = estimate(r);
                if (e == null) continue;
                double[] a = acc.computeIfAbsent(key.apply(r), k -> new double[3]);
                a[0] += e[0] * e[1];
                a[1] += e[1];
                a[2]++;
            }
        }
        Map<String, BetweenRunNoise> out = new HashMap<>();
        acc.forEach((k, a) -> out.put(k, new BetweenRunNoise(a[0] / a[1], a[1], (int) a[2],
                "pooled over " + (int) a[2] + " rows of " + k + " with 2+ runs")));
        return out;
    }

    static String poolKey(Result r) {
        return r.benchmark() + "/" + r.implementation();
    }

    /**
     * The row's shape: {@code benchmark/implementation/metric}, plus {@code workload=W} where the row
     * has a workload param. Runs of one shape vary alike; pooling over a whole family lets one
     * erratic kind of row (a writer's heap rows) set every row's floor.
     */
    static String shapeKey(Result r) {
        Object w = r.params().get("workload");
        return poolKey(r) + "/" + r.metric() + (w == null ? "" : "/workload=" + w);
    }

    /**
     * The rows of several files of one side (repeated runs of the same build) merged into one
     * row each: every file's row becomes a run (or adds its own runs), the score is the mean of
     * the run means, and the error the 99.9% half-width over them. One file: its rows unchanged.
     */
    static List<Result> mergeRuns(List<List<Result>> files) {
        if (files.size() == 1) return files.getFirst();
        Map<RowKey, List<Result>> byKey = new LinkedHashMap<>();
        for (List<Result> rows : files) for (Result r : rows) byKey.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r);
        List<Result> out = new ArrayList<>();
        for (List<Result> same : byKey.values()) {
            if (same.size() == 1) {
                out.add(same.getFirst());
                continue;
            }
            List<RunFigures> runs = new ArrayList<>();
            long samples = 0;
            for (Result r : same) {
                runs.addAll(r.runs().isEmpty() ? List.of(asRun(r)) : r.runs());
                samples += r.samples();
            }
            double mean = runs.stream().mapToDouble(RunFigures::mean).average().orElse(Double.NaN);
            // error keeps its meaning (the iterations' 99.9% half-width for these samples), so
            // Comparison.standardError reads the within-run part back; the runs carry the rest.
            double within = withinVariance(runs);
            double error = Double.isNaN(within) || samples < 2 ? Double.NaN
                    : Math.sqrt(within) * new TDistribution(null, samples - 1).inverseCumulativeProbability(1 - Comparison.ALPHA / 2);
            Result f = same.getFirst();
            out.add(Result.builder().benchmark(f.benchmark()).variant(f.variant()).implementation(f.implementation()).metric(f.metric()).unit(f.unit())
                    .score(mean).error(f.error() == null ? null : Double.isNaN(error) ? f.error() : error).samples(samples).cpus(f.cpus()).params(f.params()).runs(runs).build());
        }
        return out;
    }

    /**
     * The variance of the mean of all runs that their iterations alone explain,
     * {@code (1/k^2) sum(sd_i^2 / n_i)}; NaN when a run has no standard deviation.
     */
    static double withinVariance(List<RunFigures> runs) {
        double sum = 0;
        for (RunFigures x : runs) {
            if (x.sd() == null || x.n() < 1) return Double.NaN;
            sum += x.sd() * x.sd() / x.n();
        }
        return sum / ((double) runs.size() * runs.size());
    }

    /** A row without {@code runs[]} as one run: its mean, samples and the spread its error implies. */
    static RunFigures asRun(Result r) {
        Double se = Comparison.standardError(r);
        return new RunFigures(r.score(), r.samples(), se == null ? null : se * Math.sqrt(r.samples()));
    }
}
