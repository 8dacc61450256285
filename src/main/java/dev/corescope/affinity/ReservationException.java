package dev.corescope.affinity;

/**
 * A reservation that could not be made, or a reservation directory that cannot be used. The
 * message is one line that says why and what to do, e.g. {@code no free CPU among the allowed
 * set 0: CPU 0 is held by pid 4242 (this process)}.
 */
public final class ReservationException extends RuntimeException {

    public ReservationException(String message) {
        super(message);
    }

    public ReservationException(String message, Throwable cause) {
        super(message, cause);
    }
}
