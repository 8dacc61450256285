package dev.corescope.sys;

import dev.corescope.cpumask.CpuMask;

import java.util.function.Consumer;

/**
 * A thread pinned by {@link Affinity#pin}: {@link #close()} restores the mask the thread had
 * before. Use it in try-with-resources on the thread that pinned.
 *
 * <p><b>Note:</b> not thread-safe; closing from another thread is refused, since affinity
 * belongs to the thread.
 */
public final class Pinning implements AutoCloseable {

    private final Thread owner;
    private final CpuMask previous;
    private final CpuMask pinned;
    private final Consumer<CpuMask> restore;
    private boolean closed;

    Pinning(Thread owner, CpuMask previous, CpuMask pinned) {
        this(owner, previous, pinned, mask -> Affinity.set(0, mask));
    }

    private Pinning(Thread owner, CpuMask previous, CpuMask pinned, Consumer<CpuMask> restore) {
        this.owner = owner;
        this.previous = previous;
        this.pinned = pinned;
        this.restore = restore;
    }

    /**
     * The calling thread pinned by an {@link Os} other than the live one: {@code restore} puts
     * {@code previous} back when the pinning is closed.
     */
    public static Pinning of(CpuMask previous, CpuMask pinned, Consumer<CpuMask> restore) {
        return new Pinning(Thread.currentThread(), previous, pinned, restore);
    }

    /** The mask the thread had before, put back by {@link #close()}. */
    public CpuMask previous() {
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
        restore.accept(previous);
    }
}
