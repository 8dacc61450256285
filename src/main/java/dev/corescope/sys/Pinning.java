package dev.corescope.sys;

import dev.corescope.cpumask.CpuMask;

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
    private boolean closed;

    Pinning(Thread owner, CpuMask previous, CpuMask pinned) {
        this.owner = owner;
        this.previous = previous;
        this.pinned = pinned;
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
        Affinity.set(0, previous);
    }
}
