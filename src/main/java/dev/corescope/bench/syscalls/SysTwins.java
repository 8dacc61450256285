package dev.corescope.bench.syscalls;

import dev.corescope.sys.NativeException;
import dev.corescope.sys.tool.TwinLinker;
import dev.corescope.sys.internal.Affinity;
import dev.corescope.sys.internal.NativeCalls;
import dev.corescope.sys.internal.Os;
import java.lang.foreign.FunctionDescriptor;
import java.lang.invoke.MethodHandle;
import java.util.Optional;

import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The C twins of {@link Affinity}'s calls ({@code native/src/sys.c}): {@code n} calls of
 * {@code sched_getcpu}, {@code sched_getaffinity} or {@code sched_setaffinity} in a C loop
 * timed with {@code clock_gettime}, for {@code SyscallBenchmark}'s "C" rows. Each method
 * returns the C-measured nanoseconds per call; one downcall runs the whole loop.
 *
 * <p>The affinity loops act on the calling thread with the cpuset size {@link Affinity}
 * uses ({@code nr_cpu_ids} rounded up to whole {@code long}s), so both sides make the same
 * system call. The loops are ordinary (not {@code critical}) downcalls: they may run for
 * milliseconds, and a critical call would hold off safepoints for that long.
 */
public final class SysTwins {

    private SysTwins() {
    }

    /** Whether the C twins are there; if not, {@link #unavailableReason()} says why. */
    public static boolean available() {
        return Handles.REASON == null;
    }

    public static Optional<String> unavailableReason() {
        return Optional.ofNullable(Handles.REASON);
    }

    /** {@code n} calls of {@code sched_getcpu()} in C: ns per call. */
    public static double getcpuLoop(long n) {
        try {
            return (double) linked(Handles.GETCPU).invokeExact(n);
        } catch (Throwable t) {
            throw NativeCalls.rethrow(t);
        }
    }

    /**
     * {@code n} calls of {@code sched_getcpu()} in C with no clock read in C: for a caller that
     * times the downcall itself, so the C loop's clock reads stay out of its window.
     *
     * @return the sum of the CPUs the calls returned
     */
    public static long getcpuCalls(long n) {
        try {
            return (long) linked(Handles.GETCPU_CALLS).invokeExact(n);
        } catch (Throwable t) {
            throw NativeCalls.rethrow(t);
        }
    }

    /** {@code n} calls of {@code sched_getaffinity(0, ...)} in C: ns per call. */
    public static double getaffinityLoop(long n) {
        long bytes = cpusetBytes();
        try {
            return checked((double) linked(Handles.GETAFFINITY).invokeExact(n, bytes), "sched_getaffinity", bytes);
        } catch (Throwable t) {
            throw NativeCalls.rethrow(t);
        }
    }

    /** {@code n} calls of {@code sched_setaffinity(0, ...)} to the thread's own mask, in C: ns per call. */
    public static double setaffinityLoop(long n) {
        long bytes = cpusetBytes();
        try {
            return checked((double) linked(Handles.SETAFFINITY).invokeExact(n, bytes), "sched_setaffinity", bytes);
        } catch (Throwable t) {
            throw NativeCalls.rethrow(t);
        }
    }

    /**
     * The cpuset size {@link Affinity#get} and {@link Affinity#set} pass for a mask of
     * {@code nr_cpu_ids} bits ({@code nr_cpu_ids} asked of the OS seam, {@link Os#live()}: the
     * C loop runs on this machine).
     */
    static long cpusetBytes() {
        return (long) (Os.live().nrCpuIds() + 63) / 64 * 8;
    }

    private static double checked(double result, String function, long bytes) {
        if (result < 0) throw new NativeException(function, "pid=0, cpusetsize=" + bytes + " (C twin loop)", (int) -result);
        return result;
    }

    private static MethodHandle linked(MethodHandle h) {
        return TwinLinker.linked(h, Handles.REASON);
    }

    private static final class Handles {
        private static final TwinLinker LINKER = new TwinLinker();
        static final MethodHandle GETCPU = LINKER.downcall("cs_sys_getcpu_loop", FunctionDescriptor.of(JAVA_DOUBLE, JAVA_LONG));
        static final MethodHandle GETCPU_CALLS = LINKER.downcall("cs_sys_getcpu_calls", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG));
        static final MethodHandle GETAFFINITY = LINKER.downcall("cs_sys_getaffinity_loop",
                FunctionDescriptor.of(JAVA_DOUBLE, JAVA_LONG, JAVA_LONG));
        static final MethodHandle SETAFFINITY = LINKER.downcall("cs_sys_setaffinity_loop",
                FunctionDescriptor.of(JAVA_DOUBLE, JAVA_LONG, JAVA_LONG));
        static final String REASON = LINKER.failure();
    }
}
