package dev.corescope.affinity;

import java.time.Duration;
import java.util.function.Supplier;

/**
 * The timeout of the waiting {@code reserve} calls: try, sleep a little longer each time (1 ms
 * up to 50 ms), try again until the deadline; an interrupt ends the wait with the reason.
 */
final class Waiting {

    private Waiting() {
    }

    /**
     * Calls {@code tryOnce} until it returns a reservation or {@code timeout} has passed (once
     * for a zero timeout); {@code why} says what was held when it gives up.
     *
     * @throws IllegalArgumentException when {@code timeout} is negative
     * @throws ReservationException     after the timeout, or when the wait is interrupted (the interrupt is kept)
     */
    static Reservation until(Duration timeout, Supplier<Reservation> tryOnce, Supplier<String> why) {
        if (timeout.isNegative()) throw new IllegalArgumentException("a negative timeout: " + timeout);
        long deadline = System.nanoTime() + Math.min(timeout.toNanos(), Long.MAX_VALUE / 4);
        long sleepMillis = 1;
        while (true) {
            Reservation r = tryOnce.get();
            if (r != null) return r;
            long left = deadline - System.nanoTime();
            if (left <= 0) throw new ReservationException(timeout.isZero() ? why.get() : why.get() + " (after waiting " + timeout.toMillis() + " ms)");
            try {
                Thread.sleep(Math.min(sleepMillis, Math.max(1, left / 1_000_000)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ReservationException("interrupted while waiting for a reservation: " + why.get(), e);
            }
            sleepMillis = Math.min(50, sleepMillis * 2);
        }
    }
}
