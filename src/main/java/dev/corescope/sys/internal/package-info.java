/**
 * The native calls behind the library, NOT exported by the module {@code dev.corescope}: libc
 * linked with errno capture ({@code Libc}, {@code NativeCalls}), thread and process affinity
 * ({@code Affinity}), the current CPU through rseq or {@code sched_getcpu} ({@code CurrentCpu}),
 * {@code flock} and raw file descriptors for the reservation lock files ({@code Flock}), the
 * reusable pin handles ({@code ThreadPin}) and the OS seam the benchmarks of the tool use
 * ({@code Os}, faked in tests).
 *
 * <p>They are public so that the library's other packages and the tool (which runs on the class
 * path) can call them; on the module path nobody outside {@code dev.corescope} can, which is
 * the point: these classes hand out capabilities (pin any thread by pid, close or chmod any file
 * descriptor, method handles to libc). {@code LibraryModuleTest} fails if this package, or any of
 * these classes, is exported. Library users pin and read the current CPU with
 * {@code ThreadAffinity} of the package {@code affinity}.
 */
package dev.corescope.sys.internal;
