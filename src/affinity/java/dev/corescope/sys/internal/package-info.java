/**
 * The native calls behind the library (libc with errno capture, affinity, the current CPU,
 * {@code flock}, the reusable pin handles and the OS seam {@code Os}), public for the library's
 * other packages and the tool on the class path but NOT exported by the module: they hand out
 * capabilities (pin any thread by pid, close any descriptor, handles to libc), and
 * {@code LibraryModuleTest} fails if this package is exported.
 */
package dev.corescope.sys.internal;
