package dev.corescope.report;

/**
 * A CPU-by-CPU matrix, as {@code matrix} in the results file: {@code values[i][j]} is from
 * {@code cpus[i]} to {@code cpus[j]} in {@code unit}; null on the diagonal and where not measured.
 */
public record Matrix(int[] cpus, String unit, Double[][] values, Double[][] errors) {
}
