package dev.corescope.bench.cpumask;

import dev.corescope.cpumask.CpuMask;
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
 * The C twins of seed 000 in {@code native/src/cpumask.c}: {@code cpumask_any_but()} as a
 * {@code for_each_cpu} loop and {@code cpumask_first_but()}, each compiled as the kernel
 * would for NR_CPUS=64 (inline one-word search) and NR_CPUS=4096 (out-of-line
 * {@code _find_*_bit}). {@link Batch} runs the seed's 100000-call loop inside C, timed
 * with {@code clock_gettime}, one downcall per batch. Every function exists at two code
 * layouts ({@link Layout}): the same source compiled with two sets of alignment flags.
 */
public final class CpumaskTwins {

    /** The code layouts {@code native/build.sh} compiles {@code cpumask.c} at. */
    public enum Layout {
        /** {@code -falign-functions=64 -falign-loops=64}: the symbols as written */
        ALIGN64(""),
        /** {@code -falign-functions=32 -falign-jumps=1 -falign-loops=1}: every symbol suffixed {@code _align32} */
        ALIGN32("_align32");

        private final String suffix;

        Layout(String suffix) {
            this.suffix = suffix;
        }

        /** The symbol suffix. */
        public String suffix() {
            return suffix;
        }

        /** As the {@code layout} param: {@code align64}, {@code align32}. */
        public String param() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** The compiler flags, in words. */
        public String flags() {
            return this == ALIGN64 ? "-falign-functions=64 -falign-loops=64" : "-falign-functions=32 -falign-jumps=1 -falign-loops=1";
        }
    }

    private static final ValueLayout.OfLong WORD = ValueLayout.JAVA_LONG;

    private CpumaskTwins() {
    }

    /** The NR_CPUS values the C functions are compiled for. */
    public static boolean supports(int nrCpus) {
        return nrCpus == 64 || nrCpus == 4096;
    }

    /** The C function of a variant at layout align64: {@code cs_cpumask_first_but_4096} etc. */
    public static String symbol(boolean firstBut, int nrCpus) {
        return symbol(firstBut, nrCpus, Layout.ALIGN64);
    }

    /** The C function of a variant at a layout: {@code cs_cpumask_first_but_4096_align32} etc. */
    public static String symbol(boolean firstBut, int nrCpus, Layout layout) {
        checkNrCpus(nrCpus);
        return "cs_cpumask_" + (firstBut ? "first_but_" : "any_but_loop_") + nrCpus + layout.suffix();
    }

    /**
     * One lookup in C: {@code cpumask_first_but(mask, cpu)} or the old loop, with the
     * mask's {@code nbits} as {@code nr_cpu_ids}. For tests that compare answers.
     */
    public static int call(boolean firstBut, int nrCpus, CpuMask mask, int cpu) {
        return call(firstBut, nrCpus, mask, cpu, Layout.ALIGN64);
    }

    /** {@link #call(boolean, int, CpuMask, int)} at a given code layout. */
    public static int call(boolean firstBut, int nrCpus, CpuMask mask, int cpu, Layout layout) {
        checkMask(nrCpus, mask);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment words = words(arena, mask);
            MethodHandle h = layout == Layout.ALIGN64 ? Handles.CALL : Handles.CALL_ALIGN32;
            return (int) TwinLinker.linked(h, Handles.FAILURE).invokeExact(variant(firstBut, nrCpus), words, mask.nbits(), cpu);
        } catch (Throwable t) {
            throw NativeCalls.rethrow(t);
        }
    }

    /**
     * The inputs of one configuration, copied to native memory once; {@link #time} runs one
     * batch. CPUs come from the seed's formula ({@code offset + random % range}, drawn inside
     * the timed loop by the same xorshift64* as the Java benchmark).
     *
     * <p><b>Note:</b> confined to the thread that created it.
     */
    public static final class Batch implements AutoCloseable {
        private final Arena arena = Arena.ofConfined();
        private final int nrCpus;
        private final int nrCpuIds;
        private final int offset;
        private final int range;
        private final Layout layout;
        private final MemorySegment mask;
        private final long seed;
        private final MemorySegment rngState;
        private final MemorySegment sink;
        private final MemorySegment cpuNs;

        /**
         * @param nrCpuIds the bound of the NR_CPUS=4096 searches ({@link CpumaskInputs#nrCpuIds()})
         * @param seed     the generator's starting state (non-zero)
         */
        public Batch(int nrCpus, CpuMask mask, int offset, int range, int nrCpuIds, long seed, Layout layout) {
            checkMask(nrCpus, mask);
            this.nrCpus = nrCpus;
            this.nrCpuIds = nrCpuIds;
            this.offset = offset;
            this.range = range;
            this.layout = layout;
            this.mask = words(arena, mask);
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
                MethodHandle h = layout == Layout.ALIGN64 ? Handles.BATCH : Handles.BATCH_ALIGN32;
                long ns = (long) TwinLinker.linked(h, Handles.FAILURE).invokeExact(variant(firstBut, nrCpus), mask, nrCpuIds,
                        offset, range, rngState, calls, sink, cpuNs);
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
        private static final FunctionDescriptor BATCH_DESCRIPTOR = FunctionDescriptor.of(
                ValueLayout.JAVA_LONG,
                ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT,
                ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS,
                ValueLayout.JAVA_LONG, ValueLayout.ADDRESS, ValueLayout.ADDRESS);
        private static final FunctionDescriptor CALL_DESCRIPTOR = FunctionDescriptor.of(
                ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT);
        static final MethodHandle BATCH = LINKER.downcall("cs_cpumask_batch", BATCH_DESCRIPTOR);
        static final MethodHandle BATCH_ALIGN32 = LINKER.downcall("cs_cpumask_batch" + Layout.ALIGN32.suffix(), BATCH_DESCRIPTOR);
        static final MethodHandle CALL = LINKER.downcall("cs_cpumask_call", CALL_DESCRIPTOR);
        static final MethodHandle CALL_ALIGN32 = LINKER.downcall("cs_cpumask_call" + Layout.ALIGN32.suffix(), CALL_DESCRIPTOR);
        static final String FAILURE = LINKER.failure();
    }
}
