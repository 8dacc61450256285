/**
 * corescope as a library for affinity-pinned code: the calling thread's CPUs
 * ({@link dev.corescope.affinity.ThreadAffinity}), CPU reservations across threads and
 * processes by OS file locks ({@link dev.corescope.affinity.Reservations}), strategies that
 * choose CPUs by what they share ({@link dev.corescope.affinity.CpuStrategy}) and a pinning
 * {@link java.util.concurrent.ThreadFactory}. Needs only {@code cpumask}, {@code topology}
 * and {@code sys}; see docs/library.md.
 */
package dev.corescope.affinity;
