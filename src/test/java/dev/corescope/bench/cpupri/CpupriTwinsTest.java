package dev.corescope.bench.cpupri;

import dev.corescope.sys.Affinity;
import dev.corescope.sys.Errno;
import dev.corescope.sys.NativeException;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class CpupriTwinsTest {

    /** The packed layout: count at 16p, the mask pointer at 16p + 8, 1624 bytes. */
    private static long[] packed(int plus) {
        long[] o = new long[101];
        for (int p = 0; p < o.length; p++) o[p] = 16L * p + plus;
        return o;
    }

    @Test
    void bothWorkloadsGiveOneFigurePerSampleForEachSide() {
        assumeTrue(CpupriTwins.unavailableReason().isEmpty(), () -> "C twins not built: " + CpupriTwins.unavailableReason().orElseThrow());
        var allowed = Affinity.processAllowed();
        assumeTrue(allowed.weight() >= 2, "needs 2 allowed CPUs, has " + allowed.toList());
        int a = allowed.first();
        int b = allowed.next(a);
        for (boolean mechanism : new boolean[]{true, false}) {
            var s = CpupriTwins.run(mechanism, a, b, packed(0), packed(8), 1624, 64, Affinity.nrCpuIds(), 2, 5);
            assertEquals(2, s.readerNs().length);
            for (int i = 0; i < 2; i++) {
                assertTrue(s.readerNs()[i] > 0 && s.writerNs()[i] > 0, "sample " + i);
            }
        }
    }

    @Test
    void aCpuOutsideTheAllowedSetFailsNamingTheCallAndErrno() {
        assumeTrue(CpupriTwins.unavailableReason().isEmpty(), () -> "C twins not built: " + CpupriTwins.unavailableReason().orElseThrow());
        int outside = Affinity.nrCpuIds() + 3;
        NativeException e = assertThrows(NativeException.class, () -> CpupriTwins.run(true,
                Affinity.processAllowed().first(), outside, packed(0), packed(8), 1624, 64, outside + 1, 1, 5));
        assertEquals(Errno.EINVAL, e.errno());
        assertTrue(e.function().startsWith("pthread_"), e.getMessage());
    }

    @Test
    void nonsenseArgumentsAreRefusedBeforeAnyThreadStarts() {
        assumeTrue(CpupriTwins.unavailableReason().isEmpty(), () -> "C twins not built: " + CpupriTwins.unavailableReason().orElseThrow());
        NativeException e = assertThrows(NativeException.class,
                () -> CpupriTwins.run(true, 0, 1, packed(0), packed(8), 1624, 48, 2, 1, 5));
        assertEquals("cs_cpupri_run", e.function());
    }
}
