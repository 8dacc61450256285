package dev.corescope.bench.locks;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
}
