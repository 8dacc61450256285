package dev.corescope.bench.locks;

import dev.corescope.bench.FakeOs;
import dev.corescope.cpumask.CpuMask;
import dev.corescope.sys.tool.NativeLibrary;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The batch sizing keeps time_bench's limits: at least 1000 loops, fewer than 2^32. */
class NativeHarnessTest {

    @Test
    void aBatchIsSizedToItsTargetDuration() {
        assertEquals(10_000_000, NativeHarness.loopsFor(2.0, 20_000_000));
    }

    @Test
    void neverFewerThanTimeBenchsThousandLoops() {
        assertEquals(NativeHarness.MIN_LOOPS, NativeHarness.loopsFor(500.0, 100_000));
        assertEquals(NativeHarness.MIN_LOOPS, NativeHarness.loopsFor(0.0, 100_000));
        assertEquals(NativeHarness.MIN_LOOPS, NativeHarness.loopsFor(Double.NaN, 100_000));
    }

    @Test
    void neverMoreThanA32BitCount() {
        assertEquals((1L << 32) - 1, NativeHarness.loopsFor(0.001, 50_000_000_000L));
    }

    /**
     * Contended mode's threads pin through the family's OS seam: on a fake 128-CPU machine that
     * does not allow CPU 101, the pair 100/101 fails with the fake's refusal before any thread
     * enters C (a live pin would name this machine's allowed CPUs).
     */
    @Test
    void contendedThreadsPinThroughTheFamilysOs() {
        assumeTrue(NativeLibrary.available(), () -> "C twins not built: " + NativeLibrary.unavailableReason().orElse("?"));
        FakeOs os = new FakeOs(CpuMask.parseList("0-100,102-127", 128));
        ThreadPlacement pair = new ThreadPlacement("other-package", List.of(100, 101), "a pair of the fake machine");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> NativeHarness.contend(os,
                LocksTwins.Contended.SPIN, Variant.SPIN_LOCK_UNLOCK, "spin_lock", pair, NativeHarness.Plan.SMOKE));
        assertEquals("contended SPIN on " + pair + " failed: CPU 101 is not in the allowed set 0-100,102-127", e.getMessage());
    }
}
