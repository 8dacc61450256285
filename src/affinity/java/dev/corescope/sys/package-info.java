/**
 * What the OS seam hands a library user: the {@link Pinning} a pin returns, the counters of
 * {@link PerfCounters}, and the exceptions of native calls ({@link NativeException} with its
 * {@link Errno}, {@link CpuNotAllowedException}, {@link NativeUnavailableException}). The calls
 * themselves live in {@code dev.corescope.sys.internal}, which the module does not export: a
 * module that reads {@code dev.corescope} gets no native access through it.
 *
 * <pre>{@code
 * try (PerfCounters.Session s = PerfCounters.start()) {
 *     work();
 *     for (PerfCounters.Count c : s.stop()) System.out.println(c);
 * }
 * }</pre>
 *
 * @since 0.1.0
 */
package dev.corescope.sys;
