package dev.corescope.bench.locks;

import dev.corescope.sys.NativeException;
import dev.corescope.sys.tool.NativeLibrary;
import dev.corescope.sys.NativeUnavailableException;
import dev.corescope.sys.internal.NativeCalls;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The C twins of {@code bench locks} ({@code native/src/locks.c}, symbols {@code cs_locks_*}):
 * time_bench-style loops that run {@code loops} elements inside C and time the whole loop with
 * {@code clock_gettime(CLOCK_MONOTONIC)} and the TSC, so Java pays one downcall per batch; the TSC
 * calibration; the TSC rate from the kernel log; and the empty function whose downcall shows what
 * crossing from Java into C costs.
 *
 * <p>Every method throws {@link NativeUnavailableException} (with the reason) when
 * {@code libcorescope.so} was not built or loaded; check {@link NativeLibrary#available()} first.
 */
public final class LocksTwins {

    /** One time_bench loop in C; the symbol is {@code cs_locks_} + the lower-case name. */
    public enum Loop {
        /** time_bench_for_loop: {@code loops_cnt++; barrier();}, the loop overhead. */
        FOR_LOOP(0, 0),
        /** test-and-set spinlock: {@code __atomic_exchange_n} to lock, a release store to unlock, both inline. */
        SPIN_LOCK_UNLOCK(0, 0),
        /** pthread_spin_lock and pthread_spin_unlock, two calls into the C library. */
        PTHREAD_SPIN_LOCK(2, 0),
        /**
         * signals blocked saving the mask, and the lock, inline; the unlock and the mask's restore in
         * one out-of-line helper: the seed's kernel's one call more than the plain lock.
         */
        SPIN_LOCK_IRQSAVE(2, 2),
        /**
         * the same call structure with the flags stand-in that runs what local_irq_save/restore ran:
         * {@code pushfq; pop} and the lock inline, the unlock and {@code push; popfq} in one
         * out-of-line helper (no {@code cli}).
         */
        SPIN_LOCK_IRQSAVE_PUSHF(1, 0),
        /** the mask saved inline, then the lock. */
        IRQSAVE_MANUAL(2, 2),
        /** signals blocked without saving, lock, unlock, unblocked. */
        IRQ_DISABLE_SPIN_LOCK(2, 2),
        /** the mask change (save + restore) alone. */
        IRQ_SAVE_RESTORE(2, 2),
        /** a call to a noinline function (time_bench_sample's measured_function). */
        FUNCTION_CALL(1, 0),
        /** pthread_mutex (default type): the analogue of an uncontended {@code synchronized}. */
        MUTEX(2, 0),
        /** recursive pthread_mutex: the analogue of ReentrantLock. */
        RECURSIVE_MUTEX(2, 0),
        /** seqlock read: the analogue of StampedLock's optimistic read. */
        SEQLOCK_READ(0, 0),
        /** {@code __atomic_add_fetch} (lock xadd): the analogue of AtomicLong.incrementAndGet. */
        ATOMIC_INCREMENT(0, 0);

        private final int calls;
        private final int setupCalls;

        Loop(int calls, int setupCalls) {
            this.calls = calls;
            this.setupCalls = setupCalls;
        }

        /**
         * The out-of-line calls the loop makes per element (to a helper or the C library; what a
         * helper calls in turn is not counted): {@code LocksMachineCodeTest} counts them in the
         * built library's machine code.
         */
        public int calls() {
            return calls;
        }

        /** The calls the loop's function makes once, outside the loop, beyond the for_loop's (saving and restoring the signal mask). */
        int setupCalls() {
            return setupCalls;
        }

        public String symbol() {
            return "cs_locks_" + name().toLowerCase(Locale.ROOT);
        }
    }

    /** What {@link State#contend} hammers; the numbers are {@code enum cs_locks_contended_kind}. */
    public enum Contended {
        SPIN(0), PTHREAD_SPIN(1), MUTEX(2), ATOMIC(3);

        private final int code;

        Contended(int code) {
            this.code = code;
        }
    }

    /**
     * What one batch measured ({@code struct cs_locks_record}).
     *
     * @param invoked  elements run
     * @param ns       CLOCK_MONOTONIC nanoseconds around the loop
     * @param tsc      TSC cycles around the loop (0 without a TSC)
     * @param migrated whether the thread was on another CPU at the end than at the start
     */
    public record Batch(long invoked, long ns, long tsc, boolean migrated) {
        public double nsPerElement() {
            return (double) ns / invoked;
        }

        public double cyclesPerElement() {
            return (double) tsc / invoked;
        }
    }

    /**
     * The TSC rate from the kernel log.
     *
     * @param khz  the rate, 0 when neither line was found
     * @param line which line it came from, e.g. {@code tsc: Detected 2596.136 MHz processor}
     */
    public record KernelTscRate(long khz, String line) {
    }

    private static final StructLayout RECORD = MemoryLayout.structLayout(
            JAVA_LONG.withName("invoked"), JAVA_LONG.withName("ns"), JAVA_LONG.withName("tsc"),
            JAVA_LONG.withName("cpu_migrated"));

    private LocksTwins() {
    }

    /**
     * A {@code struct cs_locks_state}: every lock the twins use, each on its own cache line,
     * allocated in C. Shared between threads for the contended mode and the exclusion check;
     * {@link #close()} (once, after every thread is done) frees it.
     */
    public static final class State implements AutoCloseable {
        private final MemorySegment address;
        private boolean closed;

        private State(MemorySegment address) {
            this.address = address;
        }

        /** Runs {@code loop} for {@code loops} elements inside C on the calling thread. */
        public Batch run(Loop loop, long loops) {
            if (loops < 1) throw new IllegalArgumentException("loops must be positive: " + loops);
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment rec = arena.allocate(RECORD);
                int rc = (int) Handles.LOOPS.get(loop).invokeExact(address, loops, rec);
                if (rc != 0) throw new NativeException(loop.symbol(), "loops=" + loops, rc);
                return batch(rec);
            } catch (Throwable t) {
                throw NativeCalls.rethrow(t);
            }
        }

        /**
         * One of {@code threads} threads hammering the lock: waits for all at the starting line,
         * then runs until the first of them has run {@code durationNs}. Call {@link #resetContention()}
         * before each round. {@code cpu} is where the caller pinned this thread (-1: not pinned); the
         * batch says {@link Batch#migrated()} if C's {@code sched_getcpu()} found it elsewhere at the
         * start or the end of the round.
         */
        public Batch contend(Contended kind, int threads, int cpu, long durationNs) {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment rec = arena.allocate(RECORD);
                int rc = (int) Handles.CONTEND.invokeExact(address, kind.code, threads, cpu, durationNs, rec);
                if (rc != 0) throw new NativeException("cs_locks_contend", "kind=" + kind, rc);
                return batch(rec);
            } catch (Throwable t) {
                throw NativeCalls.rethrow(t);
            }
        }

        /** Rearms the starting line and zeroes the counters. */
        public void resetContention() {
            try {
                Handles.CONTEND_RESET.invokeExact(address);
            } catch (Throwable t) {
                throw NativeCalls.rethrow(t);
            }
        }

        @Override
        public void close() {
            if (closed) return;
            closed = true;
            try {
                Handles.STATE_FREE.invokeExact(address);
            } catch (Throwable t) {
                throw NativeCalls.rethrow(t);
            }
        }
    }

    /** Allocates a {@link State} in C. */
    public static State newState() {
        requireLibrary();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ADDRESS);
            int rc = (int) Handles.STATE_NEW.invokeExact(out);
            if (rc != 0) throw new NativeException("cs_locks_state_new", "", rc);
            return new State(out.get(ADDRESS, 0));
        } catch (Throwable t) {
            throw NativeCalls.rethrow(t);
        }
    }

    /** A downcall to an empty C function: the FFM transition alone. */
    public static void emptyDowncall() {
        requireLibrary();
        try {
            Handles.EMPTY.invokeExact();
        } catch (Throwable t) {
            throw NativeCalls.rethrow(t);
        }
    }

    /** The same through {@code Linker.Option.critical(false)}: no thread-state transition. */
    public static void emptyDowncallCritical() {
        requireLibrary();
        try {
            Handles.EMPTY_CRITICAL.invokeExact();
        } catch (Throwable t) {
            throw NativeCalls.rethrow(t);
        }
    }

    /**
     * {@code local_irq_save()} without {@code cli}: {@code pushfq; pop}, the flags register's
     * value (a critical downcall: no thread-state transition).
     */
    public static long localIrqSave() {
        requireLibrary();
        try {
            return (long) Handles.IRQ_SAVE.invokeExact();
        } catch (Throwable t) {
            throw NativeCalls.rethrow(t);
        }
    }

    /** {@code local_irq_restore()}: {@code push; popfq} of a value from {@link #localIrqSave()} (critical downcall). */
    public static void localIrqRestore(long flags) {
        requireLibrary();
        try {
            Handles.IRQ_RESTORE.invokeExact(flags);
        } catch (Throwable t) {
            throw NativeCalls.rethrow(t);
        }
    }

    /** Whether the twins can read a TSC (x86). */
    public static boolean hasTsc() {
        requireLibrary();
        try {
            return (int) Handles.HAS_TSC.invokeExact() != 0;
        } catch (Throwable t) {
            throw NativeCalls.rethrow(t);
        }
    }

    /**
     * TSC cycles per microsecond (MHz) over {@code windowNs} of CLOCK_MONOTONIC, counted inside C
     * (0 without a TSC). Pin the thread first: TSCs of different CPUs need not agree.
     */
    public static double calibrateTscMhz(long windowNs) {
        requireLibrary();
        try {
            return (double) Handles.CALIBRATE.invokeExact(windowNs);
        } catch (Throwable t) {
            throw NativeCalls.rethrow(t);
        }
    }

    /**
     * The TSC rate the kernel logged at boot, read with {@code klogctl(SYSLOG_ACTION_READ_ALL)} as
     * dmesg does; {@link NativeException} (EPERM) where the log is closed to this user
     * ({@code kernel.dmesg_restrict=1} without CAP_SYSLOG).
     */
    public static KernelTscRate kernelTscRate() {
        requireLibrary();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment which = arena.allocate(JAVA_INT);
            long khz = (long) Handles.KERNEL_TSC_KHZ.invokeExact(which);
            if (khz < 0) throw new NativeException("klogctl", "SYSLOG_ACTION_READ_ALL", (int) -khz);
            String mhz = String.format(Locale.ROOT, "%d.%03d MHz", khz / 1000, khz % 1000);
            String line = switch (which.get(JAVA_INT, 0)) {
                case 1 -> "tsc: Refined TSC clocksource calibration: " + mhz;
                case 2 -> "tsc: Detected " + mhz + " processor";
                default -> "";
            };
            return new KernelTscRate(khz, line);
        } catch (Throwable t) {
            throw NativeCalls.rethrow(t);
        }
    }

    private static Batch batch(MemorySegment rec) {
        return new Batch(rec.get(JAVA_LONG, 0), rec.get(JAVA_LONG, 8), rec.get(JAVA_LONG, 16), rec.get(JAVA_LONG, 24) != 0);
    }

    private static void requireLibrary() {
        if (!NativeLibrary.available()) {
            throw new NativeUnavailableException(NativeLibrary.unavailableReason().orElse("libcorescope.so is not loaded"));
        }
    }

    /** Linked on first use, after {@link #requireLibrary()}: static finals, so the JIT inlines the calls. */
    private static final class Handles {
        static {
            requireLibrary();
        }

        static final MethodHandle STATE_NEW = NativeLibrary.downcall("cs_locks_state_new", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        static final MethodHandle STATE_FREE = NativeLibrary.downcall("cs_locks_state_free", FunctionDescriptor.ofVoid(ADDRESS));
        static final Map<Loop, MethodHandle> LOOPS = loops();
        static final MethodHandle CONTEND = NativeLibrary.downcall("cs_locks_contend",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG, ADDRESS));
        static final MethodHandle CONTEND_RESET = NativeLibrary.downcall("cs_locks_contend_reset", FunctionDescriptor.ofVoid(ADDRESS));
        static final MethodHandle EMPTY = NativeLibrary.downcall("cs_locks_empty", FunctionDescriptor.ofVoid());
        static final MethodHandle EMPTY_CRITICAL = NativeLibrary.downcall("cs_locks_empty", FunctionDescriptor.ofVoid(),
                Linker.Option.critical(false));
        static final MethodHandle IRQ_SAVE = NativeLibrary.downcall("cs_locks_local_irq_save", FunctionDescriptor.of(JAVA_LONG),
                Linker.Option.critical(false));
        static final MethodHandle IRQ_RESTORE = NativeLibrary.downcall("cs_locks_local_irq_restore", FunctionDescriptor.ofVoid(JAVA_LONG),
                Linker.Option.critical(false));
        static final MethodHandle HAS_TSC = NativeLibrary.downcall("cs_locks_has_tsc", FunctionDescriptor.of(JAVA_INT));
        static final MethodHandle CALIBRATE = NativeLibrary.downcall("cs_locks_calibrate_tsc_mhz",
                FunctionDescriptor.of(JAVA_DOUBLE, JAVA_LONG));
        static final MethodHandle KERNEL_TSC_KHZ = NativeLibrary.downcall("cs_locks_kernel_tsc_khz",
                FunctionDescriptor.of(JAVA_LONG, ADDRESS));

        private static Map<Loop, MethodHandle> loops() {
            Map<Loop, MethodHandle> m = new EnumMap<>(Loop.class);
            FunctionDescriptor d = FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS);
            for (Loop l : Loop.values()) m.put(l, NativeLibrary.downcall(l.symbol(), d));
            return m;
        }
    }
}
