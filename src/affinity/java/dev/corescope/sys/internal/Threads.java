package dev.corescope.sys.internal;

import java.util.List;

/** Waiting for threads that must finish before their caller goes on. */
public final class Threads {

    private Threads() {
    }

    /**
     * Joins every thread through interrupts (threads using memory their caller frees right after):
     * whether the caller was interrupted meanwhile, its interrupt status left clear for it to handle.
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
