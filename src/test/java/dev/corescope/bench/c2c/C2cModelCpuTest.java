package dev.corescope.bench.c2c;

import dev.corescope.topology.Topology;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class C2cModelCpuTest {

    @Test
    void labelsNameCoreLastLevelCacheAndPackage(@TempDir Path root) throws IOException {
        Topology t = Topology.read(SysfsTree.build(root, 2, 2));

        List<C2cModel.Cpu> places = List.of(C2cModel.Cpu.of(t, 0), C2cModel.Cpu.of(t, 3));

        assertEquals(new C2cModel.Cpu(0, 0, "L3#0", 0), places.get(0));
        assertEquals(new C2cModel.Cpu(3, 1, "L3#1", 1), places.get(1));
        assertEquals("cpu3 c1 L3#1 p1", places.get(1).shortLabel());
        assertEquals("CPU 3: core 1, L3 #1, package 1", places.get(1).longLabel());
    }

    @Test
    void aCpuTheTreeDoesNotKnowIsLabelledByNumberAlone(@TempDir Path root) throws IOException {
        Topology t = Topology.read(SysfsTree.build(root, 1, 2));
        assertEquals("cpu9", C2cModel.Cpu.of(t, 9).shortLabel());
    }
}
