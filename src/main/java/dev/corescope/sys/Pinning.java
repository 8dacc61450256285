package dev.corescope.sys;

import dev.corescope.cpumask.CpuMask;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * A thread pinned by {@link Affinity#pin} or {@link #pinReused}: {@link #close()} restores the
 * mask the thread had before. Use it in try-with-resources on the thread that pinned.
 *
 * <p>Two kinds. {@link Affinity#pin} makes a new handle holding the previous mask as a
 * {@link CpuMask}. {@link #pinReused} (what {@code affinity.ThreadAffinity.pin} uses) allocates
 * nothing: each thread keeps a small stack of handles, one per nesting depth, each with a
 * native buffer the previous mask is saved into by {@code sched_getaffinity} and restored from
 * by {@code sched_setaffinity}, byte for byte. Such a handle is handed out again by the
 * thread's next pin at the same depth once it is closed, so it must not be kept (or closed
 * again) after its {@code close()}.
 *
 * <p><b>Note:</b> not thread-safe; closing from another thread is refused, since affinity
 * belongs to the thread.
 */
public final class Pinning implements AutoCloseable {

    private Thread owner;
    private CpuMask previous;
    private CpuMask pinned;
    private final Consumer<CpuMask> restore;
    private boolean closed;
    /** The reused kind only: its thread's stack, and the saved mask. */
    private final Stack stack;
    private MemorySegment saved;
    private long savedBytes;

    Pinning(Thread owner, CpuMask previous, CpuMask pinned) {
        this(owner, previous, pinned, mask -> Affinity.set(0, mask));
    }

    private Pinning(Thread owner, CpuMask previous, CpuMask pinned, Consumer<CpuMask> restore) {
        this.owner = owner;
        this.previous = previous;
        this.pinned = pinned;
        this.restore = restore;
        this.stack = null;
    }

    private Pinning(Stack stack) {
        this.restore = null;
        this.stack = stack;
        this.closed = true;
        // automatic arena by design: the buffer lives as long as the thread's stack
        this.saved = Arena.ofAuto().allocate(initialBytes(), 8);
    }

    /**
     * The calling thread pinned by an {@link Os} other than the live one: {@code restore} puts
     * {@code previous} back when the pinning is closed.
     */
    public static Pinning of(CpuMask previous, CpuMask pinned, Consumer<CpuMask> restore) {
        return new Pinning(Thread.currentThread(), previous, pinned, restore);
    }

    /**
     * Pins the calling thread to {@code cpus} like {@link Affinity#pin(CpuMask)}, allocating
     * nothing: the handle is this thread's, reused (see the class comment). CPUs outside
     * {@link Affinity#processAllowed()} are refused before anything changes.
     */
    public static Pinning pinReused(CpuMask cpus) {
        if (cpus.isEmpty()) throw new IllegalArgumentException("cannot pin to an empty CPU set");
        CpuMask allowed = Affinity.processAllowed();
        if (!cpus.isSubsetOf(allowed)) throw new CpuNotAllowedException(cpus.andNot(allowed), allowed);
        Stack s = Stack.CURRENT.get();
        Pinning p = s.next();
        p.save(s.callState);
        Affinity.set(0, cpus);
        p.owner = Thread.currentThread();
        p.pinned = cpus;
        p.previous = null;
        p.closed = false;
        s.depth++;
        return p;
    }

    /** The mask the thread had before, put back by {@link #close()}. */
    public CpuMask previous() {
        if (previous == null && stack != null) previous = savedMask();
        return previous;
    }

    /** The CPUs the thread is pinned to. */
    public CpuMask pinned() {
        return pinned;
    }

    @Override
    public void close() {
        if (closed) return;
        if (Thread.currentThread() != owner) {
            throw new IllegalStateException("a Pinning must be closed on the thread that pinned (" + owner.getName() + ")");
        }
        closed = true;
        if (stack == null) {
            restore.accept(previous);
            return;
        }
        restoreSaved(stack.callState);
        stack.pop();
    }

    // ---- the reused kind ---------------------------------------------------------------

    private static long initialBytes() {
        return ((Math.max(Affinity.nrCpuIds(), 64) + 63) / 64) * 8L;
    }

    /** {@code sched_getaffinity(0)} into {@link #saved}, growing it on {@code EINVAL} as {@link Affinity#get} does. */
    private void save(MemorySegment callState) {
        long bytes = saved.byteSize();
        while (true) {
            int rc;
            try {
                rc = (int) Libc.SchedGetaffinity.HANDLE.invokeExact(callState, 0, bytes, saved);
            } catch (Throwable t) {
                throw NativeCalls.rethrow(t);
            }
            if (rc == 0) {
                savedBytes = bytes;  // glibc zeroes what the kernel did not write
                return;
            }
            int errno = Libc.errno(callState);
            if (errno == Errno.EINVAL.number() && bytes * 8 < Affinity.MAX_BITS) {
                bytes *= 2;
                saved = Arena.ofAuto().allocate(bytes, 8);
                continue;
            }
            throw new NativeException("sched_getaffinity", "pid=0, cpusetsize=" + bytes, errno);
        }
    }

    private void restoreSaved(MemorySegment callState) {
        int rc;
        try {
            rc = (int) Libc.SchedSetaffinity.HANDLE.invokeExact(callState, 0, savedBytes, saved);
        } catch (Throwable t) {
            throw NativeCalls.rethrow(t);
        }
        if (rc == -1) throw new NativeException("sched_setaffinity", "pid=0, restoring " + savedMask().toList(), Libc.errno(callState));
    }

    private CpuMask savedMask() {
        // as Affinity.get builds it, so the two kinds' previous() compare equal
        return Affinity.maskOf(saved, savedBytes);
    }

    /** A thread's reused handles, one per nesting depth; closed handles on top are popped. */
    private static final class Stack {
        static final ThreadLocal<Stack> CURRENT = ThreadLocal.withInitial(Stack::new);

        // automatic arena by design: lives as long as the thread, freed by the GC after it
        final MemorySegment callState = Libc.callState(Arena.ofAuto());
        Pinning[] frames = new Pinning[4];
        int depth;

        Pinning next() {
            if (depth == frames.length) frames = Arrays.copyOf(frames, depth * 2);
            Pinning p = frames[depth];
            if (p == null) frames[depth] = p = new Pinning(this);
            return p;
        }

        /** Drops the closed handles on top: a handle closed out of order is popped once those above it are. */
        void pop() {
            while (depth > 0 && frames[depth - 1].closed) depth--;
        }
    }
}
