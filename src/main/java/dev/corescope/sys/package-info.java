/**
 * What the OS seam hands a library user: the {@link Pinning} a pin returns, the
 * hardware and software counters of {@link PerfCounters}, and the exceptions
 * of native calls ({@link NativeException} with its
 * {@link Errno}, {@link CpuNotAllowedException},
 * {@link NativeUnavailableException}).
 *
 * <p>The calls themselves (linking libc with errno capture, {@code sched_setaffinity},
 * {@code sched_getcpu}, rseq, {@code flock}) live in {@code dev.corescope.sys.internal}, which
 * the module does not export: there is one public way to pin a thread and one to read its
 * current CPU, both in {@code ThreadAffinity} of the package {@code affinity}.
 *
 * <pre>{@code
 * try (Pinning p = ThreadAffinity.pin(ThreadAffinity.allowed().first())) {
 *     System.out.println("on CPU " + ThreadAffinity.currentCpu() + ", was on " + p.previous().toList());
 * } catch (CpuNotAllowedException e) {
 *     System.err.println("not allowed here: " + e.refused().toList());
 * }
 *
 * try (PerfCounters.Session s = PerfCounters.start()) {
 *     work();
 *     for (PerfCounters.Count c : s.stop()) System.out.println(c);
 * }
 * }</pre>
 *
 * <p>Nothing here hands out raw memory or a native capability: a module that reads
 * {@code dev.corescope} gets no native access through it.
 *
 * @since 0.1.0
 */
package dev.corescope.sys;
