package dev.corescope.bench.c2c;

import dev.corescope.topology.Topology;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

class CpuLabelsTest {

    @Test
    void labelsNameCoreLastLevelCacheAndPackage(@TempDir Path root) throws IOException {
        Topology t = Topology.read(SysfsTree.build(root, 2, 2));

        List<CpuLabels.Place> places = CpuLabels.of(t, new int[]{0, 3});

        assertEquals(new CpuLabels.Place(0, Optional.of(0), Optional.of("L3#0"), Optional.of(0)), places.get(0));
        assertEquals(new CpuLabels.Place(3, Optional.of(1), Optional.of("L3#1"), Optional.of(1)), places.get(1));
        assertEquals("cpu3 c1 L3#1 p1", places.get(1).shortLabel());
        assertEquals("CPU 3: core 1, L3 #1, package 1", places.get(1).longLabel());
    }

    @Test
    void aCpuTheTreeDoesNotKnowIsLabelledByNumberAlone(@TempDir Path root) throws IOException {
        Topology t = Topology.read(SysfsTree.build(root, 1, 2));
        assertEquals("cpu9", CpuLabels.of(t, 9).shortLabel());
    }
}
