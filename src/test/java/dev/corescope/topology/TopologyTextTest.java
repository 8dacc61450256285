package dev.corescope.topology;

import dev.corescope.testing.Approved;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The text report's wording where values are missing, and where nodes, caches and cores nest: whole reports, approved. */
class TopologyTextTest {

    @TempDir
    Path tmp;

    /** A capture of a 2-CPU machine with cpu0's folder removed: the L3's size was only read through cpu0. */
    @Test
    void aMissingSizeIsSaidInWordsAndTheNounAgreesWithOneCpu() {
        FakeSysfs f = new FakeSysfs(tmp).sets("0-1", "0-1", "0-1", "").cpuinfo("Test CPU").meminfo(1024 * 1024);
        f.cpu(1, 0, 1, "1", "0-1").cache(1, 0, 1, "Data", "32K", "1");
        String c = FakeSysfs.CPU + "/cpu1/cache/index3/";
        f.file(c + "level", "3").file(c + "type", "Unified").file(c + "shared_cpu_list", "0-1");
        Topology t = Topology.read(tmp);
        String text = TopologyText.render(t);
        Approved.verify("topology/text-missing-size.txt", text);
        assertFalse(text.contains("?"), text);
        assertFalse(text.contains(" , "), text);
        assertFalse(text.contains("CPUs 0 "), text);
    }

    /** An EPYC with NPS2: one package, two nodes, each holding two CCX L3s of two cores. */
    @Test
    void numaNodesInsideAPackageNestAroundTheirCachesAndCores() {
        FakeSysfs f = new FakeSysfs(tmp).sets("0-7", "0-7", "0-7", "").cpuinfo("AMD EPYC").meminfo(64L * 1024 * 1024);
        for (int cpu = 0; cpu < 8; cpu++) {
            int ccx = cpu / 2;
            f.cpu(cpu, 0, cpu, String.valueOf(cpu), "0-7")
                    .cache(cpu, 0, 1, "Data", "32K", String.valueOf(cpu))
                    .cache(cpu, 3, 3, "Unified", "16384K", (2 * ccx) + "-" + (2 * ccx + 1));
        }
        f.node(0, "0-3", 32L * 1024 * 1024, "10 12").node(1, "4-7", 32L * 1024 * 1024, "12 10");
        Topology t = Topology.read(tmp);
        String text = TopologyText.render(t);
        Approved.verify("topology/text-nps2-nodes-in-package.txt", text);
        String svg = TopologySvg.render(t);
        int node1 = svg.indexOf(">NUMANode P#1<");
        int l3 = svg.indexOf("L3 16M", node1);
        assertTrue(node1 > 0 && l3 > node1, "the second node's box comes before the L3s it holds: " + svg);
    }

    /** A node with the CPUs of an L3 (Opteron 6200: two dies per package) is that L3's memory line. */
    @Test
    void aNodeWithTheCpusOfAnL3IsItsMemoryLine() {
        FakeSysfs f = new FakeSysfs(tmp).sets("0-3", "0-3", "0-3", "").cpuinfo("AMD Opteron").meminfo(8L * 1024 * 1024);
        for (int cpu = 0; cpu < 4; cpu++) {
            f.cpu(cpu, 0, cpu, String.valueOf(cpu), "0-3").cache(cpu, 3, 3, "Unified", "6144K", cpu < 2 ? "0-1" : "2-3");
        }
        f.node(0, "0-1", 4L * 1024 * 1024, "10 16").node(1, "2-3", 4L * 1024 * 1024, "16 10");
        Approved.verify("topology/text-node-with-l3-cpus.txt", TopologyText.render(Topology.read(tmp)));
    }

    @Test
    void packageMasksThatOverlapFollowThePackageIds() {
        FakeSysfs f = new FakeSysfs(tmp).sets("0-3", "0-3", "0-3", "").cpuinfo("Test CPU").meminfo(1024 * 1024);
        f.cpu(0, 0, 0, "0", "0-1").cpu(1, 0, 1, "1", "0-1").cpu(2, 1, 0, "2", "0-3").cpu(3, 1, 1, "3", "2-3");
        Topology t = Topology.read(tmp);
        assertEquals(2, t.summary().packages());
        assertEquals("2-3", t.packages().get(1).cpus().toList());
        assertTrue(t.warnings().contains("the package CPU masks of CPU 2 disagree with their physical_package_id: packages follow the ids (2 packages)"),
                t.warnings().toString());
    }

    @Test
    void disjointPackageMasksAreKeptWhereTheIdsAreCoarser() {
        FakeSysfs f = new FakeSysfs(tmp).sets("0-1", "0-1", "0-1", "").cpuinfo("Test CPU").meminfo(1024 * 1024);
        f.cpu(0, 0, 0, "0", "0").cpu(1, 0, 0, "1", "1");
        assertEquals(2, Topology.read(tmp).summary().packages());
    }

    @Test
    void amdComputeUnitsCountAsTwoCoresSharingTheirL2() {
        FakeSysfs f = new FakeSysfs(tmp).sets("0-3", "0-3", "0-3", "").meminfo(1024 * 1024);
        f.file("proc/cpuinfo", "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 21\nmodel name\t: AMD Opteron(TM) Processor 6276\n");
        for (int cpu = 0; cpu < 4; cpu++) {
            String pair = cpu < 2 ? "0-1" : "2-3";
            f.cpu(cpu, 0, cpu, pair, "0-3").cache(cpu, 0, 1, "Data", "16K", String.valueOf(cpu)).cache(cpu, 2, 2, "Unified", "2048K", pair);
        }
        Topology t = Topology.read(tmp);
        assertEquals(4, t.summary().cores());
        assertTrue(t.cores().stream().allMatch(c -> c.cpus().weight() == 1), "one PU per core");
        Approved.verify("topology/text-amd-compute-units.txt", TopologyText.render(t));
    }

    @Test
    void theSameSiblingsOnAnotherVendorStaySmtThreads() {
        FakeSysfs f = new FakeSysfs(tmp).sets("0-1", "0-1", "0-1", "").meminfo(1024 * 1024);
        f.file("proc/cpuinfo", "processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\n");
        f.cpu(0, 0, 0, "0-1", "0-1").cpu(1, 0, 1, "0-1", "0-1");
        assertEquals(1, Topology.read(tmp).summary().cores());
    }

    @Test
    void sparcCacheFilesAreNamedAsNotRead() {
        FakeSysfs f = new FakeSysfs(tmp).sets("0-1", "0-1", "0-1", "").cpuinfo("UltraSparc T2").meminfo(1024 * 1024);
        f.cpu(0, 0, 0, "0", "0-1").cpu(1, 0, 1, "1", "0-1");
        f.file(FakeSysfs.CPU + "/cpu0/l1_dcache_size", "8192").file(FakeSysfs.CPU + "/cpu0/l2_cache_size", "4194304");
        Topology t = Topology.read(tmp);
        assertTrue(t.warnings().stream().anyMatch(w -> w.contains("(SPARC) give sizes but not which CPUs share a cache, so they are not read")),
                t.warnings().toString());
    }
}
