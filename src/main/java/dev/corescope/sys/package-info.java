/**
 * What every part shares of the OS: libc through jextract's bindings in {@code sys.ffi}, linked
 * again here with errno capture, the loader of {@code libcorescope.so} and {@link
 * dev.corescope.sys.TwinLinker}, through which each {@code bench.<family>} package links its own
 * C twin. Nothing else links native code.
 */
package dev.corescope.sys;
