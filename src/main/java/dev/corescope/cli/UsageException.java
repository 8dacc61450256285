package dev.corescope.cli;

/**
 * Bad usage or bad input: exit code 2, and the message is the one line printed after
 * {@code corescope: }, naming the value and why, e.g. {@code --cpus 99: CPU 99 is not in the allowed set 0-1}.
 */
public final class UsageException extends IllegalArgumentException {
    public UsageException(String message) {
        super(message);
    }
}
