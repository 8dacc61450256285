package dev.corescope.bench;

import java.util.Arrays;

/**
 * The median of timing samples taken outside JMH (C twins, the c2c ping-pong), with its
 * distribution-free 99.9% confidence interval. The median, not the mean: on a shared machine a
 * pinned thread that is preempted leaves its partner waiting for a whole time slice, and one
 * such sample moves a mean of fifty by microseconds. The interval comes from order statistics
 * (ranks n/2 &plusmn; 3.29&middot;&radic;n/2): {@code low} and {@code high} are those two
 * samples, so the interval never leaves the samples' range (a skewed set has a short side and a
 * long one); {@code error} is the larger distance from the median to its ends, so it can stand as
 * the CONTRACT's half-width. The mean is kept to show how far outliers pulled it.
 */
public record SampleStats(double median, double error, double low, double high, double mean, double min, long samples) {

    /** z for a two-sided 99.9% interval. */
    private static final double Z_999 = 3.2905;

    public static SampleStats of(double[] values) {
        if (values.length == 0) throw new IllegalArgumentException("no samples");
        double[] x = values.clone();
        Arrays.sort(x);
        int n = x.length;
        double median = n % 2 == 1 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
        double half = Z_999 * Math.sqrt(n) / 2;
        int lo = Math.max(0, (int) Math.floor(n / 2.0 - half) - 1);
        int hi = Math.min(n - 1, (int) Math.ceil(n / 2.0 + half));
        double error = n > 1 ? Math.max(median - x[lo], x[hi] - median) : Double.NaN;
        return new SampleStats(median, error, n > 1 ? x[lo] : Double.NaN, n > 1 ? x[hi] : Double.NaN,
                Arrays.stream(x).average().orElse(Double.NaN), x[0], n);
    }

    /** The error for a results row: null when there is only one sample. */
    public Double errorOrNull() {
        return Double.isNaN(error) ? null : error;
    }
}
