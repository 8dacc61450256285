package dev.corescope.sys;

/**
 * A native call that failed, with the function, the arguments that matter and the errno as
 * a value. The message reads {@code sched_setaffinity(pid=0, cpus=99) failed: EINVAL (22)}.
 */
public final class NativeException extends RuntimeException {

    private final String function;
    private final String arguments;
    private final Errno errno;
    private final int errnoNumber;

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

    /** The C function's name, e.g. {@code sched_setaffinity}. */
    public String function() {
        return function;
    }

    /** The arguments that matter, as written in the message, e.g. {@code pid=0, cpus=99}. */
    public String arguments() {
        return arguments;
    }

    public Errno errno() {
        return errno;
    }

    /** The raw errno number (kept even when {@link #errno()} is {@link Errno#UNKNOWN}). */
    public int errnoNumber() {
        return errnoNumber;
    }
}
