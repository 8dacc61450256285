package dev.corescope.bench.c2c;

import dev.corescope.sys.Errno;
import dev.corescope.sys.NativeException;
import dev.corescope.sys.internal.Affinity;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class C2cTwinsTest {

    @Test
    void pingPongBetweenTwoAllowedCpusGivesOneValuePerSample() {
        assumeTrue(C2cTwins.unavailableReason().isEmpty(), () -> "C twins not built: " + C2cTwins.unavailableReason().orElseThrow());
        var allowed = Affinity.processAllowed();
        assumeTrue(allowed.weight() >= 2, "needs 2 allowed CPUs, has " + allowed.toList());
        int a = allowed.first();
        int b = allowed.next(a);
        double[] oneWay = C2cTwins.pingPong(a, b, 100, 3);
        assertEquals(3, oneWay.length);
        for (double v : oneWay) assertTrue(v > 0, "sample " + v);
    }

    @Test
    void aCpuOutsideTheAllowedSetFailsNamingTheCallAndErrno() {
        assumeTrue(C2cTwins.unavailableReason().isEmpty(), () -> "C twins not built: " + C2cTwins.unavailableReason().orElseThrow());
        int outside = Affinity.nrCpuIds() + 7;
        NativeException e = assertThrows(NativeException.class,
                () -> C2cTwins.pingPong(Affinity.processAllowed().first(), outside, 10, 1));
        assertEquals(Errno.EINVAL, e.errno());
        assertTrue(e.getMessage().matches("pthread_\\w+\\(ping=\\d+, pong=\\d+\\) failed: EINVAL \\(22\\)"), e.getMessage());
    }

    /**
     * Issue 28: the twin's CPU sets are sized for the CPU (CPU_ALLOC); with a fixed cpu_set_t it
     * refused CPUs from 1024 up before asking the kernel (cs_c2c_pingpong EINVAL). Now a CPU
     * beyond 1024 reaches pthread_attr_setaffinity_np / pthread_create, which on a machine
     * without it fails there; on a machine with it, it runs.
     */
    @Test
    void aCpuBeyond1024ReachesTheKernelWithADynamicallySizedSet() {
        assumeTrue(C2cTwins.unavailableReason().isEmpty(), () -> "C twins not built: " + C2cTwins.unavailableReason().orElseThrow());
        var allowed = Affinity.processAllowed();
        int beyond = 1500;
        if (allowed.nbits() > beyond && allowed.test(beyond)) {
            assertEquals(1, C2cTwins.pingPong(allowed.first(), beyond, 10, 1).length);
            return;
        }
        NativeException e = assertThrows(NativeException.class, () -> C2cTwins.pingPong(allowed.first(), beyond, 10, 1));
        assertTrue(e.function().startsWith("pthread_"), "refused before the kernel saw it: " + e.getMessage());
    }

    @Test
    void nonsenseArgumentsAreRefusedBeforeAnyThreadStarts() {
        assumeTrue(C2cTwins.unavailableReason().isEmpty(), () -> "C twins not built: " + C2cTwins.unavailableReason().orElseThrow());
        NativeException e = assertThrows(NativeException.class, () -> C2cTwins.pingPong(0, 1, 0, 1));
        assertEquals("cs_c2c_pingpong", e.function());
    }
}
