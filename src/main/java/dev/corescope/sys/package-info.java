/**
 * Everything that calls native code: libc through jextract's bindings in {@code sys.ffi},
 * linked again here with errno capture, and the C twins in {@code libcorescope.so}. No other
 * package makes a downcall; benchmark packages may hold off-heap data in
 * {@code MemorySegment}s (that data is what they measure), but call C only through this one.
 */
package dev.corescope.sys;
