package dev.corescope.sys;

/** The C twins (or one of their symbols) are not there; the message says why. */
public final class NativeUnavailableException extends RuntimeException {
    public NativeUnavailableException(String reason) {
        super(reason);
    }
}
