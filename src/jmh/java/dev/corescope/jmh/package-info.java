/**
 * Affinity-pinned JMH benchmarks for anyone: {@link PinningProfiler} pins an existing
 * benchmark's threads by placement with one {@code -prof} option and records each iteration's
 * CPU migrations and context switches of those threads. Needs JMH on the class path (corescope
 * declares it optional); see docs/library.md.
 *
 * @since 0.1.0
 */
package dev.corescope.jmh;
