package dev.corescope.bench;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SampleStatsTest {

    @Test
    void medianAndItsIntervalIgnoreAPreemptedSample() {
        double[] samples = new double[50];
        for (int i = 0; i < samples.length; i++) samples[i] = 100 + (i % 5);
        samples[7] = 2_000_000; // a time slice spent waiting for a preempted partner
        SampleStats s = SampleStats.of(samples);
        assertEquals(102, s.median(), 1e-9);
        assertTrue(s.error() <= 2, "error " + s.error());
        assertTrue(s.mean() > 40_000, "the mean shows the outlier: " + s.mean());
        assertEquals(100, s.min(), 1e-9);
        assertEquals(50, s.samples());
    }

    @Test
    void intervalOfFiftySamplesRunsFromTheThirteenthToTheThirtyEighthValue() {
        double[] samples = new double[50];
        for (int i = 0; i < samples.length; i++) samples[i] = 49 - i; // unsorted on purpose
        SampleStats s = SampleStats.of(samples);
        assertEquals(24.5, s.median(), 1e-9);
        assertEquals(Math.max(24.5 - 12, 37 - 24.5), s.error(), 1e-9);
    }

    @Test
    void oneSampleHasNoError() {
        SampleStats s = SampleStats.of(new double[]{7});
        assertEquals(7, s.median());
        assertNull(s.errorOrNull());
        assertThrows(IllegalArgumentException.class, () -> SampleStats.of(new double[0]));
    }
}
