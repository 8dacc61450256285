package dev.corescope.sys;

/**
 * A native call that failed, with the function, the arguments that matter and the errno as
 * a value. The message reads {@code sched_setaffinity(pid=0, cpus=99) failed: EINVAL (22)}.
 */
public final class NativeException extends RuntimeException {

    /** The C function. */
    private final String function;
    /** The arguments that matter. */
    private final String arguments;
    /** The errno as a constant. */
    private final Errno errno;
    /** The errno as the call left it. */
    private final int errnoNumber;

    /**
     * A failed call.
     *
     * @param function the C function's name, e.g. {@code sched_setaffinity}
     * @param arguments the arguments that matter, e.g. {@code pid=0, cpus=99} (not escaped: no text from outside)
     * @param errnoNumber the {@code errno} the call left
     */
    public NativeException(String function, String arguments, int errnoNumber) {
        super(message(function, arguments, errnoNumber));
        this.function = function;
        this.arguments = arguments;
        this.errno = Errno.of(errnoNumber);
        this.errnoNumber = errnoNumber;
    }

    /** The message of a failed call, also for a failure kept as a reason rather than thrown. */
    static String message(String function, String arguments, int errnoNumber) {
        return function + "(" + arguments + ") failed: " + Errno.of(errnoNumber).name() + " (" + errnoNumber + ")";
    }

    /** {@return the C function that failed: its name, e.g. {@code sched_setaffinity}} */
    public String function() {
        return function;
    }

    /** {@return the arguments that matter, as written in the message, e.g. {@code pid=0, cpus=99}} */
    public String arguments() {
        return arguments;
    }

    /**
     * {@return the error, to branch on without parsing the message ({@code e.errno() == Errno.EINVAL}): the
     * constant, {@link Errno#UNKNOWN} for a number the table does not have}
     */
    public Errno errno() {
        return errno;
    }

    /** {@return the raw number the call left in {@code errno} (kept even when {@link #errno()} is {@link Errno#UNKNOWN})} */
    public int errnoNumber() {
        return errnoNumber;
    }
}
