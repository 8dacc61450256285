package dev.corescope.bench.cpumask;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.sys.BatchTime;
import dev.corescope.sys.NativeCalls;
import dev.corescope.sys.TwinLinker;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Optional;

/**
 * The C twins of seed 000 in {@code native/src/cpumask.c}: {@code cpumask_any_but()} as a
 * {@code for_each_cpu} loop and {@code cpumask_first_but()}, each compiled as the kernel
 * would for NR_CPUS=64 (inline one-word search) and NR_CPUS=4096 (out-of-line
 * {@code _find_*_bit}). {@link Batch} runs the seed's 100000-call loop inside C, timed
 * with {@code clock_gettime}, one downcall per batch.
 */
public final class CpumaskTwins {

    private static final ValueLayout.OfLong WORD = ValueLayout.JAVA_LONG;

    private CpumaskTwins() {
    }

    /** The NR_CPUS values the C functions are compiled for. */
    public static boolean supports(int nrCpus) {
        return nrCpus == 64 || nrCpus == 4096;
    }

    /** The C function of a variant: {@code cs_cpumask_first_but_4096} etc. */
    public static String symbol(boolean firstBut, int nrCpus) {
        checkNrCpus(nrCpus);
        return "cs_cpumask_" + (firstBut ? "first_but_" : "any_but_loop_") + nrCpus;
    }

    /**
     * One lookup in C: {@code cpumask_first_but(mask, cpu)} or the old loop, with the
     * mask's {@code nbits} as {@code nr_cpu_ids}. For tests that compare answers.
     */
    public static int call(boolean firstBut, int nrCpus, CpuMask mask, int cpu) {
        checkMask(nrCpus, mask);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment words = words(arena, mask);
            return (int) TwinLinker.linked(Handles.CALL, Handles.FAILURE).invokeExact(variant(firstBut, nrCpus), words, mask.nbits(), cpu);
        } catch (Throwable t) {
            throw NativeCalls.rethrow(t);
        }
    }

    /**
     * The inputs of one configuration, copied to native memory once; {@link #timeNs} runs
     * one batch. CPUs come from the seed's formula ({@code offset + random % range}, drawn
     * inside the timed loop by the same xorshift64* as the Java benchmark) or from the
     * precomputed {@code cpus}.
     *
     * <p><b>Note:</b> confined to the thread that created it.
     */
    public static final class Batch implements AutoCloseable {
        private final Arena arena = Arena.ofConfined();
        private final int nrCpus;
        private final int nbits;
        private final boolean random;
        private final int offset;
        private final int range;
        private final MemorySegment mask;
        private final MemorySegment cpus;
        private final int ncpus;
        private final long seed;
        private final MemorySegment rngState;
        private final MemorySegment sink;
        private final MemorySegment cpuNs;

        /**
         * @param random   draw each CPU inside the loop; else take {@code cpus} in turn
         * @param seed     the generator's starting state (non-zero)
         * @param cpus     precomputed CPUs; its length must be a power of two (ignored when random)
         */
        public Batch(int nrCpus, CpuMask mask, boolean random, int offset, int range, long seed, int[] cpus) {
            checkMask(nrCpus, mask);
            if (!random && (cpus.length == 0 || Integer.bitCount(cpus.length) != 1)) {
                throw new IllegalArgumentException("precomputed CPUs: " + cpus.length + " is not a power of two");
            }
            this.nrCpus = nrCpus;
            this.nbits = mask.nbits();
            this.random = random;
            this.offset = offset;
            this.range = range;
            this.mask = words(arena, mask);
            this.ncpus = random ? 1 : cpus.length;
            this.cpus = arena.allocate(ValueLayout.JAVA_INT, ncpus);
            if (!random) MemorySegment.copy(cpus, 0, this.cpus, ValueLayout.JAVA_INT, 0, cpus.length);
            this.seed = seed == 0 ? 1 : seed;
            this.rngState = arena.allocate(WORD);
            this.sink = arena.allocate(WORD);
            this.cpuNs = arena.allocate(WORD);
        }

        /**
         * Runs {@code calls} lookups of one variant in C and returns how long they took. Every
         * batch starts the generator from the same seed, so both variants look up the same CPUs.
         */
        public BatchTime time(boolean firstBut, long calls) {
            rngState.set(WORD, 0, seed);
            try {
                long ns = (long) TwinLinker.linked(Handles.BATCH, Handles.FAILURE).invokeExact(variant(firstBut, nrCpus), mask, nbits, random ? 1 : 0,
                        offset, range, rngState, cpus, ncpus, calls, sink, cpuNs);
                if (ns < 0) throw new IllegalStateException("cs_cpumask_batch refused variant " + variant(firstBut, nrCpus));
                return new BatchTime(ns, cpuNs.get(WORD, 0));
            } catch (Throwable t) {
                throw NativeCalls.rethrow(t);
            }
        }

        /** The sum of every answer so far (what keeps the C compiler from dropping the calls). */
        long sink() {
            return sink.get(WORD, 0);
        }

        @Override
        public void close() {
            arena.close();
        }
    }

    private static int variant(boolean firstBut, int nrCpus) {
        return (nrCpus == 64 ? 0 : 2) + (firstBut ? 1 : 0);
    }

    private static void checkNrCpus(int nrCpus) {
        if (!supports(nrCpus)) throw new IllegalArgumentException("nrCpus " + nrCpus + ": the C twins exist for 64 and 4096");
    }

    private static void checkMask(int nrCpus, CpuMask mask) {
        checkNrCpus(nrCpus);
        if (mask.nbits() > nrCpus) {
            throw new IllegalArgumentException("a mask of " + mask.nbits() + " bits does not fit NR_CPUS=" + nrCpus);
        }
    }

    private static MemorySegment words(Arena arena, CpuMask mask) {
        int n = Math.max(1, mask.wordCount());
        MemorySegment s = arena.allocate(WORD, n);
        for (int i = 0; i < n; i++) s.setAtIndex(WORD, i, mask.word(i));
        return s;
    }

    /** Why the twins cannot run (no compiler at build time, or a symbol is missing), or empty. */
    public static Optional<String> unavailableReason() {
        return Optional.ofNullable(Handles.FAILURE);
    }

    /** Linked on first use; a missing library or symbol is kept as a reason, not thrown from the initializer. */
    private static final class Handles {
        private static final TwinLinker LINKER = new TwinLinker();
        static final MethodHandle BATCH = LINKER.downcall("cs_cpumask_batch", FunctionDescriptor.of(
                ValueLayout.JAVA_LONG,
                ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT,
                ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS,
                ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS,
                ValueLayout.ADDRESS));
        static final MethodHandle CALL = LINKER.downcall("cs_cpumask_call", FunctionDescriptor.of(
                ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
        static final String FAILURE = LINKER.failure();
    }
}
