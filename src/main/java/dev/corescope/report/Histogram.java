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
}
