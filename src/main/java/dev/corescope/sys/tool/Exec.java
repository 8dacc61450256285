package dev.corescope.sys.tool;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.sys.CpuNotAllowedException;
import dev.corescope.sys.NativeException;
import dev.corescope.sys.Pinning;
import dev.corescope.sys.internal.Affinity;
import dev.corescope.sys.internal.Libc;
import dev.corescope.sys.internal.NativeCalls;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.List;

/**
 * {@code execvp(3)} with a CPU affinity, as {@code taskset -c LIST COMMAND} does it: the calling
 * thread is pinned, and the process image is replaced by COMMAND, which keeps that thread's
 * affinity, its pid, its parent, its stdin/stdout/stderr and its place in the shell's job. So
 * every signal sent to the process reaches COMMAND itself, its exit status is the process's,
 * and nothing of the JVM stays behind (no thread dump on SIGQUIT, no second process).
 *
 * <p>Before the call, the thread's signal mask is emptied (HotSpot blocks SIGQUIT in every Java
 * thread, and a mask survives {@code execve}), and every file descriptor above 2 is marked
 * close-on-exec ({@code close_range(3, ~0U, CLOSE_RANGE_CLOEXEC)}, Linux 5.11;
 * where that is missing the JVM's own descriptors, mostly close-on-exec already, are left as
 * they are). Signal handlers reset to the default on {@code execve}; the JVM ignores none.
 *
 * <p><b>Start-up:</b> {@code pin} is a short command, and each distinct downcall shape costs it a
 * spun stub class and its method-handle forms (docs/performance.md). So {@code close_range} and
 * the signal mask ({@code rt_sigprocmask}) are raw calls through {@code Libc.syscall}, the
 * shape {@code pin} has linked already for its affinity; what is left to link is {@code execvp},
 * by name (nothing here touches jextract's {@code LibC}).
 */
public final class Exec {

    /** {@code int execvp(const char *file, char *const argv[])}. */
    private static final MethodHandle EXECVP = Libc.withErrno(Libc.symbol("execvp"),
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS));

    /** {@code CLOSE_RANGE_CLOEXEC} from {@code <linux/close_range.h>}. */
    private static final int CLOSE_RANGE_CLOEXEC = 1 << 2;

    /**
     * {@code SIG_SETMASK} of Linux's generic signal ABI (x86-64, arm64, riscv64), the value the
     * generated {@code LibC.SIG_SETMASK()} holds; written here so that {@code pin} does not
     * initialise {@code LibC} for one constant ({@code ExecTest} checks that they agree).
     */
    static final int SIG_SETMASK = 2;

    /** {@code sizeof(sigset_t)} in glibc (1024 bits); an all-zero set is the empty set. The kernel reads 64 bits of it. */
    static final long SIGSET_BYTES = 128;

    private Exec() {
    }

    /**
     * Replaces this process with {@code command} (looked up on {@code PATH} as a shell would),
     * its affinity set to {@code cpus}. Returns only when that failed, with the exception to
     * throw; the thread's mask and signal mask are then as they were.
     *
     * @throws CpuNotAllowedException when {@code cpus} is not within the allowed set (nothing was changed)
     */
    public static NativeException execPinned(CpuMask cpus, List<String> command) {
        if (command.isEmpty()) throw new IllegalArgumentException("no command");
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment file = arena.allocateFrom(command.getFirst());
            MemorySegment argv = arena.allocate(ValueLayout.ADDRESS, command.size() + 1L);
            for (int i = 0; i < command.size(); i++) argv.setAtIndex(ValueLayout.ADDRESS, i, arena.allocateFrom(command.get(i)));
            argv.setAtIndex(ValueLayout.ADDRESS, command.size(), MemorySegment.NULL);
            MemorySegment empty = arena.allocate(SIGSET_BYTES, 8); // zeroed: the empty set
            MemorySegment saved = arena.allocate(SIGSET_BYTES, 8);
            MemorySegment state = Libc.callState(arena);

            Pinning pinned = Affinity.pin(cpus);
            try {
                setMask(state, empty, saved);
                try {
                    closeOnExecAbove2(state);
                    int rc = (int) EXECVP.invokeExact(state, file, argv);
                    return new NativeException("execvp", "file=" + command.getFirst(), rc == -1 ? Libc.errno(state) : 0);
                } finally {
                    setMask(state, saved, MemorySegment.NULL);
                }
            } catch (Throwable t) {
                throw NativeCalls.rethrow(t);
            } finally {
                pinned.close();
            }
        }
    }

    private static void closeOnExecAbove2(MemorySegment state) {
        // best effort: ENOSYS (kernel before 5.9) or EINVAL (no CLOSE_RANGE_CLOEXEC) leave descriptors as they are
        Libc.syscall(state, Libc.SYS_CLOSE_RANGE, 3, 0xFFFF_FFFFL, CLOSE_RANGE_CLOEXEC, 0, 0);
    }

    /**
     * {@code rt_sigprocmask(SIG_SETMASK, set, old, 8)}: what {@code pthread_sigmask} calls, less
     * glibc's care not to block its two internal signals, which these sets (empty, or the mask
     * the kernel gave) never hold.
     */
    private static void setMask(MemorySegment state, MemorySegment set, MemorySegment old) {
        Libc.check(Libc.syscall(state, Libc.SYS_RT_SIGPROCMASK, SIG_SETMASK, set.address(), old.address(), 8, 0), state, "rt_sigprocmask", "how=SIG_SETMASK");
    }
}
