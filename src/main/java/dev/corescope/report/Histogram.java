package dev.corescope.report;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * A latency distribution in fixed buckets, as {@code histograms[]} in the results file:
 * {@code counts[i]} samples fell in {@code [i*bucketNs, (i+1)*bucketNs - 1]} ns; the last
 * bucket also holds everything above it ({@code overflow} says how many of those there were).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Histogram(String benchmark, String variant, String implementation, int bucketNs, long[] counts,
                        long total, long overflow, Double p50, Double p99, Double max) {

    /**
     * The most bars a chart draws: one per pixel of its 300-pixel plot. A histogram with more
     * buckets (up to its last non-empty one) is drawn {@link #coarser coarser}, so a page stays
     * a small multiple of its input whatever the file holds.
     */
    public static final int MAX_BARS = 300;

    /** {@code k} adjacent buckets merged into one ({@code k} 1: this histogram); the last bucket still holds the rest. */
    public Histogram coarser(int k) {
        if (k <= 1 || counts == null) return this;
        long[] merged = new long[(counts.length + k - 1) / k];
        for (int i = 0; i < counts.length; i++) merged[i / k] += counts[i];
        int width = (int) Math.min(Integer.MAX_VALUE, (long) bucketNs * k);
        return new Histogram(benchmark, variant, implementation, width, merged, total, overflow, p50, p99, max);
    }

    /** The factor {@link #coarser} needs so that {@code n} buckets become at most {@link #MAX_BARS} bars. */
    public static int factorFor(int n) {
        return n <= MAX_BARS ? 1 : (n + MAX_BARS - 1) / MAX_BARS;
    }

    /** The width of a digit in the charts' 11px sans-serif labels, in pixels (rounded up). */
    public static final double CHAR_PX = 7;

    /** Every how many buckets a chart's x label goes, so that labels as wide as {@code widest}'s digits leave a gap. */
    public static int labelStep(int buckets, double bucketPx, long widest) {
        double labelPx = String.valueOf(widest).length() * CHAR_PX + 8;
        return Math.max(1, Math.max((int) Math.ceil(buckets / 8.0), (int) Math.ceil(labelPx / bucketPx)));
    }
}
