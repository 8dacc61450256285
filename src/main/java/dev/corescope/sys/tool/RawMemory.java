package dev.corescope.sys.tool;

import java.lang.foreign.MemorySegment;

/**
 * One segment spanning the whole address space, for hot paths that keep an off-heap address as a
 * {@code long} and access it through a {@code VarHandle} with this segment as the base.
 *
 * <p>Why: a {@code VarHandle} access through an ordinary segment checks that segment's bounds,
 * alignment, read-only flag and liveness, and after a full fence (an {@code xchg}, a CAS) the JIT
 * must load all of that again: in {@code bench locks} that made a spinlock 1.3x to 2x slower. Through
 * this constant segment the checks fold to one compare and one alignment test.
 * The price is C's: nothing stops an access after the memory is freed, so the owner of the address
 * must outlive every use.
 *
 * <p>Made with {@code reinterpret}, a restricted method, so it lives here in {@code sys} and needs
 * {@code --enable-native-access}, which every corescope JVM has.
 */
public final class RawMemory {

    /** Address 0 to {@code Long.MAX_VALUE}, global scope (never closed). */
    public static final MemorySegment ALL = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);

    private RawMemory() {
    }
}
