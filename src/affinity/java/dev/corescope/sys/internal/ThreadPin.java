package dev.corescope.sys.internal;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.sys.Errno;
import dev.corescope.sys.NativeException;
import dev.corescope.sys.Pinning;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * The library's {@link Pinning} (what closing does, in which order: see {@link Pinning}). Two kinds:
 * {@link Affinity#pin} makes a new handle holding the previous mask as a {@link CpuMask};
 * {@link #pinReused} ({@code ThreadAffinity.pin}) allocates nothing: each thread keeps a stack of
 * handles, one per nesting depth, each saving the previous mask in a native buffer, handed out
 * again once closed. {@link #of} wraps a pin made by an {@link Os} other than the live one.
 */
public final class ThreadPin implements Pinning {

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
    ThreadPin(Thread owner, CpuMask previous, CpuMask pinned) {
        this(owner, previous, pinned, mask -> Affinity.set(0, mask), Stack.CURRENT.get());
    }

    private ThreadPin(Thread owner, CpuMask previous, CpuMask pinned, Consumer<CpuMask> restore, Stack stack) {
        this.owner = owner;
        this.previous = previous;
        this.pinned = pinned;
        this.restore = restore;
        this.reused = false;
        this.stack = stack;
        if (stack != null) stack.push(this);
    }

    private ThreadPin(Stack stack) {
        this.restore = null;
        this.stack = stack;
        this.reused = true;
        this.closed = true;
        // automatic arena by design: the buffer lives as long as the thread's stack
        this.saved = Arena.ofAuto().allocate(initialBytes(), 8);
    }

    /** Throws {@link UnsupportedOperationException} when the calling thread is virtual. */
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
        return new ThreadPin(Thread.currentThread(), previous, pinned, restore, null);
    }

    /** {@link Affinity#pin(CpuMask)}, allocating nothing: the handle is this thread's, reused (see the class comment). */
    public static Pinning pinReused(CpuMask cpus) {
        Affinity.checkPin(cpus);
        Stack s = Stack.CURRENT.get();
        ThreadPin p = s.next();
        p.save(s.callState);
        Affinity.set(0, cpus);
        p.owner = Thread.currentThread();
        p.pinned = cpus;
        p.previous = null;
        p.closed = false;
        s.push(p);
        return p;
    }

    @Override
    public CpuMask previous() {
        if (previous == null && stack != null) previous = savedMask();
        return previous;
    }

    @Override
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
        if (stack != null && stack.hasLaterOpen(this)) {
            stack.removeEarlier(this);
            return;
        }
        if (reused) restoreSaved(stack.callState);
        else restore.accept(previous);
        if (stack != null) stack.removeLatest(this);
    }

    // ---- the reused kind ---------------------------------------------------------------

    private static long initialBytes() {
        return ((Math.max(Affinity.nrCpuIds(), 64) + 63) / 64) * 8L;
    }

    /** {@code sched_getaffinity(0)} into {@link #saved}, growing it on {@code EINVAL} as {@link Affinity#get} does. */
    private void save(MemorySegment callState) {
        long bytes = saved.byteSize();
        while (true) {
            if (Libc.schedGetaffinity(callState, 0, bytes, saved) == 0) {
                savedBytes = bytes;
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
        if (Libc.schedSetaffinity(callState, 0, savedBytes, saved) == -1) throw new NativeException("sched_setaffinity", "pid=0, restoring " + savedMask().toList(), Libc.errno(callState));
    }

    /**
     * Takes over the mask {@code earlier} would have put back (it is being closed while this
     * pin, made after it, is open), so this pin's close restores that one instead of the mask
     * it saved, which was {@code earlier}'s own CPUs.
     */
    private void inheritPrevious(ThreadPin earlier) {
        if (!reused) {
            previous = earlier.previous();
            return;
        }
        if (earlier.reused) {
            if (saved.byteSize() < earlier.savedBytes) saved = Arena.ofAuto().allocate(earlier.savedBytes, 8);
            MemorySegment.copy(earlier.saved, 0, saved, 0, earlier.savedBytes);
            savedBytes = earlier.savedBytes;
            previous = earlier.previous;
        } else {
            CpuMask m = earlier.previous;
            int words = Math.max(1, m.wordCount());
            long bytes = (long) words * 8;
            if (saved.byteSize() < bytes) saved = Arena.ofAuto().allocate(bytes, 8);
            saved.fill((byte) 0);
            for (int i = 0; i < words; i++) saved.setAtIndex(Libc.WORD, i, m.word(i));
            savedBytes = bytes;
            previous = m;
        }
    }

    private CpuMask savedMask() {
        // as Affinity.get builds it, so the two kinds' previous() compare equal
        return Affinity.maskOf(saved, savedBytes);
    }

    /** A thread's open pins, in the order they were made, and its reused handles. */
    private static final class Stack {
        static final ThreadLocal<Stack> CURRENT = ThreadLocal.withInitial(Stack::new);

        // automatic arena by design: lives as long as the thread, freed by the GC after it
        final MemorySegment callState = Libc.callState(Arena.ofAuto());
        ThreadPin[] frames = new ThreadPin[4];
        ThreadPin[] open = new ThreadPin[4];
        int depth;

        /** A closed reused handle (there are never more open ones than pins open). */
        ThreadPin next() {
            for (int i = 0; i < frames.length; i++) {
                ThreadPin p = frames[i];
                if (p == null) return frames[i] = new ThreadPin(this);
                if (p.closed) return p;
            }
            int n = frames.length;
            frames = Arrays.copyOf(frames, n * 2);
            return frames[n] = new ThreadPin(this);
        }

        void push(ThreadPin p) {
            if (depth == open.length) open = Arrays.copyOf(open, depth * 2);
            p.level = depth;
            open[depth++] = p;
        }

        private boolean onStack(ThreadPin p) {
            return p.level < depth && open[p.level] == p;
        }

        /** Whether a pin made after {@code p} is still open. */
        boolean hasLaterOpen(ThreadPin p) {
            return onStack(p) && p.level < depth - 1;
        }

        /** {@code p} is the latest: pop it. */
        void removeLatest(ThreadPin p) {
            if (!onStack(p)) return;
            open[--depth] = null;
        }

        /** {@code p} is closed before a later pin: the next one takes over its saved mask. */
        void removeEarlier(ThreadPin p) {
            int i = p.level;
            open[i + 1].inheritPrevious(p);
            for (int j = i; j < depth - 1; j++) {
                open[j] = open[j + 1];
                open[j].level = j;
            }
            open[--depth] = null;
        }
    }
}
