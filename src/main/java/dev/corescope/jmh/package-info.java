/**
 * Affinity-pinned JMH benchmarks for anyone: {@link dev.corescope.jmh.PinningProfiler} pins an
 * existing benchmark's threads by placement with one {@code -prof} option and records each
 * iteration's CPU migrations and context switches of those threads. Needs JMH on the class
 * path (corescope declares it optional); see docs/library.md.
 */
package dev.corescope.jmh;
