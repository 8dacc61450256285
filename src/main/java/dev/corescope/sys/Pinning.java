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
 * <p>Nested pins must be closed innermost first, as try-with-resources does. Closing an outer
 * pin while an inner one is open is detected: the thread gets back the mask it had before the
 * outer pin (which is what closing it asks for), the inner pins are closed with it (their own
 * {@code close()} then does nothing), and {@code close()} throws an
 * {@link IllegalStateException} naming both, since the code that did it has a bug.
 *
 * <p>Virtual threads are refused with an {@link UnsupportedOperationException}: a virtual
 * thread runs on whichever carrier thread the scheduler gives it, so pinning it would pin that
 * carrier, and the mask would stay behind on the carrier (and on the other virtual threads it
 * runs) after the virtual thread moved on. Pin a platform thread instead, e.g. one made by
 * {@code affinity.PinningThreadFactory}.
 *
 * <p><b>Note:</b> not thread-safe; closing from another thread is refused, since affinity
 * belongs to the thread.
 *
 * @since 0.1.0
 */
public final class Pinning implements AutoCloseable {

    private Thread owner;
    private CpuMask previous;
    private CpuMask pinned;
    private final Consumer<CpuMask> restore;
    private boolean closed;
    /** Its thread's stack of open pins (null for {@link #of}, which has no order to keep). */
    private final Stack stack;
    /** Its place on the stack while open: the number of open pins made before it. */
    private int level;
    /** The reused kind: the saved mask, in native memory. */
    private final boolean reused;
    private MemorySegment saved;
    private long savedBytes;

    /** The kind {@link Affinity#pin} makes: the previous mask as a {@link CpuMask}, on the thread's stack. */
    Pinning(Thread owner, CpuMask previous, CpuMask pinned) {
        this(owner, previous, pinned, mask -> Affinity.set(0, mask), Stack.CURRENT.get());
    }

    private Pinning(Thread owner, CpuMask previous, CpuMask pinned, Consumer<CpuMask> restore, Stack stack) {
        this.owner = owner;
        this.previous = previous;
        this.pinned = pinned;
        this.restore = restore;
        this.reused = false;
        this.stack = stack;
        if (stack != null) stack.push(this);
    }

    private Pinning(Stack stack) {
        this.restore = null;
        this.stack = stack;
        this.reused = true;
        this.closed = true;
        // automatic arena by design: the buffer lives as long as the thread's stack
        this.saved = Arena.ofAuto().allocate(initialBytes(), 8);
    }

    /**
     * Refuses to pin a virtual thread (see the class comment).
     *
     * @throws UnsupportedOperationException when the calling thread is virtual
     */
    static void refuseVirtualThread() {
        Thread t = Thread.currentThread();
        if (t.isVirtual()) {
            throw new UnsupportedOperationException("cannot pin a virtual thread (" + describe(t) + "): it would pin"
                    + " the carrier thread it happens to run on, and the mask would stay on that carrier after it moves on;"
                    + " pin a platform thread instead (Thread.ofPlatform(), or affinity.PinningThreadFactory)");
        }
    }

    private static String describe(Thread t) {
        return t.getName().isEmpty() ? "#" + t.threadId() : t.getName();
    }

    /**
     * The calling thread pinned by an {@link Os} other than the live one: {@code restore} puts
     * {@code previous} back when the pinning is closed.
     */
    public static Pinning of(CpuMask previous, CpuMask pinned, Consumer<CpuMask> restore) {
        return new Pinning(Thread.currentThread(), previous, pinned, restore, null);
    }

    /**
     * Pins the calling thread to {@code cpus} like {@link Affinity#pin(CpuMask)}, allocating
     * nothing: the handle is this thread's, reused (see the class comment). CPUs outside
     * {@link Affinity#processAllowed()} are refused before anything changes.
     */
    public static Pinning pinReused(CpuMask cpus) {
        refuseVirtualThread();
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
        s.push(p);
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

    /**
     * Puts back the mask the thread had before this pin. Closing a closed pinning does nothing.
     *
     * @throws IllegalStateException when called on another thread than the one that pinned, or
     *         when a pin made after this one on the same thread is still open: then the thread has
     *         its mask from before this pin back all the same, and those later pins are closed
     */
    @Override
    public void close() {
        if (closed) return;
        if (Thread.currentThread() != owner) {
            throw new IllegalStateException("a Pinning must be closed on the thread that pinned (" + owner.getName() + ")");
        }
        String inner = stack == null ? null : stack.openAbove(this);
        closed = true;
        if (reused) restoreSaved(stack.callState);
        else restore.accept(previous);
        if (stack != null) stack.popTo(this);
        if (inner != null) {
            throw new IllegalStateException("pinnings closed out of order: the pin to CPUs " + pinned.toList()
                    + " was closed while " + inner + " made after it on this thread still open; the thread is back on"
                    + " its CPUs from before that pin, and the later pin is closed too (close nested pins innermost"
                    + " first, e.g. with try-with-resources)");
        }
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

    /**
     * A thread's open pins, innermost last, and its reused handles, one per nesting depth (a
     * reused handle at depth d is only ever open at depth d).
     */
    private static final class Stack {
        static final ThreadLocal<Stack> CURRENT = ThreadLocal.withInitial(Stack::new);

        // automatic arena by design: lives as long as the thread, freed by the GC after it
        final MemorySegment callState = Libc.callState(Arena.ofAuto());
        Pinning[] frames = new Pinning[4];
        Pinning[] open = new Pinning[4];
        int depth;

        /** The reused handle for the next depth. */
        Pinning next() {
            if (depth == frames.length) frames = Arrays.copyOf(frames, depth * 2);
            Pinning p = frames[depth];
            if (p == null) frames[depth] = p = new Pinning(this);
            return p;
        }

        void push(Pinning p) {
            if (depth == open.length) open = Arrays.copyOf(open, depth * 2);
            p.level = depth;
            open[depth++] = p;
        }

        /** The pins still open above {@code p} in words, or null when {@code p} is the innermost. */
        String openAbove(Pinning p) {
            if (p.level + 1 >= depth || open[p.level] != p) return null;
            int n = depth - p.level - 1;
            Pinning innermost = open[depth - 1];
            return (n == 1 ? "the pin to CPUs " : n + " pins (the innermost to CPUs ") + innermost.pinned.toList() + (n == 1 ? " was" : ") were");
        }

        /** Closes the pins above {@code p} (they are undone with it) and pops them and {@code p}. */
        void popTo(Pinning p) {
            if (p.level >= depth || open[p.level] != p) return;
            for (int i = depth - 1; i > p.level; i--) {
                open[i].closed = true;
                open[i] = null;
            }
            open[p.level] = null;
            depth = p.level;
        }
    }
}
