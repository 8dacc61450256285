package dev.corescope.bench.timerbase;

import dev.corescope.sys.tool.BatchTime;
import dev.corescope.sys.tool.TwinLinker;
import dev.corescope.sys.internal.NativeCalls;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Locale;
import java.util.Optional;

/**
 * The C twins of seed 001 in {@code native/src/timerbase.c}: a {@code lock_timer_base()}-like
 * loop around {@code get_timer_cpu_base()} before (two {@code per_cpu_ptr}, as GCC compiles
 * them and with both table loads kept) and after (one) the patch, reading the same off-heap
 * per-CPU areas and timers as the Java model; the Java model's {@code __per_cpu_offset[]}
 * table is copied into the library's own array (as the kernel's, a global array) before each
 * call. Segments passed in must stay alive for the call.
 */
public final class TimerbaseTwins {

    /** What the C loop runs between its two clock reads. */
    public enum Variant {
        /** nothing: the cost of {@code clock_gettime} itself */
        EMPTY,
        /** {@code get_timer_cpu_base} before seed 001 */
        BEFORE,
        /** {@code get_timer_cpu_base} after seed 001 */
        AFTER,
        /** {@code get_timer_cpu_base} before seed 001, both {@code __per_cpu_offset[cpu]} loads kept ({@code READ_ONCE}) */
        BEFORE_TWO_LOADS
    }

    private TimerbaseTwins() {
    }

    /** The C function of a variant, for its size in the symbol table. */
    public static String symbol(Variant v) {
        if (v == Variant.EMPTY) throw new IllegalArgumentException("EMPTY has no function");
        return "cs_timerbase_lock_" + v.name().toLowerCase(Locale.ROOT);
    }

    /**
     * {@code calls} calls of the variant over {@code ntimers} timers (a power of two), timed
     * in C as one batch.
     *
     * @param sink one {@code long}; the sum of the returned bases' addresses is added to it
     * @return how long the batch took, by the wall clock and by the thread's CPU time
     */
    public static BatchTime batch(Variant v, MemorySegment perCpuOffset, MemorySegment timers, int ntimers, long calls,
                                  MemorySegment sink) {
        if (v == Variant.EMPTY) throw new IllegalArgumentException("a batch times BEFORE, BEFORE_TWO_LOADS or AFTER");
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment cpuNs = arena.allocate(ValueLayout.JAVA_LONG);
            long ns = (long) TwinLinker.linked(Handles.BATCH, Handles.FAILURE).invokeExact(v.ordinal(), perCpuOffset, entries(perCpuOffset), timers, ntimers,
                    calls, sink, cpuNs);
            if (ns < 0) throw refused("cs_timerbase_batch", ns, v, perCpuOffset);
            return new BatchTime(ns, cpuNs.get(ValueLayout.JAVA_LONG, 0));
        } catch (Throwable t) {
            throw NativeCalls.rethrow(t);
        }
    }

    /**
     * {@code samples} calls each between two {@code clock_gettime(CLOCK_MONOTONIC)} reads, as
     * the seed measured; the latencies in ns go into {@code outNs} ({@code samples} unsigned
     * 32-bit values).
     *
     * @return the sum of {@code base->cpu} over the bases found (0 for {@link Variant#EMPTY})
     */
    public static long samples(Variant v, MemorySegment perCpuOffset, MemorySegment timers, int ntimers,
                               MemorySegment outNs, long samples) {
        if (outNs.byteSize() < samples * 4) throw new IllegalArgumentException("outNs holds fewer than " + samples + " samples");
        try {
            long r = (long) TwinLinker.linked(Handles.SAMPLES, Handles.FAILURE).invokeExact(v.ordinal(), perCpuOffset, entries(perCpuOffset), timers, ntimers,
                    outNs, samples);
            if (r < 0) throw refused("cs_timerbase_samples", r, v, perCpuOffset);
            return r;
        } catch (Throwable t) {
            throw NativeCalls.rethrow(t);
        }
    }

    /** Entries of the {@code __per_cpu_offset[]} table (8 bytes each). */
    private static int entries(MemorySegment perCpuOffset) {
        return (int) Math.min(Integer.MAX_VALUE, perCpuOffset.byteSize() / Long.BYTES);
    }

    private static IllegalStateException refused(String function, long code, Variant v, MemorySegment perCpuOffset) {
        return new IllegalStateException(code == -2
                ? function + ": a __per_cpu_offset[] table of " + entries(perCpuOffset) + " CPUs is more than its NR_CPUS (8192)"
                : function + " refused variant " + v);
    }

    /** Why the twins cannot run (no compiler at build time, or a symbol is missing), or empty. */
    public static Optional<String> unavailableReason() {
        return Optional.ofNullable(Handles.FAILURE);
    }

    /** Linked on first use; a missing library or symbol is kept as a reason, not thrown from the initializer. */
    private static final class Handles {
        private static final TwinLinker LINKER = new TwinLinker();
        static final MethodHandle BATCH = LINKER.downcall("cs_timerbase_batch", FunctionDescriptor.of(ValueLayout.JAVA_LONG,
                ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT,
                ValueLayout.JAVA_LONG, ValueLayout.ADDRESS, ValueLayout.ADDRESS));
        static final MethodHandle SAMPLES = LINKER.downcall("cs_timerbase_samples", FunctionDescriptor.of(ValueLayout.JAVA_LONG,
                ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT,
                ValueLayout.ADDRESS, ValueLayout.JAVA_LONG));
        static final String FAILURE = LINKER.failure();
    }
}
