package dev.corescope.topology;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code --cpus} selectors, taskset's stride and hex masks on saved machines: a hybrid laptop
 * (P-cores 0-11 as 6 cores of 2 threads, E-cores 12-19, one L3) from hwloc's tests, the
 * hand-made isolcpus host, and a tree without caches.
 */
class CpuSelectorTest {

    private static final String HYBRID = "20em64t-hybrid-1p6c2t+2ca4co1t";

    @Test
    void kindSelectsThePerformanceOrTheEfficiencyCoresOfAHybridMachine() {
        Topology t = Topology.read(Fixtures.root(HYBRID));
        assertEquals("0-11", CpuSelector.select("kind:performance", t).toList());
        assertEquals("12-19", CpuSelector.select("kind:efficiency", t).toList());
    }

    @Test
    void coreIsTheNthCoreWithAllItsThreadsAndCombinesWithAList() {
        Topology t = Topology.read(Fixtures.root(HYBRID));
        assertEquals("2-3", CpuSelector.select("core:1", t).toList());
        assertEquals("12,19", CpuSelector.select("core:6,19", t).toList());
        assertEquals("0-3,12", CpuSelector.select("core:0-1, core:6", t).toList());
    }

    @Test
    void nodePackageAndL3SelectTheirCpus() {
        Topology t = Topology.read(Path.of("src/test/resources/fixtures/isolcpus"));
        assertEquals(t.online().toList(), CpuSelector.select("package:0", t).toList());
        assertEquals(t.online().toList(), CpuSelector.select("l3:0", t).toList());
        assertEquals("0-6", CpuSelector.select("node:0,5", t).toList(), "one node: the online CPUs, with 5 in them");
    }

    @Test
    void tasksetStrideAndHexMasksAreCpuLists() {
        Topology t = Topology.read(Fixtures.root(HYBRID));
        assertEquals("0,2,4,6,8,10", CpuSelector.select("0-10:2", t).toList());
        assertEquals("0,4,8,12,16", CpuSelector.select("0-19:1/4", t).toList(), "the kernel's used/group form stays");
        assertEquals("0,2", CpuSelector.select("0x5", t).toList());
        assertEquals("0-3", CpuSelector.list("0XF", 8).toList());
        assertEquals("1,3,5", CpuSelector.list("1-5:2", 8).toList());
    }

    @Test
    void unknownSelectorsMissingIdsAndUniformKindsAreRefusedWithTheReason() {
        Topology t = Topology.read(Path.of("src/test/resources/fixtures/isolcpus"));
        String socket = assertThrows(IllegalArgumentException.class, () -> CpuSelector.select("socket:0", t)).getMessage();
        assertTrue(socket.contains("unknown selector socket") && socket.contains("node:"), socket);
        String node = assertThrows(IllegalArgumentException.class, () -> CpuSelector.select("package:3", t)).getMessage();
        assertTrue(node.contains("no package 3"), node);
        String kind = assertThrows(IllegalArgumentException.class, () -> CpuSelector.select("kind:efficiency", t)).getMessage();
        assertTrue(kind.contains("one kind of core"), kind);
        assertThrows(IllegalArgumentException.class, () -> CpuSelector.select("kind:medium", t));
    }

    @Test
    void l3IsRefusedWhereTheMachineTellsNoCaches(@TempDir Path root) throws IOException {
        Path cpu = root.resolve("sys/devices/system/cpu");
        for (int i = 0; i < 2; i++) {
            Files.createDirectories(cpu.resolve("cpu" + i + "/topology"));
            Files.writeString(cpu.resolve("cpu" + i + "/topology/physical_package_id"), "0\n");
            Files.writeString(cpu.resolve("cpu" + i + "/topology/core_id"), i + "\n");
        }
        for (String f : new String[] {"online", "possible", "present"}) Files.writeString(cpu.resolve(f), "0-1\n");
        Topology t = Topology.read(root);
        String why = assertThrows(IllegalArgumentException.class, () -> CpuSelector.select("l3:0", t)).getMessage();
        assertTrue(why.contains("no cache data"), why);
        assertEquals("0-1", CpuSelector.select("kind:performance", t).toList(), "a uniform machine's cores are all performance cores");
    }
}
