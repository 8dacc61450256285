package dev.corescope.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.apache.commons.math3.distribution.TDistribution;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Two results files side by side, as {@code compare} prints it: rows matched on benchmark,
 * variant, implementation, metric and params ({@link Result#matchKey()}), each with the change
 * and whether it is significant; rows found in only one file listed, never dropped; and a
 * summary in the manner of the kernel's {@code scripts/bloat-o-meter}.
 *
 * <p>The test: Welch's two-sided t-test at {@link #ALPHA} on each pair of means. JMH reports
 * the half-width of the 99.9% confidence interval, {@code error = t(0.9995, n-1) * s / sqrt(n)},
 * so each side's standard error is recovered as {@code error / t(0.9995, n-1)}; the degrees of
 * freedom come from Welch-Satterthwaite. A row without an error or with fewer than 2 samples is
 * not tested ({@code verdict = "untested"}), except exact figures: when both errors are 0 (a code
 * size, a count), the rows differ exactly when the numbers do. JMH's samples are iterations, which are not fully
 * independent (one fork shares its JIT decisions), so a "significant" here is necessary, not
 * sufficient: run with more forks before believing a small change.
 *
 * @param before          the first file's name, as given
 * @param after           the second file's name
 * @param test            the test, in words
 * @param rows            matched rows, in the order of the first file
 * @param onlyBefore      results only in the first file
 * @param onlyAfter       results only in the second file
 * @param environmentDiff environment fields that differ, e.g. {@code kernel: 6.1.0 -> 6.6.0}
 * @param summary         the counts and the geometric mean of the ratios
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Comparison(String before, String after, String test, List<Row> rows, List<Result> onlyBefore,
                         List<Result> onlyAfter, List<String> environmentDiff, Summary summary) {

    /** Significance level: matches the 99.9% intervals the results carry. */
    public static final double ALPHA = 0.001;

    public static final String TEST = "Welch's two-sided t-test, alpha = 0.001, standard errors from each row's 99.9% half-width "
            + "and sample count (error / t(0.9995, n-1)); exact figures (error 0 on both sides) differ when they differ; "
            + "rows without an error are not tested";

    /**
     * One matched row.
     *
     * @param deltaPercent (after - before) / before * 100; null when the units differ or before is 0
     * @param p            the two-sided p-value; null when untested
     * @param significant  p &lt; ALPHA; null when untested
     * @param verdict      {@code better}, {@code worse} (when the unit says which way is better),
     *                     {@code higher}, {@code lower} (when it does not), {@code same} (not
     *                     significant), {@code untested}, or {@code units differ}
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Row(String benchmark, String variant, String implementation, String metric, Map<String, Object> params,
                      String unit, double before, Double beforeError, long beforeSamples,
                      double after, Double afterError, long afterSamples,
                      Double deltaPercent, Double p, Boolean significant, String verdict) {
    }

    /**
     * bloat-o-meter's {@code add/remove: 1/0 grow/shrink: 2/1}, for speed.
     *
     * @param geomeanPercent the geometric mean of after/before over matched rows timed per operation
     *                       ({@code ns/op}, {@code cycles/op}, {@code ns}, ...) with a positive
     *                       score in both, as a change in percent; null when there are none
     */
    public record Summary(int matched, int added, int removed, int better, int worse, int higher, int lower, int same,
                          int untested, Double geomeanPercent) {
    }

    /** Compares {@code a} (before) with {@code b} (after). */
    public static Comparison of(String beforeName, ResultsFile a, String afterName, ResultsFile b) {
        Map<String, Result> after = keyed(b.results());
        Map<String, Result> before = keyed(a.results());
        List<Row> rows = new ArrayList<>();
        List<Result> onlyBefore = new ArrayList<>();
        for (Map.Entry<String, Result> e : before.entrySet()) {
            Result x = e.getValue();
            Result y = after.get(e.getKey());
            if (y == null) onlyBefore.add(x);
            else rows.add(row(x, y));
        }
        List<Result> onlyAfter = new ArrayList<>();
        for (Map.Entry<String, Result> e : after.entrySet()) if (!before.containsKey(e.getKey())) onlyAfter.add(e.getValue());

        int better = 0, worse = 0, higher = 0, lower = 0, same = 0, untested = 0;
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
            if (r.before() > 0 && r.after() > 0 && r.deltaPercent() != null && isTime(r.unit())) {
                logSum += Math.log(r.after() / r.before());
                logN++;
            }
        }
        Double geomean = logN == 0 ? null : (Math.exp(logSum / logN) - 1) * 100;
        Summary s = new Summary(rows.size(), onlyAfter.size(), onlyBefore.size(), better, worse, higher, lower, same, untested, geomean);
        return new Comparison(beforeName, afterName, TEST, rows, onlyBefore, onlyAfter, environmentDiff(a.environment(), b.environment()), s);
    }

    /** By match key; a key seen again in the same file gets {@code #2}, {@code #3}, so nothing is lost. */
    private static Map<String, Result> keyed(List<Result> results) {
        Map<String, Result> out = new LinkedHashMap<>();
        for (Result r : results) {
            String key = r.matchKey();
            String k = key;
            for (int i = 2; out.containsKey(k); i++) k = key + "#" + i;
            out.put(k, r);
        }
        return out;
    }

    static Row row(Result x, Result y) {
        boolean sameUnit = Objects.equals(x.unit(), y.unit());
        Double delta = sameUnit && x.score() != 0 ? (y.score() - x.score()) / Math.abs(x.score()) * 100 : null;
        boolean exact = x.error() != null && y.error() != null && x.error() == 0.0 && y.error() == 0.0;
        Double p = sameUnit && !exact ? welchP(x, y) : null;
        Boolean significant = exact ? Boolean.valueOf(x.score() != y.score()) : p == null ? null : p < ALPHA;
        String verdict;
        if (!sameUnit) {
            verdict = "units differ";
        } else if (significant == null) {
            verdict = "untested";
        } else if (!significant) {
            verdict = "same";
        } else {
            Boolean lowerIsBetter = lowerIsBetter(x.unit());
            boolean up = y.score() > x.score();
            if (lowerIsBetter == null) verdict = up ? "higher" : "lower";
            else verdict = up == lowerIsBetter ? "worse" : "better";
        }
        String unit = sameUnit ? x.unit() : x.unit() + " -> " + y.unit();
        return new Row(x.benchmark(), x.variant(), x.implementation(), x.metric(), x.params(), unit,
                x.score(), x.error(), x.samples(), y.score(), y.error(), y.samples(), delta, p, significant, verdict);
    }

    /**
     * Welch's two-sided p-value from two JMH rows, or null when either lacks an error or has
     * fewer than two samples.
     */
    static Double welchP(Result x, Result y) {
        Double sx = standardError(x);
        Double sy = standardError(y);
        if (sx == null || sy == null) return null;
        double diff = y.score() - x.score();
        double var = sx * sx + sy * sy;
        if (var == 0) return diff == 0 ? 1.0 : 0.0;
        double t = diff / Math.sqrt(var);
        double nx = x.samples() - 1;
        double ny = y.samples() - 1;
        double df = var * var / (Math.pow(sx, 4) / nx + Math.pow(sy, 4) / ny);
        if (!(df > 0) || Double.isInfinite(df)) df = nx + ny;
        double p = 2 * new TDistribution(null, df).cumulativeProbability(-Math.abs(t));
        return Math.min(1.0, Math.max(0.0, p));
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
        sb.append(" geomean time: ").append(s.geomeanPercent() == null ? "n/a" : String.format(Locale.ROOT, "%+.1f%%", s.geomeanPercent()));
        sb.append(" (").append(s.matched()).append(" matched)");
        return sb.toString();
    }
}
