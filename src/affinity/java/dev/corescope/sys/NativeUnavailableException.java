package dev.corescope.sys;

/**
 * A native library or one of its symbols is not there (a libc without a function the library
 * links, or the tool's C twins not built); the message says why.
 */
public final class NativeUnavailableException extends RuntimeException {
    /**
     * A missing library or symbol.
     *
     * @param reason one line: what is missing and, when known, how to get it
     */
    public NativeUnavailableException(String reason) {
        super(reason);
    }
}
