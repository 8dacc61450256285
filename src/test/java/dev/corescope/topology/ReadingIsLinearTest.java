package dev.corescope.topology;

import dev.corescope.testing.BigTrees;
import dev.corescope.topology.proc.SysfsReader;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Issue 28: reading a topology and laying out its tree stay linear in the tree's size. Not
 * timed: the reader and the display tree count the objects they visit and the candidates they
 * compare, and a tree of 4 times the CPUs must cost about 4 times the count (a pass over the
 * whole tree per cache, as {@code attach} once made, gives 15 times; a caches-by-cores scan in
 * the display tree 16 times). The generated trees are checked against hwloc's counts where
 * hwloc is installed.
 */
class ReadingIsLinearTest {

    @TempDir
    static Path tmp;

    static Path small;
    static Path large;

    @BeforeAll
    static void trees() {
        small = BigTrees.write(tmp.resolve("t512"), BigTrees.shapeFor(512));
        large = BigTrees.write(tmp.resolve("t2048"), BigTrees.shapeFor(2048));
    }

    private static long work(Path root) {
        TopologyReader reader = new TopologyReader(new SysfsReader(root));
        Topology t = reader.build(root, false);
        return reader.x.work + DisplayTree.of(t).work;
    }

    @Test
    void fourTimesTheCpusCostsAboutFourTimesTheWork() {
        long a = work(small);
        long b = work(large);
        double ratio = (double) b / a;
        assertTrue(ratio > 3.5 && ratio < 4.6, "work " + a + " at 512 CPUs, " + b + " at 2048: ratio " + ratio + ", expected near 4");
    }

    @Test
    void theGeneratedTreesHaveTheIntendedCounts() {
        for (int cpus : new int[] {512, 2048}) {
            BigTrees.Shape s = BigTrees.shapeFor(cpus);
            Topology t = Topology.read(cpus == 512 ? small : large);
            assertEquals(expected(s), counts(t), cpus + " CPUs");
            assertEquals(0, t.warnings().size(), t.warnings().toString());
        }
    }

    private static Map<String, Integer> expected(BigTrees.Shape s) {
        Map<String, Integer> m = new LinkedHashMap<>();
        m.put("package", s.packages());
        m.put("core", s.cores());
        m.put("pu", s.cpus());
        m.put("numanode", s.nodes());
        m.put("l3cache", s.l3s());
        m.put("l2cache", s.cores());
        return m;
    }

    private static Map<String, Integer> counts(Topology t) {
        Map<String, Integer> m = new LinkedHashMap<>();
        m.put("package", t.packages().size());
        m.put("core", t.cores().size());
        m.put("pu", t.pus().size());
        m.put("numanode", t.numaNodes().size());
        m.put("l3cache", Fixtures.cacheCount(t, "L3"));
        m.put("l2cache", Fixtures.cacheCount(t, "L2"));
        return m;
    }

    @Test
    void hwlocCountsWhatCorescopeCounts() throws IOException, InterruptedException {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/hwloc-calc")), "hwloc-calc not installed (apt-get install hwloc-nox)");
        Topology t = Topology.read(small);
        Map<String, Integer> hwloc = new LinkedHashMap<>();
        for (String type : counts(t).keySet()) {
            ProcessBuilder pb = new ProcessBuilder("hwloc-calc", "-N", type, "all").redirectErrorStream(true);
            pb.environment().put("HWLOC_FSROOT", small.toString());
            pb.environment().put("HWLOC_COMPONENTS", "linux,stop");
            Process p = pb.start();
            String out = new String(p.getInputStream().readAllBytes()).strip();
            assertEquals(0, p.waitFor(), out);
            hwloc.put(type, Integer.parseInt(out));
        }
        assertEquals(hwloc, counts(t));
    }

    @Test
    void whereACpuSitsAndHowTwoRelate() {
        Topology t = Topology.read(small);
        // 512 CPUs: 2 packages of 2 NUMA nodes of 4 L3s of 16 cores; CPU n and n+256 share a core
        assertEquals(new CpuPlace(257, 0, 0, 1, 1, 1, 0, 0, 0, -1), t.where(257));
        assertEquals(Optional.of(Placement.SAME_CORE), t.relation(0, 256));
        assertEquals(Optional.of(Placement.SAME_L3), t.relation(0, 1));
        assertEquals(Optional.of(Placement.OTHER_L3), t.relation(0, 16));
        assertEquals(Optional.of(Placement.OTHER_NODE), t.relation(0, 64));
        assertEquals(Optional.of(Placement.OTHER_PACKAGE), t.relation(0, 128));
        assertEquals(Optional.empty(), t.relation(3, 3));
        assertEquals(t.where(200).packageId(), 1);
        assertEquals(t.where(200).numaNode(), 3);
    }
}
