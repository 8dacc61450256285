package dev.corescope.affinity;

/**
 * A reservation that could not be made, or a reservation directory that cannot be used. The
 * message is one line that says why and what to do, e.g. {@code no free CPU among the allowed
 * set 0: CPU 0 is held by pid 4242 (this process)}.
 */
public final class ReservationException extends RuntimeException {

    /**
     * A refused reservation.
     *
     * @param message one line: what was asked, why it failed, what to do
     */
    public ReservationException(String message) {
        super(message);
    }

    /**
     * A refused reservation with its cause (an I/O error, an interrupt).
     *
     * @param message one line: what was asked, why it failed, what to do
     * @param cause what went wrong underneath
     */
    public ReservationException(String message, Throwable cause) {
        super(message, cause);
    }
}
