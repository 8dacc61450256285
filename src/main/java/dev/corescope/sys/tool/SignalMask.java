package dev.corescope.sys.tool;

import dev.corescope.sys.NativeException;
import dev.corescope.sys.ffi.LibC;
import dev.corescope.sys.ffi.sigset_t;
import dev.corescope.sys.internal.Libc;
import dev.corescope.sys.internal.NativeCalls;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

/**
 * The calling thread's signal mask through {@code pthread_sigmask}: userspace's stand-in for
 * {@code local_irq_save()}/{@code local_irq_restore()} in {@code bench locks}. Signals are to a
 * thread what interrupts are to a CPU, and blocking them is the closest thing a thread can do to
 * {@code cli}; but here it is a system call ({@code rt_sigprocmask}), not an instruction.
 *
 * <p>The blocked set is every signal except the synchronous ones ({@link #UNBLOCKED}): as
 * {@code cli} leaves exceptions enabled, blocking them changes nothing (the kernel delivers a
 * fault-raised SIGSEGV even when blocked, after resetting its handler to the default, which kills
 * the process) and in a JVM that is fatal, since HotSpot's implicit null checks and safepoint
 * polls raise SIGSEGV. glibc also keeps its own SIGCANCEL and SIGSETXID out of any mask.
 *
 * <p>{@code pthread_sigmask} returns the error number instead of setting errno, so failures are
 * read from the return value.
 *
 * <p><b>Note:</b> a signal mask belongs to a thread. An instance is confined to the thread that
 * opened it (its saved mask is that thread's), and must be closed there.
 */
public final class SignalMask implements AutoCloseable {

    /** Left unblocked: SIGILL, SIGTRAP, SIGBUS, SIGFPE, SIGSEGV (x86-64/arm64 numbers). */
    public static final List<Integer> UNBLOCKED = List.of(4, 5, 7, 8, 11);

    private static final int BITS_PER_WORD = 64;

    private final Arena arena;
    private final MemorySegment blockable;
    private final MemorySegment saved;

    private SignalMask(Arena arena, MemorySegment blockable, MemorySegment saved) {
        this.arena = arena;
        this.blockable = blockable;
        this.saved = saved;
    }

    /** Allocates the two sets (what to block, and room for the saved mask) for the calling thread. */
    public static SignalMask open() {
        Arena arena = Arena.ofConfined();
        try {
            MemorySegment blockable = sigset_t.allocate(arena);
            MemorySegment saved = sigset_t.allocate(arena);
            // sigfillset's only failure is EINVAL for a NULL set, which this cannot pass.
            LibC.sigfillset(blockable);
            // glibc's sigset_t is the kernel's bitmap (signal n is bit n-1 of unsigned long words);
            // sigdelset is not in the generated bindings, so the bits are cleared here.
            for (int signo : UNBLOCKED) clear(blockable, signo);
            return new SignalMask(arena, blockable, saved);
        } catch (RuntimeException e) {
            arena.close();
            throw e;
        }
    }

    /** Keeps the current mask for {@link #restore()} without changing it. */
    public void save() {
        call(LibC.SIG_BLOCK(), MemorySegment.NULL, saved, "how=SIG_BLOCK, set=NULL, oldset=saved");
    }

    /** {@code local_irq_save(flags)}: blocks the set and keeps the old mask. */
    public void blockSaving() {
        call(LibC.SIG_BLOCK(), blockable, saved, "how=SIG_BLOCK, set=all-but-synchronous, oldset=saved");
    }

    /** {@code local_irq_restore(flags)}: puts back the mask {@link #blockSaving()} or {@link #save()} kept. */
    public void restore() {
        call(LibC.SIG_SETMASK(), saved, MemorySegment.NULL, "how=SIG_SETMASK, set=saved");
    }

    /** {@code local_irq_disable()}: blocks the set without keeping the old mask. */
    public void block() {
        call(LibC.SIG_BLOCK(), blockable, MemorySegment.NULL, "how=SIG_BLOCK, set=all-but-synchronous");
    }

    /**
     * {@code local_irq_enable()}: unblocks the whole set, whatever was blocked before (as
     * {@code sti} sets IF whatever it was).
     */
    public void unblock() {
        call(LibC.SIG_UNBLOCK(), blockable, MemorySegment.NULL, "how=SIG_UNBLOCK, set=all-but-synchronous");
    }

    @Override
    public void close() {
        arena.close();
    }

    private static void call(int how, MemorySegment set, MemorySegment old, String arguments) {
        int rc;
        try {
            rc = (int) Libc.PthreadSigmask.HANDLE.invokeExact(how, set, old);
        } catch (Throwable t) {
            throw NativeCalls.rethrow(t);
        }
        if (rc != 0) throw new NativeException("pthread_sigmask", arguments, rc);
    }

    private static void clear(MemorySegment set, int signo) {
        long offset = (long) ((signo - 1) / BITS_PER_WORD) * Long.BYTES;
        long word = set.get(ValueLayout.JAVA_LONG, offset);
        set.set(ValueLayout.JAVA_LONG, offset, word & ~(1L << ((signo - 1) % BITS_PER_WORD)));
    }
}
