package dev.corescope.sys.internal;

/** Wraps a {@link Throwable} from {@code MethodHandle.invokeExact} into what callers expect. */
public final class NativeCalls {

    private NativeCalls() {
    }

    public static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) return r;
        if (t instanceof Error e) throw e;
        return new IllegalStateException("native call failed unexpectedly", t);
    }
}
