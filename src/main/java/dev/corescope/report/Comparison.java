package dev.corescope.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.apache.commons.math3.distribution.NormalDistribution;
import org.apache.commons.math3.distribution.TDistribution;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Two results files side by side, as {@code compare} prints it: rows matched on benchmark,
 * variant, implementation, metric and params ({@link RowKey}), each with the change
 * as an effect size with its confidence interval and a finding; rows found in only one file
 * listed, never dropped; and a summary in the manner of the kernel's {@code scripts/bloat-o-meter}.
 *
 * <p>The statistics treat a run (a JMH fork) as the unit and its iterations as repeated
 * measurements within it (Kalibera and Jones); the effect is {@code ln(after / before)} with the
 * run-to-run noise of {@link BetweenRunNoise}; docs/compare.md gives the variance, the degrees of
 * freedom and why a row whose between-run variance nothing measured is "not resolvable here".
 * Exact figures (error 0 on both sides: a code size) differ exactly when the numbers do.
 *
 * @param before          the first file's name, as given (several joined with {@code +})
 * @param after           the second file's name
 * @param test            the test, in words
 * @param rows            matched rows, in the order of the first file
 * @param onlyBefore      results only in the first file
 * @param onlyAfter       results only in the second file
 * @param environmentDiff environment fields that differ, e.g. {@code kernel: 6.1.0 -> 6.6.0}
 * @param summary         the counts and the geometric mean of the ratios
 * @param runNoise        the run-to-run noise used, by {@code benchmark/implementation}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Comparison(String before, String after, String test, List<Row> rows, List<Result> onlyBefore,
                         List<Result> onlyAfter, List<String> environmentDiff, Summary summary,
                         Map<String, BetweenRunNoise> runNoise) {

    private static final String UNKNOWN_RUN_TO_RUN = "one run per side, so the run-to-run error is unknown";
    /** What resolves a row whose run-to-run noise nothing measured (the end of its reason). */
    static final String RESOLVE = "run bench without --quick (2+ forks), give compare more files per side "
            + "(--before/--after) or state --noise-floor";

    /** Significance level: matches the 99.9% intervals the results carry. */
    public static final double ALPHA = 0.001;

    /** The confidence of the effect's interval, in percent. */
    public static final String CONFIDENCE = "99.9%";

    public static final String SIGNIFICANT = "significant";
    public static final String NO_CHANGE = "no change detectable here";
    public static final String NOT_RESOLVABLE = "not resolvable here";

    public static final String TEST = "effect = after/before of the means, 99.9% interval with runs (JMH forks) as the unit "
            + "and iterations within them (Kalibera & Jones); run-to-run noise pooled per family over rows with 2+ runs, "
            + "or stated with --noise-floor; rows with one run per side and neither get a wide interval from a between-run "
            + "allowance and are not resolvable here unless the change is far beyond it; "
            + "exact figures (error 0 on both sides) differ when they differ";

    /**
     * One matched row.
     *
     * @param deltaPercent    (after - before) / before * 100; null when the units differ or before is 0
     * @param p               the two-sided p-value; null when untested
     * @param significant     p &lt; ALPHA (the interval leaves out 0); null when untested
     * @param verdict         {@code better}, {@code worse} (when the unit says which way is better),
     *                        {@code higher}, {@code lower} (when it does not), {@code same} (not
     *                        significant), {@code untested}, or {@code units differ}
     * @param ciLowPercent    the low end of the effect's 99.9% interval, as a change in percent
     * @param ciHighPercent   its high end
     * @param noiseFloorPercent the interval's half-width at no change: the smallest change this row
     *                        could show here
     * @param finding         {@code significant}, {@code no change detectable here} or {@code not resolvable here}
     * @param reason          why, in words: the runs and noise behind the interval, or what is missing
     * @param runsBefore      runs behind the first figure
     * @param runsAfter       runs behind the second
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Row(String benchmark, String variant, String implementation, String metric, Map<String, Object> params,
                      String unit, double before, Double beforeError, long beforeSamples,
                      double after, Double afterError, long afterSamples,
                      Double deltaPercent, Double p, Boolean significant, String verdict,
                      Double ciLowPercent, Double ciHighPercent, Double noiseFloorPercent, String finding, String reason,
                      Integer runsBefore, Integer runsAfter) {
    }

    /**
     * bloat-o-meter's {@code add/remove: 1/0 grow/shrink: 2/1}, for speed.
     *
     * @param geomeanPercent the geometric mean of after/before over matched rows timed per operation
     *                       ({@code ns/op}, {@code cycles/op}, {@code ns}, ...) with a positive
     *                       score in both, as a change in percent; null when there are none
     * @param notResolvable  rows whose run-to-run noise nothing measured (counted in {@code untested} too)
     */
    public record Summary(int matched, int added, int removed, int better, int worse, int higher, int lower, int same,
                          int untested, Double geomeanPercent, Integer notResolvable) {
    }

    /**
     * Compares the files of one side (repeated runs of the same build, merged row by row into
     * runs) with those of the other. {@code noiseFloorPercent}, when given, is the least
     * between-run coefficient of variation assumed for every row; {@code allowances} are the
     * families' own between-run allowances ({@link NoiseAllowance}) for rows whose noise nothing measured.
     */
    public static Comparison of(String beforeName, List<ResultsFile> a, String afterName, List<ResultsFile> b,
                                Double noiseFloorPercent, List<NoiseAllowance> allowances) {
        String[] beforeNames = beforeName.split(" \\+ "), afterNames = afterName.split(" \\+ ");
        for (int i = 0; i < a.size(); i++) RowIdentity.check(Path.of(beforeNames[Math.min(i, beforeNames.length - 1)]), a.get(i).results());
        for (int i = 0; i < b.size(); i++) RowIdentity.check(Path.of(afterNames[Math.min(i, afterNames.length - 1)]), b.get(i).results());
        List<Result> beforeRows = BetweenRunNoise.mergeRuns(a.stream().map(ResultsFile::results).toList());
        List<Result> afterRows = BetweenRunNoise.mergeRuns(b.stream().map(ResultsFile::results).toList());
        Map<String, BetweenRunNoise> pools = BetweenRunNoise.pools(List.of(beforeRows, afterRows), BetweenRunNoise::poolKey);
        Map<String, BetweenRunNoise> shapes = BetweenRunNoise.pools(List.of(beforeRows, afterRows), BetweenRunNoise::shapeKey);
        BetweenRunNoise floor = noiseFloorPercent == null ? null : BetweenRunNoise.floor(noiseFloorPercent);
        Map<String, BetweenRunNoise> used = new TreeMap<>();
        // each side's keys are unique (checked above, merged by mergeRuns): one map, of the after
        // rows; each matched row leaves it, so what stays is only in after
        Map<RowKey, Result> after = new LinkedHashMap<>();
        for (Result r : afterRows) after.put(r.key(), r);
        List<Row> rows = new ArrayList<>();
        List<Result> onlyBefore = new ArrayList<>();
        for (Result x : beforeRows) {
            Result y = after.remove(x.key());
            if (y == null) onlyBefore.add(x);
            else {
                // pooled over rows of the same shape where they have repeated runs, else over the family
                String shape = BetweenRunNoise.shapeKey(x);
                String key = shapes.containsKey(shape) ? shape : BetweenRunNoise.poolKey(x);
                BetweenRunNoise noise = BetweenRunNoise.max(shapes.containsKey(shape) ? shapes.get(shape) : pools.get(BetweenRunNoise.poolKey(x)), floor);
                if (noise == null && x.runs().size() <= 1 && y.runs().size() <= 1) noise = BetweenRunNoise.allowance(BetweenRunNoise.poolKey(x), allowances);
                if (noise != null) used.put(noise.assumed() ? BetweenRunNoise.poolKey(x) : key, noise);
                rows.add(row(x, y, noise));
            }
        }
        List<Result> onlyAfter = new ArrayList<>(after.values());

        int better = 0, worse = 0, higher = 0, lower = 0, same = 0, untested = 0, notResolvable = 0;
        double logSum = 0;
        int logN = 0;
        for (Row r : rows) {
            switch (r.verdict()) {
                case "better" -> better++;
                case "worse" -> worse++;
                case "higher" -> higher++;
                case "lower" -> lower++;
                case "same" -> same++;
                default -> untested++;
            }
            if (NOT_RESOLVABLE.equals(r.finding())) notResolvable++;
            if (r.before() > 0 && r.after() > 0 && r.deltaPercent() != null && isTime(r.unit())) {
                logSum += Math.log(r.after() / r.before());
                logN++;
            }
        }
        Double geomean = logN == 0 ? null : (Math.exp(logSum / logN) - 1) * 100;
        Summary s = new Summary(rows.size(), onlyAfter.size(), onlyBefore.size(), better, worse, higher, lower, same, untested,
                geomean, notResolvable);
        Environment envA = a.isEmpty() ? null : a.getFirst().environment();
        Environment envB = b.isEmpty() ? null : b.getFirst().environment();
        return new Comparison(beforeName, afterName, TEST, rows, onlyBefore, onlyAfter, environmentDiff(envA, envB), s, used);
    }

    static Row row(Result x, Result y, BetweenRunNoise noise) {
        boolean sameUnit = Objects.equals(x.unit(), y.unit());
        Double delta = sameUnit && x.score() != 0 ? (y.score() - x.score()) / Math.abs(x.score()) * 100 : null;
        boolean exact = x.error() != null && y.error() != null && x.error() == 0.0 && y.error() == 0.0;
        String unit = sameUnit ? x.unit() : x.unit() + " -> " + y.unit();
        int kx = Math.max(1, x.runs().size()), ky = Math.max(1, y.runs().size());
        if (!sameUnit) {
            return row(x, y, unit, delta, null, null, "units differ", null, null, null, NOT_RESOLVABLE,
                    "the units differ: " + unit, kx, ky);
        }
        if (exact) {
            boolean differ = x.score() != y.score();
            return row(x, y, unit, delta, null, differ, direction(x, y, differ), delta, delta, 0.0,
                    differ ? SIGNIFICANT : NO_CHANGE, "exact figures (error 0 on both sides)", kx, ky);
        }
        Double sx = standardError(x), sy = standardError(y);
        if (sx == null || sy == null) {
            return row(x, y, unit, delta, null, null, "untested", null, null, null, NOT_RESOLVABLE,
                    "no error on " + (sx == null ? "the first" : "the second") + " figure (fewer than 2 samples or none given)", kx, ky);
        }
        if (!(x.score() > 0) || !(y.score() > 0)) {
            return row(x, y, unit, delta, null, null, "untested", null, null, null, NOT_RESOLVABLE,
                    "a score is not positive, so there is no ratio", kx, ky);
        }
        if (noise == null) {
            return row(x, y, unit, delta, null, null, "untested", null, null, null, NOT_RESOLVABLE,
                    "one run per side (" + kx + "+" + ky + ") and no row of " + BetweenRunNoise.poolKey(x)
                            + " with repeated runs, so the run-to-run error is unknown; " + RESOLVE, kx, ky);
        }
        BetweenRunNoise rowNoise = BetweenRunNoise.ofRow(x, y);
        if (rowNoise != null && rowNoise.relativeVariance() > noise.relativeVariance()) {
            noise = new BetweenRunNoise(rowNoise.relativeVariance(), rowNoise.df(), 1, rowNoise.source() + ", noisier than the family's pool");
        }
        // The pooled run-to-run variance speaks for both sides at once (one estimate, its own
        // degrees of freedom); the rows' own iterations are a second estimate, which wins when
        // larger (a row noisier than its family keeps its own error).
        double wx = within(x, sx) / (x.score() * x.score()), wy = within(y, sy) / (y.score() * y.score());
        double pooled = noise.relativeVariance() * (1.0 / kx + 1.0 / ky);
        double own = wx + wy;
        double var = Math.max(pooled, own);
        // A measured pool keeps its degrees of freedom even when the iterations' figure is larger:
        // a pool that came out small by chance must not lend the iterations' many.
        double dfDen = Double.isFinite(noise.df()) ? var * var / noise.df()
                : pooled >= own ? 0 : wx * wx / (x.samples() - 1) + wy * wy / (y.samples() - 1);
        double df = dfDen > 0 ? var * var / dfDen : Double.POSITIVE_INFINITY;
        double d = Math.log(y.score() / x.score());
        double sd = Math.sqrt(var);
        double tq, p;
        if (sd == 0) {
            tq = 0;
            p = d == 0 ? 1.0 : 0.0;
        } else if (df > 1e6) {
            var normal = new NormalDistribution(null, 0, 1);
            tq = normal.inverseCumulativeProbability(1 - ALPHA / 2);
            p = 2 * normal.cumulativeProbability(-Math.abs(d) / sd);
        } else {
            TDistribution t = new TDistribution(null, df);
            tq = t.inverseCumulativeProbability(1 - ALPHA / 2);
            p = 2 * t.cumulativeProbability(-Math.abs(d) / sd);
        }
        double h = tq * sd;
        double lo = clamp((Math.exp(d - h) - 1) * 100), hi = clamp((Math.exp(d + h) - 1) * 100);
        double floorPercent = clamp((Math.exp(h) - 1) * 100);
        boolean significant = p < ALPHA;
        if (noise.assumed() && !significant) {
            return row(x, y, unit, delta, null, null, "untested", lo, hi, floorPercent, NOT_RESOLVABLE,
                    UNKNOWN_RUN_TO_RUN + "; the change is within the between-run allowance of "
                            + noise.allowanceOf() + String.format(Locale.ROOT,
                            " (single runs of unchanged code may differ by a factor of %.0f at %s); ", noise.factorOfTwoRuns(), CONFIDENCE)
                            + RESOLVE, kx, ky);
        }
        String basis = String.format(Locale.ROOT, "%d+%d runs; run-to-run noise %.2f%% %s; df %.0f", kx, ky,
                noise.cvPercent(), noise.source(), Math.min(df, 1e9));
        String reason = significant ? basis
                : String.format(Locale.ROOT, "the change (%+.1f%%) is within the noise floor of %.1f%% here; %s",
                delta == null ? 0 : delta, floorPercent, basis);
        return row(x, y, unit, delta, Math.min(1.0, Math.max(0.0, p)), significant, direction(x, y, significant),
                lo, hi, floorPercent, significant ? SIGNIFICANT : NO_CHANGE, reason, kx, ky);
    }

    /**
     * The variance of a row's mean that its iterations explain: from its runs' own spreads when
     * it has them (JMH's error over all forks' iterations would count the between-run part
     * twice), else from its error.
     */
    private static double within(Result r, double se) {
        if (r.runs().size() > 1) {
            double w = BetweenRunNoise.withinVariance(r.runs());
            if (!Double.isNaN(w)) return w;
        }
        return se * se;
    }

    /** Percentages beyond a billion (an interval from two forks can reach them) stay finite for JSON. */
    private static double clamp(double percent) {
        return Double.isNaN(percent) ? percent : Math.max(-1e9, Math.min(1e9, percent));
    }

    /** What {@code n} is, in words: how far runs differ, or the allowance assumed where nothing measured it. */
    static String noiseText(BetweenRunNoise n) {
        return n.assumed()
                ? String.format(Locale.ROOT, "not measured (one run per side); assumed %s: two single runs may differ by a factor of %.0f at %s",
                n.source(), n.factorOfTwoRuns(), CONFIDENCE)
                : String.format(Locale.ROOT, "runs differ by %.2f%% (one standard deviation), %s", n.cvPercent(), n.source());
    }

    private static Row row(Result x, Result y, String unit, Double delta, Double p, Boolean significant, String verdict,
                           Double lo, Double hi, Double floor, String finding, String reason, int kx, int ky) {
        return new Row(x.benchmark(), x.variant(), x.implementation(), x.metric(), x.params(), unit,
                x.score(), x.error(), x.samples(), y.score(), y.error(), y.samples(), delta, p, significant, verdict,
                lo, hi, floor, finding, reason, kx, ky);
    }

    private static String direction(Result x, Result y, boolean significant) {
        if (!significant) return "same";
        Boolean lowerIsBetter = lowerIsBetter(x.unit());
        boolean up = y.score() > x.score();
        if (lowerIsBetter == null) return up ? "higher" : "lower";
        return up == lowerIsBetter ? "worse" : "better";
    }

    /** {@code error / t(0.9995, n-1)}: the standard error of the mean behind JMH's 99.9% half-width. */
    static Double standardError(Result r) {
        if (r.error() == null || r.samples() < 2 || Double.isNaN(r.error())) return null;
        double tq = new TDistribution(null, r.samples() - 1).inverseCumulativeProbability(0.9995);
        return r.error() / tq;
    }

    /**
     * True for times per operation ({@code ns/op}, {@code us/op}, {@code ns}, {@code cycles/op})
     * and sizes ({@code bytes}), false for rates ({@code ops/s}, {@code ops/us}); null when the
     * unit does not say.
     */
    public static Boolean lowerIsBetter(String unit) {
        if (unit == null) return null;
        String u = unit.strip().toLowerCase(Locale.ROOT);
        if (u.startsWith("ops/") || u.startsWith("op/")) return false;
        if (isTime(u) || u.equals("bytes") || u.equals("cycles")) return true;
        return null;
    }

    /** A cost per operation or a latency: what the geometric mean sums up. */
    static boolean isTime(String unit) {
        String u = unit.strip().toLowerCase(Locale.ROOT);
        return u.endsWith("/op") || u.matches("(ns|us|µs|ms|s)");
    }

    private static List<String> environmentDiff(Environment a, Environment b) {
        List<String> out = new ArrayList<>();
        if (a == null || b == null) return out;
        diff(out, "cpuModel", a.cpuModel(), b.cpuModel());
        diff(out, "kernel", a.kernel(), b.kernel());
        diff(out, "jdk", a.jdk(), b.jdk());
        diff(out, "allowed", a.allowed(), b.allowed());
        diff(out, "online", a.online(), b.online());
        diff(out, "smt", a.smt(), b.smt());
        diff(out, "governor", a.governor(), b.governor());
        diff(out, "cpuQuota", a.cpuQuota(), b.cpuQuota());
        diff(out, "hypervisor", a.hypervisor(), b.hypervisor());
        diff(out, "pinnedCpus", a.pinnedCpus(), b.pinnedCpus());
        return out;
    }

    private static void diff(List<String> out, String name, Object a, Object b) {
        if (!Objects.equals(a, b)) out.add(name + ": " + a + " -> " + b);
    }

    /** The bloat-o-meter-like line: {@code add/remove: 1/0 better/worse: 3/1 same: 8 untested: 0 geomean time: -3.8% (12 matched)}. */
    @JsonProperty("summaryLine")
    public String summaryLine() {
        Summary s = summary;
        StringBuilder sb = new StringBuilder();
        sb.append("add/remove: ").append(s.added()).append('/').append(s.removed());
        sb.append(" better/worse: ").append(s.better()).append('/').append(s.worse());
        if (s.higher() + s.lower() > 0) sb.append(" higher/lower: ").append(s.higher()).append('/').append(s.lower());
        sb.append(" same: ").append(s.same());
        sb.append(" untested: ").append(s.untested());
        if (s.notResolvable() != null && s.notResolvable() > 0) sb.append(" (not resolvable here: ").append(s.notResolvable()).append(')');
        sb.append(" geomean time: ").append(s.geomeanPercent() == null ? "n/a" : String.format(Locale.ROOT, "%+.1f%%", s.geomeanPercent()));
        sb.append(" (").append(s.matched()).append(" matched)");
        return sb.toString();
    }
}
