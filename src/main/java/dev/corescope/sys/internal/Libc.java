package dev.corescope.sys.internal;

import dev.corescope.sys.NativeException;
import dev.corescope.sys.NativeUnavailableException;
import dev.corescope.sys.ffi.LibC;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.util.Optional;

/**
 * The hand-written layer over jextract's {@link LibC}: the generated {@code $address()} and
 * {@code $descriptor()} linked again with {@link Linker.Option#captureCallState} so errno is
 * read right after the call, before anything else in the JVM can overwrite it (jextract
 * cannot add that option itself). Each call that can fail goes through {@link #check}.
 *
 * <p><b>Start-up:</b> linking a downcall is the dearest thing a short command does (a
 * bytecode class spun per distinct shape, method-handle forms, a native stub: tens of
 * milliseconds, more than the whole JVM start of a hello-world), so the handles of the
 * affinity calls sit in one holder class each, linked on first use, and share shapes where
 * they can ({@code sched_getaffinity} and {@code sched_setaffinity} are one shape and reuse
 * one stub). They find their symbol by name ({@link #symbol}) rather than through
 * {@code LibC.xxx$address()}: that would initialise jextract's per-function class, which links
 * its own plain handle as well, a second stub for a call corescope never makes that way.
 * The descriptors are written here for the same reason; they match jextract's.
 *
 * <p>Call-state segments are allocated per call in the caller's confined arena; none is
 * shared between threads.
 */
public final class Libc {

    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final Linker.Option CAPTURE_ERRNO = Linker.Option.captureCallState("errno");

    /**
     * {@code int f(int, size_t, void *)}: {@code sched_getaffinity}, {@code sched_setaffinity};
     * {@code pin} links its other calls with it where that is exact ({@link PthreadSigmaskShared},
     * {@code close_range} in {@link Exec}), so the stub is spun once.
     */
    public static final FunctionDescriptor INT_INT_LONG_ADDRESS =
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS);
    /** {@code int f(void)}: {@code sched_getcpu}. */
    private static final FunctionDescriptor INT_VOID = FunctionDescriptor.of(ValueLayout.JAVA_INT);
    /** {@code int f(int, void *, void *)}: {@code pthread_sigmask}. */
    private static final FunctionDescriptor INT_INT_ADDRESS_ADDRESS =
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS);
    /** {@code unsigned long f(void)}: {@code pthread_self}. */
    private static final FunctionDescriptor LONG_VOID = FunctionDescriptor.of(ValueLayout.JAVA_LONG);

    /** {@code sched_getaffinity(pid, cpusetsize, mask)}, errno captured. */
    public static final class SchedGetaffinity {
        public static final MethodHandle HANDLE = withErrno(symbol("sched_getaffinity"), INT_INT_LONG_ADDRESS);
    }

    /** {@code sched_setaffinity(pid, cpusetsize, mask)}, errno captured: the same stub as {@link SchedGetaffinity}. */
    public static final class SchedSetaffinity {
        public static final MethodHandle HANDLE = withErrno(symbol("sched_setaffinity"), INT_INT_LONG_ADDRESS);
    }

    /** {@code sched_getcpu()}, errno captured. */
    public static final class SchedGetcpu {
        public static final MethodHandle HANDLE = withErrno(symbol("sched_getcpu"), INT_VOID);
    }

    /**
     * {@code sched_getcpu} for hot loops: {@code critical(false)} skips the thread-state
     * transition; it never fails on Linux &ge; 2.6.19 with a vDSO, so no errno capture.
     */
    public static final class SchedGetcpuCritical {
        public static final MethodHandle HANDLE = LINKER.downcallHandle(symbol("sched_getcpu"), INT_VOID, Linker.Option.critical(false));
    }

    /** {@code pthread_sigmask(how, set, oldset)}: returns the error number, so no errno capture. */
    public static final class PthreadSigmask {
        public static final MethodHandle HANDLE = LINKER.downcallHandle(symbol("pthread_sigmask"), INT_INT_ADDRESS_ADDRESS);
    }

    /**
     * {@code pthread_sigmask(how, set, oldset)} linked with the shape of {@link SchedGetaffinity}
     * ({@code int f(int, long, void *)}, errno captured), for {@code pin}'s start-up: one stub
     * fewer to spin. {@code set} is passed as its address: a pointer and a {@code long} travel
     * the same way (one 64-bit integer register) on every LP64 ABI the FFM linker supports, so
     * the call is exactly {@code pthread_sigmask}'s. It returns the error number; the captured
     * errno is not read.
     */
    public static final class PthreadSigmaskShared {
        public static final MethodHandle HANDLE = withErrno(symbol("pthread_sigmask"), INT_INT_LONG_ADDRESS);
    }

    /**
     * {@code pthread_self()}: cannot fail, so no errno capture; {@code critical(false)} since it
     * is one load. On x86-64 glibc its value is the thread pointer (the TCB is at {@code %fs:0}),
     * which {@link CurrentCpu} needs to find the thread's rseq area.
     */
    public static final class PthreadSelf {
        public static final MethodHandle HANDLE = LINKER.downcallHandle(symbol("pthread_self"), LONG_VOID, Linker.Option.critical(false));
    }

    /**
     * {@code long syscall(long nr, long a1, ..., long a5)}, errno captured: one downcall shape for
     * every raw call (pointers passed as their addresses), so a short command that makes several
     * kinds of call links one stub for them. {@link #SYS} holds the numbers.
     */
    private static final class Syscall {
        static final MethodHandle HANDLE = withErrnoVariadic(symbol("syscall"), FunctionDescriptor.of(ValueLayout.JAVA_LONG,
                ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG,
                ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG), 1);
    }

    /** The raw call {@code nr} with errno captured into {@code state}: -1 and errno on failure, as {@code syscall(2)}. */
    public static long syscall(MemorySegment state, long nr, long a1, long a2, long a3, long a4, long a5) {
        try {
            return (long) Syscall.HANDLE.invokeExact(state, nr, a1, a2, a3, a4, a5);
        } catch (Throwable t) {
            throw NativeCalls.rethrow(t);
        }
    }

    /** The syscall table of this architecture: 0 x86-64, 1 generic (aarch64, riscv64), 2 ppc64, 3 s390x, -1 unknown. */
    private static final int TABLE = switch (System.getProperty("os.arch", "")) {
        case "amd64", "x86_64" -> 0;
        case "aarch64", "riscv64" -> 1;
        case "ppc64", "ppc64le" -> 2;
        case "s390x" -> 3;
        default -> -1;
    };
    /** Whether the {@code SYS_} numbers below are known for this architecture. */
    public static final boolean SYS_KNOWN = TABLE >= 0;
    public static final long SYS_CLOSE = sys(3, 57, 6, 6);
    public static final long SYS_PREAD64 = sys(17, 67, 179, 180);
    public static final long SYS_OPENAT = sys(257, 56, 286, 288);
    public static final long SYS_GETDENTS64 = sys(217, 61, 202, 220);
    public static final long SYS_STATX = sys(332, 291, 383, 379);
    /** openat2 has one number on every architecture (the tables were unified from 424 on). */
    public static final long SYS_OPENAT2 = 437;

    private static long sys(long... byTable) {
        return TABLE < 0 ? -1 : byTable[TABLE];
    }

    private Libc() {
    }

    /**
     * The address of the libc (or {@code ld.so}) symbol {@code name}, looked up by name in the
     * linker's default lookup (libc and the libraries it depends on): for a function without
     * initialising jextract's class for it (see the class comment), and for data symbols jextract
     * does not bind, such as glibc's {@code __rseq_offset}.
     */
    public static Optional<MemorySegment> findSymbol(String name) {
        return LINKER.defaultLookup().find(name);
    }

    public static MemorySegment symbol(String name) {
        return findSymbol(name).orElseThrow(() -> new NativeUnavailableException("libc has no symbol " + name));
    }

    public static MethodHandle withErrno(MemorySegment address, FunctionDescriptor descriptor) {
        return LINKER.downcallHandle(address, descriptor, CAPTURE_ERRNO);
    }

    /**
     * {@link #withErrno(MemorySegment, FunctionDescriptor)} for a variadic function such as
     * {@code syscall}: {@code firstVariadicArg} is the index of the first argument after the
     * {@code ...}, as jextract's {@code makeInvoker} would pass it.
     */
    public static MethodHandle withErrnoVariadic(MemorySegment address, FunctionDescriptor descriptor, int firstVariadicArg) {
        return LINKER.downcallHandle(address, descriptor, CAPTURE_ERRNO, Linker.Option.firstVariadicArg(firstVariadicArg));
    }

    /** A call-state segment for one errno-capturing call. */
    public static MemorySegment callState(Arena arena) {
        return arena.allocate(CALL_STATE);
    }

    public static int errno(MemorySegment callState) {
        return (int) ERRNO.get(callState, 0L);
    }

    /** Throws a {@link NativeException} when {@code rc} is -1. */
    public static long check(long rc, MemorySegment callState, String function, String arguments) {
        if (rc == -1) throw new NativeException(function, arguments, errno(callState));
        return rc;
    }

    public static final ValueLayout.OfLong WORD = ValueLayout.JAVA_LONG;
}
