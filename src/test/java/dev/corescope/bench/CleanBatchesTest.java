package dev.corescope.bench;

import dev.corescope.sys.tool.BatchTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CleanBatchesTest {

    @Test
    void aBatchWhoseWallClockRanAheadOfItsCpuTimeWasDisturbed() {
        assertTrue(new BatchTime(1_000_000, 1_000_000).undisturbed());
        assertTrue(new BatchTime(1_000_000, 985_000).undisturbed(), "1.5% behind: a tick, not a preemption");
        assertFalse(new BatchTime(1_000_000, 900_000).undisturbed());
        assertTrue(new BatchTime(10_000, 8_500).undisturbed(), "short batches get 2 µs of slack");
        assertFalse(new BatchTime(10_000, 7_000).undisturbed());
    }

    @Test
    void keepsOnlyUndisturbedBatchesAndAlternatesWhichVariantGoesFirst() {
        List<Boolean> order = new ArrayList<>();
        int[] n = {0};
        CleanBatches r = CleanBatches.collect(3, 100_000, second -> {
            order.add(second);
            boolean disturbed = n[0]++ == 1; // the second batch run is preempted
            long wall = second ? 200_000 : 100_000;
            return new BatchTime(wall, disturbed ? wall / 2 : wall);
        });
        assertArrayEquals(new double[]{1, 1, 1, 1}, r.first(), "both variants keep running until each has 3");
        assertArrayEquals(new double[]{2, 2, 2}, r.second());
        assertEquals(1, r.discarded());
        assertEquals(8, r.run());
        assertFalse(r.fellBack());
        assertEquals(List.of(false, true, true, false, false, true, true, false), order);
    }

    @Test
    void keepsEveryBatchAndSaysSoWhenTooFewRanUndisturbed() {
        CleanBatches r = CleanBatches.collect(3, 10, second -> new BatchTime(1_000_000, 10_000));
        assertTrue(r.fellBack());
        assertEquals(12, r.first().length);
        assertEquals(12, r.second().length);
        assertTrue(r.describe().contains("include preemptions"));
    }

    @Test
    void loadAverageIsReadFromProcUnderTheRoot(@TempDir Path root) throws IOException {
        assertEquals(Optional.empty(), MachineLoad.averages(root));
        Files.createDirectories(root.resolve("proc"));
        Files.writeString(root.resolve("proc/loadavg"), "5.38 5.49 3.52 3/812 4242\n");
        RunSetup setup = new RunSetup(null, "0-1", MachineLoad.averages(root).orElseThrow(), 2, Jmh.Settings.SMOKE, Jmh.Settings.SMOKE,
                RunSize.SMOKE);
        assertEquals("load average 5.38 5.49 3.52 (1, 5, 15 min) on 2 CPUs", setup.load());
    }
}
