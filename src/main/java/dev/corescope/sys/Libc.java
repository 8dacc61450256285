package dev.corescope.sys;

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

/**
 * The hand-written layer over jextract's {@link LibC}: the generated {@code $address()} and
 * {@code $descriptor()} linked again with {@link Linker.Option#captureCallState} so errno is
 * read right after the call, before anything else in the JVM can overwrite it (jextract
 * cannot add that option itself). Each call that can fail goes through {@link #check}.
 *
 * <p>Call-state segments are allocated per call in the caller's confined arena; none is
 * shared between threads.
 */
final class Libc {

    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final Linker.Option CAPTURE_ERRNO = Linker.Option.captureCallState("errno");

    static final MethodHandle SCHED_GETAFFINITY = withErrno(LibC.sched_getaffinity$address(), LibC.sched_getaffinity$descriptor());
    static final MethodHandle SCHED_SETAFFINITY = withErrno(LibC.sched_setaffinity$address(), LibC.sched_setaffinity$descriptor());
    static final MethodHandle SCHED_GETCPU = withErrno(LibC.sched_getcpu$address(), LibC.sched_getcpu$descriptor());
    static final MethodHandle PTHREAD_SIGMASK = LINKER.downcallHandle(LibC.pthread_sigmask$address(), LibC.pthread_sigmask$descriptor());

    /**
     * {@code sched_getcpu} for hot loops: {@code critical(false)} skips the thread-state
     * transition; it never fails on Linux &ge; 2.6.19 with a vDSO, so no errno capture.
     */
    static final MethodHandle SCHED_GETCPU_CRITICAL = LINKER.downcallHandle(
            LibC.sched_getcpu$address(), LibC.sched_getcpu$descriptor(), Linker.Option.critical(false));

    private Libc() {
    }

    static MethodHandle withErrno(MemorySegment address, FunctionDescriptor descriptor) {
        return LINKER.downcallHandle(address, descriptor, CAPTURE_ERRNO);
    }

    /**
     * {@link #withErrno(MemorySegment, FunctionDescriptor)} for a variadic function such as
     * {@code syscall}: {@code firstVariadicArg} is the index of the first argument after the
     * {@code ...}, as jextract's {@code makeInvoker} would pass it.
     */
    static MethodHandle withErrnoVariadic(MemorySegment address, FunctionDescriptor descriptor, int firstVariadicArg) {
        return LINKER.downcallHandle(address, descriptor, CAPTURE_ERRNO, Linker.Option.firstVariadicArg(firstVariadicArg));
    }

    /** A call-state segment for one errno-capturing call. */
    static MemorySegment callState(Arena arena) {
        return arena.allocate(CALL_STATE);
    }

    static int errno(MemorySegment callState) {
        return (int) ERRNO.get(callState, 0L);
    }

    /** Throws a {@link NativeException} when {@code rc} is -1. */
    static long check(long rc, MemorySegment callState, String function, String arguments) {
        if (rc == -1) throw new NativeException(function, arguments, errno(callState));
        return rc;
    }

    static final ValueLayout.OfLong WORD = ValueLayout.JAVA_LONG;
}
