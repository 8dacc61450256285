/**
 * The OS seam: what corescope asks of Linux, through FFM (libc via jextract's bindings in
 * {@code sys.ffi}, linked again here with errno capture). Nothing else in the library links
 * native code.
 *
 * <p>API: {@link dev.corescope.sys.Os} (the seam, with {@link dev.corescope.sys.Os#live()} the
 * machine; tests give corescope a fake one), {@link dev.corescope.sys.Pinning} (the handle a pin
 * returns), {@link dev.corescope.sys.PerfCounters} and the exceptions
 * ({@link dev.corescope.sys.NativeException} with its {@link dev.corescope.sys.Errno},
 * {@link dev.corescope.sys.CpuNotAllowedException},
 * {@link dev.corescope.sys.NativeUnavailableException}). {@code Affinity}, {@code CurrentCpu},
 * {@code Flock}, {@code Threads}, {@code NativeCalls}, {@code Pinning.pinReused} and
 * {@code Pinning.of} are public for corescope's own packages and are <b>not API</b>: they may
 * change in any release. To pin a thread or read its CPU, use
 * {@code dev.corescope.affinity.ThreadAffinity}.
 *
 * <pre>{@code
 * Os os = Os.live();
 * CpuMask mine = os.allowed();                       // sched_getaffinity(0)
 * try (Pinning p = ThreadAffinity.pin(mine.first())) {
 *     System.out.println("on CPU " + ThreadAffinity.currentCpu() + ", was on " + p.previous().toList());
 * }
 * }</pre>
 *
 * <p>Nothing here hands out raw memory or a native capability: a module that reads
 * {@code dev.corescope} gets no native access through it.
 *
 * @since 0.1.0
 */
package dev.corescope.sys;
