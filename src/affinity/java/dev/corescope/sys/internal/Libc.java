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
 * read right after the call (jextract cannot add that option itself). The calls a short command
 * makes go through one downcall shape, the raw {@link #syscall}, and handles find their symbol
 * by name ({@link #symbol}), not through jextract's classes: linking is the dearest thing a short
 * command does (docs/performance.md, "One shape"). No call-state segment is shared between threads.
 */
public final class Libc {

    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final Linker.Option CAPTURE_ERRNO = Linker.Option.captureCallState("errno");

    /**
     * {@code sched_getcpu} for hot loops: {@code critical(false)} skips the thread-state
     * transition; it never fails on Linux &ge; 2.6.19 with a vDSO, so no errno capture.
     */
    public static final class SchedGetcpuCritical {
        public static final MethodHandle HANDLE = LINKER.downcallHandle(symbol("sched_getcpu"), FunctionDescriptor.of(ValueLayout.JAVA_INT),
                Linker.Option.critical(false));
    }

    /** {@code pthread_sigmask(how, set, oldset)}: returns the error number, so no errno capture. */
    public static final class PthreadSigmask {
        public static final MethodHandle HANDLE = LINKER.downcallHandle(symbol("pthread_sigmask"),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS));
    }

    /**
     * {@code pthread_self()}: cannot fail, so no errno capture; {@code critical(false)} since it
     * is one load. On x86-64 glibc its value is the thread pointer (the TCB is at {@code %fs:0}),
     * which {@link CurrentCpu} needs to find the thread's rseq area.
     */
    public static final class PthreadSelf {
        public static final MethodHandle HANDLE = LINKER.downcallHandle(symbol("pthread_self"), FunctionDescriptor.of(ValueLayout.JAVA_LONG),
                Linker.Option.critical(false));
    }

    /**
     * {@code long syscall(long nr, long a1, ..., long a6)}, errno captured: one downcall shape for
     * every raw call (pointers passed as their addresses), so a short command that makes several
     * kinds of call links one stub for them; the {@code SYS_} constants below hold the numbers.
     */
    private static final class Syscall {
        static final MethodHandle HANDLE = syscallShaped(symbol("syscall"));
    }

    /** {@code function} linked with {@link #syscall}'s shape and options, so it shares that stub ({@link Cpuid}'s page). */
    static MethodHandle syscallShaped(MemorySegment function) {
        return withErrnoVariadic(function, FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG,
                ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG), 1);
    }

    /** The raw call {@code nr} with errno captured into {@code state}: -1 and errno on failure, as {@code syscall(2)}. */
    public static long syscall(MemorySegment state, long nr, long a1, long a2, long a3, long a4, long a5) {
        return syscall(state, nr, a1, a2, a3, a4, a5, 0);
    }

    /** {@link #syscall(MemorySegment, long, long, long, long, long, long)} with a sixth argument ({@code mmap}'s offset). */
    public static long syscall(MemorySegment state, long nr, long a1, long a2, long a3, long a4, long a5, long a6) {
        try {
            return (long) Syscall.HANDLE.invokeExact(state, nr, a1, a2, a3, a4, a5, a6);
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
    public static final long SYS_FLOCK = sys(73, 32, 143, 143);
    public static final long SYS_FCHMOD = sys(91, 52, 94, 94);
    public static final long SYS_RT_SIGPROCMASK = sys(14, 135, 174, 175);
    public static final long SYS_SCHED_SETAFFINITY = sys(203, 122, 222, 239);
    public static final long SYS_SCHED_GETAFFINITY = sys(204, 123, 223, 240);
    public static final long SYS_GETPID = sys(39, 172, 20, 20);
    /** {@code O_DIRECTORY} and {@code O_NOFOLLOW}: arm, arm64 and powerpc have their own values. */
    public static final int O_DIRECTORY, O_NOFOLLOW;
    static {
        boolean arm = switch (System.getProperty("os.arch", "")) {
            case "aarch64", "arm", "ppc64", "ppc64le" -> true;
            default -> false;
        };
        O_DIRECTORY = arm ? 040000 : 0200000;
        O_NOFOLLOW = arm ? 0100000 : 0400000;
    }
    public static final int O_CLOEXEC = 02000000;
    public static final int O_NONBLOCK = 04000;
    /** close_range (Linux 5.9) has one number on every architecture. */
    public static final long SYS_CLOSE_RANGE = 436;
    /** openat2 has one number on every architecture (the tables were unified from 424 on). */
    public static final long SYS_OPENAT2 = 437;

    private static long sys(long... byTable) {
        return TABLE < 0 ? -1 : byTable[TABLE];
    }

    /**
     * {@code sched_getaffinity(pid, bytes, set)} as glibc's wrapper: 0, with the bytes the kernel
     * did not write zeroed; -1 and errno in {@code state} on failure.
     */
    public static int schedGetaffinity(MemorySegment state, int pid, long bytes, MemorySegment set) {
        long rc = syscall(state, SYS_SCHED_GETAFFINITY, pid, bytes, set.address(), 0, 0);
        if (rc < 0) return -1;
        for (long i = rc; i < bytes; i++) set.set(ValueLayout.JAVA_BYTE, i, (byte) 0);
        return 0;
    }

    /** {@code sched_setaffinity(pid, bytes, set)}: 0, or -1 and errno in {@code state}. */
    public static int schedSetaffinity(MemorySegment state, int pid, long bytes, MemorySegment set) {
        return (int) syscall(state, SYS_SCHED_SETAFFINITY, pid, bytes, set.address(), 0, 0);
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
