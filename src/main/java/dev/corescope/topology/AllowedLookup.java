package dev.corescope.topology;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.sys.internal.Os;
import dev.corescope.sys.internal.Threads;

/**
 * {@code Os.live().processAllowed()} on a thread of its own, joined when the model is assembled:
 * sched_getaffinity through FFM links its downcalls on first use, tens of milliseconds that
 * overlap with reading sysfs rather than add to it.
 */
final class AllowedLookup implements Runnable {
    private final Thread thread;
    private CpuMask result;
    private Throwable failure;

    private AllowedLookup() {
        thread = new Thread(this, "corescope-affinity");
        thread.setDaemon(true);
    }

    static AllowedLookup start() {
        AllowedLookup a = new AllowedLookup();
        a.thread.start();
        return a;
    }

    @Override
    public void run() {
        try {
            result = Os.live().processAllowed();
        } catch (Throwable t) {
            failure = t;
        }
    }

    CpuMask join() {
        if (Threads.joinIgnoringInterrupts(thread)) Thread.currentThread().interrupt();
        if (failure instanceof RuntimeException e) throw e;
        if (failure instanceof Error e) throw e;
        if (failure != null) throw new IllegalStateException(failure);
        return result;
    }
}
