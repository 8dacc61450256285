/**
 * corescope as a library for affinity-pinned code: the calling thread's CPUs
 * ({@link ThreadAffinity}), CPU reservations across threads and
 * processes by OS file locks ({@link Reservations}), strategies that
 * choose CPUs by what they share ({@link CpuStrategy}) and a pinning
 * {@link java.util.concurrent.ThreadFactory}. Needs only {@code cpumask}, {@code topology}
 * and {@code sys}; see docs/library.md.
 *
 * <pre>{@code
 * try (Pinning p = ThreadAffinity.pin(CpuMask.parse("2"))) {        // this thread on CPU 2
 *     assert ThreadAffinity.currentCpu() == 2;
 * }
 * try (Reservation r = Reservations.shared().reserveAny(); Pinning p = r.pin()) {
 *     // on a CPU no other corescope user on this machine is given meanwhile
 * }
 * }</pre>
 *
 * @since 0.1.0
 */
package dev.corescope.affinity;
