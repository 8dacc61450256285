package dev.corescope.report;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * One run behind a results row: a JMH fork (its own JVM, JIT decisions and heap layout) or one
 * process's batches of a C twin. A row's {@code runs[]} lets {@code compare} take the run as
 * the unit of its statistics and the iterations as repeated measurements within it, as Kalibera
 * and Jones ("Rigorous Benchmarking in Reasonable Time", ISMM 2013) ask: iterations of one fork
 * share that fork's JIT decisions, so they alone do not show how much a second run would differ.
 *
 * @param mean the mean of the run's measurements, in the row's unit
 * @param n    how many measurements (iterations, batches) the mean comes from
 * @param sd   their standard deviation (n - 1 in the denominator); null for a single measurement
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RunFigures(double mean, long n, Double sd) {
}
