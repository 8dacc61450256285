package dev.corescope.bench.c2c;

import dev.corescope.sys.NativeException;
import dev.corescope.sys.NativeUnavailableException;
import dev.corescope.sys.tool.TwinLinker;
import dev.corescope.sys.internal.NativeCalls;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Optional;

/**
 * The C twin of {@code bench c2c} ({@code native/src/c2c.c}): core-to-core ping-pong with both
 * threads created and pinned inside C, so the figure has no JVM in it.
 */
public final class C2cTwins {

    private static final int NAME_BYTES = 64;

    private C2cTwins() {
    }

    /** Why the twin cannot run (no compiler at build time, or the symbol is missing), or empty. */
    public static Optional<String> unavailableReason() {
        return Optional.ofNullable(Holder.REASON);
    }

    /**
     * {@code cs_c2c_pingpong}: {@code samples} samples of {@code roundTrips} round trips of one
     * cache line between a thread on {@code pingCpu} and one on {@code pongCpu}.
     *
     * @return one-way latency in ns per sample (a sample's time / round trips / 2)
     * @throws NativeException            naming the pthread or sched call that failed and its errno
     * @throws NativeUnavailableException when the C twins were not built
     */
    public static double[] pingPong(int pingCpu, int pongCpu, int roundTrips, int samples) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ValueLayout.JAVA_DOUBLE, samples);
            MemorySegment failed = arena.allocate(NAME_BYTES);
            int rc = (int) TwinLinker.linked(Holder.PINGPONG, Holder.REASON).invokeExact(pingCpu, pongCpu, roundTrips, samples, out, failed, NAME_BYTES);
            if (rc != 0) {
                throw new NativeException(failed.getString(0), "ping=" + pingCpu + ", pong=" + pongCpu, rc);
            }
            return out.toArray(ValueLayout.JAVA_DOUBLE);
        } catch (Throwable t) {
            throw NativeCalls.rethrow(t);
        }
    }

    private static final class Holder {
        private static final TwinLinker LINKER = new TwinLinker();
        static final MethodHandle PINGPONG = LINKER.downcall("cs_c2c_pingpong", FunctionDescriptor.of(ValueLayout.JAVA_INT,
                ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT,
                ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
        static final String REASON = LINKER.failure();
    }
}
