package dev.corescope.sys.internal;

import java.util.List;

/** Waiting for threads that must finish before their caller goes on. */
public final class Threads {

    private Threads() {
    }

    /**
     * Joins every thread, waiting on through interrupts: for threads that use memory or state
     * their caller frees right after (an arena, a C struct), and that return by themselves soon.
     *
     * @return whether the calling thread was interrupted meanwhile; its interrupt status is
     *         left clear, for the caller to re-assert or turn into an exception
     */
    public static boolean joinIgnoringInterrupts(List<Thread> threads) {
        boolean interrupted = false;
        for (Thread t : threads) {
            while (true) {
                try {
                    t.join();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        return interrupted;
    }

    /** {@link #joinIgnoringInterrupts(List)} of one thread. */
    public static boolean joinIgnoringInterrupts(Thread thread) {
        return joinIgnoringInterrupts(List.of(thread));
    }
}
