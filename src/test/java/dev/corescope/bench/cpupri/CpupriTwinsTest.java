package dev.corescope.bench.cpupri;

import dev.corescope.sys.Errno;
import dev.corescope.sys.NativeException;
import dev.corescope.sys.internal.Affinity;
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
            var s = CpupriTwins.run(mechanism, false, new int[]{a, b}, packed(0), packed(8), 1624, 64, Affinity.nrCpuIds(), 1, 5, 2, 5);
            assertEquals(2, s.readerNs().length);
            assertEquals(2, s.ran().length);
            for (int i = 0; i < 2; i++) {
                assertTrue(s.readerNs()[i] > 0 && s.writerNs()[i] > 0, "sample " + i);
                // a share of the sample on the CPU (thread CPU time over wall time; a clock tick of slack)
                assertTrue(s.ran()[i] > 0 && s.ran()[i] <= 1.1, "sample " + i + " ran " + s.ran()[i]);
            }
        }
    }

    /** A sample in which a thread was off its CPU timed a thread alone: it is set aside, the others kept in order. */
    @Test
    void onlySamplesInWhichEveryThreadRanCountAsContention() {
        var s = new CpupriTwins.Samples(new double[]{1, 2, 3}, new double[]{10, 20, 30}, new double[]{0, 0, 0}, new double[]{0.99, 0.1, 0.95});
        var kept = s.concurrent();
        assertEquals(java.util.List.of(1.0, 3.0), java.util.Arrays.stream(kept.readerNs()).boxed().toList());
        assertEquals(java.util.List.of(10.0, 30.0), java.util.Arrays.stream(kept.writerNs()).boxed().toList());
        assertEquals(0, new CpupriTwins.Samples(new double[]{1}, new double[]{1}, new double[]{0}, new double[]{0.5}).concurrent().ran().length);
    }

    /**
     * The reader's CPU is in cpupri at NORMAL, as rq_online_rt() puts it: every find of the run
     * stops at index 0 having read one count. The old twin left it out, and found nothing while
     * the writer was at RT99, reading all 99 counts.
     */
    @Test
    void withOneWriterEveryFindReadsOneCountAndWithRtAllSomeReadAll() {
        assumeTrue(CpupriTwins.unavailableReason().isEmpty(), () -> "C twins not built: " + CpupriTwins.unavailableReason().orElseThrow());
        var allowed = Affinity.processAllowed();
        assumeTrue(allowed.weight() >= 2, "needs 2 allowed CPUs, has " + allowed.toList());
        int a = allowed.first();
        int b = allowed.next(a);
        var normal = CpupriTwins.run(false, false, new int[]{a, b}, packed(0), packed(8), 1624, 64, Affinity.nrCpuIds(), 0, 0, 3, 5);
        for (double counts : normal.countsPerFind()) assertEquals(1.0, counts, "counts read per find");
        var all = CpupriTwins.run(false, true, new int[]{a, b}, packed(0), packed(8), 1624, 64, Affinity.nrCpuIds(), 0, 0, 5, 20);
        for (double counts : all.countsPerFind()) {
            assertTrue(counts >= 1.0 && counts <= 99.0, "counts read per find: " + counts);
        }
        assertTrue(java.util.Arrays.stream(all.countsPerFind()).max().orElseThrow() > 1.0,
                "with every CPU at RT99 some finds scan past index 0: " + java.util.Arrays.toString(all.countsPerFind()));
        var mechanism = CpupriTwins.run(true, false, new int[]{a, b}, packed(0), packed(8), 1624, 64, Affinity.nrCpuIds(), 0, 0, 1, 5);
        assertEquals(0.0, mechanism.countsPerFind()[0]);
    }

    @Test
    void aCpuOutsideTheAllowedSetFailsNamingTheCallAndErrno() {
        assumeTrue(CpupriTwins.unavailableReason().isEmpty(), () -> "C twins not built: " + CpupriTwins.unavailableReason().orElseThrow());
        int outside = Affinity.nrCpuIds() + 3;
        NativeException e = assertThrows(NativeException.class, () -> CpupriTwins.run(true, false,
                new int[]{Affinity.processAllowed().first(), outside}, packed(0), packed(8), 1624, 64, outside + 1, 0, 0, 1, 5));
        assertEquals(Errno.EINVAL, e.errno());
        assertTrue(e.function().startsWith("pthread_"), e.getMessage());
    }

    /**
     * The twin's CPU sets are sized for the CPU (CPU_ALLOC), as c2c's are: with a fixed cpu_set_t
     * it refused CPUs from 1024 up before asking the kernel (cs_cpupri_run EINVAL). On a plan of
     * 1600 CPUs a writer on CPU 1500 reaches pthread_attr_setaffinity_np / pthread_create, which
     * on a machine without it fails there; on a machine with it, it runs.
     */
    @Test
    void aCpuBeyond1024ReachesTheKernelWithADynamicallySizedSet() {
        assumeTrue(CpupriTwins.unavailableReason().isEmpty(), () -> "C twins not built: " + CpupriTwins.unavailableReason().orElseThrow());
        var allowed = Affinity.processAllowed();
        int beyond = 1500, plan = 1600;
        if (allowed.nbits() > beyond && allowed.test(beyond)) {
            var s = CpupriTwins.run(true, false, new int[]{allowed.first(), beyond}, packed(0), packed(8), 1624, 64, plan, 0, 0, 1, 5);
            assertTrue(s.readerNs()[0] > 0);
            return;
        }
        NativeException e = assertThrows(NativeException.class, () -> CpupriTwins.run(true, false, new int[]{allowed.first(), beyond},
                packed(0), packed(8), 1624, 64, plan, 0, 0, 1, 5));
        assertTrue(e.function().startsWith("pthread_"), "refused before the kernel saw it: " + e.getMessage());
    }

    /** Many writers: each on its own CPU, the reader's not among them; a CPU given twice is refused. */
    @Test
    void writersRunOnTheirOwnCpusAndACpuGivenTwiceIsRefused() {
        assumeTrue(CpupriTwins.unavailableReason().isEmpty(), () -> "C twins not built: " + CpupriTwins.unavailableReason().orElseThrow());
        var allowed = Affinity.processAllowed();
        assumeTrue(allowed.weight() >= 2, "needs 2 allowed CPUs, has " + allowed.toList());
        int a = allowed.first();
        int b = allowed.next(a);
        NativeException twice = assertThrows(NativeException.class, () -> CpupriTwins.run(false, false, new int[]{a, b, b},
                packed(0), packed(8), 1624, 64, Affinity.nrCpuIds(), 0, 0, 1, 5));
        assertEquals("cs_cpupri_run", twice.function());
        assertThrows(NativeException.class, () -> CpupriTwins.run(false, false, new int[]{a},
                packed(0), packed(8), 1624, 64, Affinity.nrCpuIds(), 0, 0, 1, 5), "no writer");
        assumeTrue(allowed.weight() >= 3, "a reader and 2 or more writers need 3 CPUs; has " + allowed.toList());
        int[] cpus = allowed.stream().limit(Math.min(4, allowed.weight())).toArray();
        var s = CpupriTwins.run(false, false, cpus, packed(0), packed(8), 1624, 64, Affinity.nrCpuIds(), 0, 0, 2, 5);
        for (int i = 0; i < 2; i++) assertTrue(s.readerNs()[i] > 0 && s.writerNs()[i] > 0, "sample " + i);
    }

    @Test
    void nonsenseArgumentsAreRefusedBeforeAnyThreadStarts() {
        assumeTrue(CpupriTwins.unavailableReason().isEmpty(), () -> "C twins not built: " + CpupriTwins.unavailableReason().orElseThrow());
        NativeException e = assertThrows(NativeException.class,
                () -> CpupriTwins.run(true, false, new int[]{0, 1}, packed(0), packed(8), 1624, 48, 2, 0, 0, 1, 5));
        assertEquals("cs_cpupri_run", e.function());
    }
}
