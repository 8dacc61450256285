package dev.corescope.sys.tool;

import dev.corescope.sys.NativeUnavailableException;
import java.lang.foreign.FunctionDescriptor;
import java.lang.invoke.MethodHandle;

/**
 * Links one {@code *Twins} class's downcalls into {@code libcorescope.so}, keeping the first
 * failure (no library, a missing symbol) as a reason instead of throwing it from the class's
 * static initializer, which would leave the class unusable. Its handles go into static finals,
 * so the JIT still treats them as constants.
 *
 * <p><b>Note:</b> for use inside one static initializer only; not thread-safe.
 */
public final class TwinLinker {

    private String failure;

    /** The handle, or null once any downcall of this linker has failed. */
    public MethodHandle downcall(String name, FunctionDescriptor descriptor) {
        if (failure != null) return null;
        try {
            return NativeLibrary.downcall(name, descriptor);
        } catch (NativeUnavailableException e) {
            failure = e.getMessage();
            return null;
        }
    }

    /** Why a downcall could not be linked, or null when all were. */
    public String failure() {
        return failure;
    }

    /** {@code handle}, or a {@link NativeUnavailableException} giving {@code failure} when it was not linked. */
    public static MethodHandle linked(MethodHandle handle, String failure) {
        if (handle == null) throw new NativeUnavailableException(failure);
        return handle;
    }
}
