package dev.corescope.topology;

import dev.corescope.cpumask.CpuMask;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Trees the tests build: what real machines and old kernels leave out must not crash the reader. */
class TopologyBuiltTreesTest {

    @TempDir
    Path tmp;

    private static boolean anyWarning(Topology t, String fragment) {
        return t.warnings().stream().anyMatch(w -> w.contains(fragment));
    }

    @Test
    void aLiveMachineWithoutSysfsIsARuntimeFailureNotBadInput() {
        IllegalStateException live = assertThrows(IllegalStateException.class, () -> TopologyReader.read(tmp, true));
        assertEquals(tmp.resolve("sys/devices/system/cpu") + ": missing, so the topology is not available"
                + " (sysfs is not mounted here; mount -t sysfs sysfs /sys)", live.getMessage());
        IllegalArgumentException saved = assertThrows(IllegalArgumentException.class, () -> Topology.read(tmp));
        assertTrue(saved.getMessage().contains("holds no sys/devices/system/cpu"), saved.getMessage());
    }

    @Test
    void aNodeNumberNoKernelHasIsRefusedByNameAndANegativeMemoryIsUnknown() {
        FakeSysfs f = FakeSysfs.twoCores(tmp).file("sys/devices/system/node/node99999999999/cpulist", "0-1");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Topology.read(f.root()));
        assertEquals(tmp.resolve("sys/devices/system/node/node99999999999") + ": NUMA node 99999999999 is beyond 65535,"
                + " the largest node number corescope reads (Linux has at most 1024 nodes)", e.getMessage());
        Path other = tmp.resolve("other");
        FakeSysfs g = FakeSysfs.twoCores(other).file("sys/devices/system/node/node1/cpulist", "").file("sys/devices/system/node/node1/meminfo", "Node 1 MemTotal: -5 kB");
        Topology t = Topology.read(g.root());
        assertEquals(-1, t.numaNodes().stream().filter(n -> n.id() == 1).findFirst().orElseThrow().memoryBytes());
        assertTrue(anyWarning(t, "MemTotal is not a size"), t.warnings().toString());
    }

    @Test
    void aLongModelNameIsCut() {
        Topology t = Topology.read(FakeSysfs.twoCores(tmp).cpuinfo("M".repeat(100_000)).root());
        assertEquals(Topology.MAX_NAME, t.cpuModel().orElseThrow().length());
    }

    @Test
    void plainTwoCoreMachineReadsAsTheContractExample() {
        Topology t = Topology.read(FakeSysfs.twoCores(tmp).root());
        assertEquals(new Topology.Summary(1, 0, 0, 2, 2, 1), t.summary());
        assertEquals("1 package, 2 cores, 2 PUs, 1 NUMA node; L1d 32K ×2, L2 512K ×2, L3 32M ×1", t.summaryLine());
        assertEquals(64, t.cacheLineSize());
        assertEquals(List.of(), t.warnings());
        assertEquals("Test CPU", t.cpuModel().orElseThrow());
        // the L3 covers the package, the L1d and L2 one core each
        assertEquals(List.of("L3"), t.packages().getFirst().caches().stream().map(Cache::name).toList());
        assertEquals(List.of("L1d", "L2"), t.cores().getFirst().caches().stream().map(Cache::name).toList());
    }

    @Test
    void treeWithoutCacheDirectoriesHasNoCachesAndSaysSo() {
        FakeSysfs f = new FakeSysfs(tmp).sets("0-1", "0-1", "0-1", "").node(0, "0-1", 1024, "10");
        f.cpu(0, 0, 0, "0", "0-1").cpu(1, 0, 1, "1", "0-1");
        Topology t = Topology.read(tmp);
        assertEquals(List.of(), t.caches());
        assertEquals(Topology.DEFAULT_CACHE_LINE, t.cacheLineSize());
        assertTrue(anyWarning(t, "no cache/ information"), t.warnings().toString());
        assertTrue(anyWarning(t, "assuming 64 bytes"), t.warnings().toString());
        assertTrue(t.summaryLine().endsWith("; caches unknown"), t.summaryLine());
        assertEquals(List.of(), Placements.all(t, t.usable(), "same-l3"));
    }

    @Test
    void treeWithoutNodeDirectoryIsOneNumaNodeWithMachineMemory() {
        FakeSysfs f = new FakeSysfs(tmp).sets("0-1", "0-1", "0-1", "").meminfo(2048);
        f.cpu(0, 0, 0, "0", "0-1").cpu(1, 0, 1, "1", "0-1");
        Topology t = Topology.read(tmp);
        assertEquals(1, t.numaNodes().size());
        assertEquals("0-1", t.numaNodes().getFirst().cpus().toList());
        assertEquals(2048L * 1024, t.numaNodes().getFirst().memoryBytes());
        assertTrue(anyWarning(t, "a kernel without NUMA"), t.warnings().toString());
    }

    @Test
    void cpu0OfflineIsListedAsOfflineAndLeftOutOfTreeCountsAndPlacements() {
        FakeSysfs f = new FakeSysfs(tmp).sets("0-3", "0-3", "1-3", "0").node(0, "1-3", 1024, "10");
        f.file(FakeSysfs.CPU + "/cpu0/online", "0");
        for (int cpu = 1; cpu <= 3; cpu++) {
            f.cpu(cpu, 0, cpu, String.valueOf(cpu), "1-3").cache(cpu, 0, 1, "Data", "32K", String.valueOf(cpu))
                    .cache(cpu, 1, 3, "Unified", "8M", "1-3");
        }
        Topology t = Topology.read(tmp);
        assertEquals("0", t.offline().toList());
        assertEquals("1-3", t.online().toList());
        assertEquals(3, t.summary().pus());
        assertEquals(3, t.summary().cores());
        assertEquals(List.of(1, 2, 3), t.pus().stream().map(TopologyNode::id).toList());
        CpuPair any = Placements.find(t, CpuMask.full(t.nbits()), "any").orElseThrow();
        assertEquals(1, any.from());
        assertEquals(2, any.to());
        assertEquals("1-2", Placements.find(t, t.usable(), "same-l3").map(p -> p.from() + "-" + p.to()).orElseThrow());
        String text = TopologyText.render(t);
        assertTrue(text.contains("offline 0;"), text);
        assertTrue(text.contains("(+1 offline)"), text);
    }

    @Test
    void holesInCpuNumberingAreKeptAsTheyAre() {
        FakeSysfs f = new FakeSysfs(tmp).sets("0-7", "0-1,4-5", "0-1,4-5", "2-3,6-7").node(0, "0-1,4-5", 1024, "10");
        for (int cpu : new int[] {0, 1, 4, 5}) {
            f.cpu(cpu, cpu / 4, cpu % 4, String.valueOf(cpu), cpu < 4 ? "0-1" : "4-5");
        }
        Topology t = Topology.read(tmp);
        assertEquals(List.of(0, 1, 4, 5), t.pus().stream().map(TopologyNode::id).toList());
        assertEquals(2, t.summary().packages());
        assertEquals("2-3,6-7", t.offline().toList());
        assertEquals("0-1,4-5", t.present().toList());
        assertEquals("0-4", Placements.find(t, t.usable(), "other-package").map(p -> p.from() + "-" + p.to()).orElseThrow());
    }

    @Test
    void oldTopologyNamesAndNoCpuSetFilesStillGiveCoresAndSmt() {
        // 2.6-era tree: no online/possible/present, thread_siblings and core_siblings as hex maps
        FakeSysfs f = new FakeSysfs(tmp);
        f.oldCpu(0, 0, 0, "00000005", "0000000f").oldCpu(1, 0, 1, "0000000a", "0000000f")
                .oldCpu(2, 0, 0, "00000005", "0000000f").oldCpu(3, 0, 1, "0000000a", "0000000f");
        Topology t = Topology.read(tmp);
        assertEquals(new Topology.Summary(1, 0, 0, 2, 4, 1), t.summary());
        assertEquals("0-3", t.online().toList());
        assertEquals("0-3", t.possible().toList());
        assertEquals(List.of("0-2", "1-3"), Placements.all(t, t.usable(), "same-core").stream().map(p -> p.from() + "-" + p.to()).toList());
        assertTrue(anyWarning(t, "possible CPUs taken from the cpuN directories"), t.warnings().toString());
    }

    @Test
    void perCpuOnlineFilesMarkOfflineCpusWhenThereIsNoOnlineFile() {
        FakeSysfs f = new FakeSysfs(tmp);
        f.oldCpu(0, 0, 0, "1", "7").file(FakeSysfs.CPU + "/cpu1/online", "0").oldCpu(2, 0, 2, "4", "7");
        f.file(FakeSysfs.CPU + "/cpu2/online", "1");
        Topology t = Topology.read(tmp);
        assertEquals("0,2", t.online().toList());
        assertEquals("1", t.offline().toList());
    }

    @Test
    void fourThousandNinetySixPossibleCpusWithFourPresent() {
        FakeSysfs f = new FakeSysfs(tmp).sets("0-4095", "0-3", "0-3", "4-4095").node(0, "0-3", 1024, "10");
        for (int cpu = 0; cpu < 4; cpu++) {
            f.cpu(cpu, 0, cpu, String.valueOf(cpu), "0-3").cache(cpu, 0, 1, "Data", "48K", String.valueOf(cpu));
        }
        Topology t = Topology.read(tmp);
        assertEquals(4096, t.nbits());
        assertEquals(4096, t.possible().weight());
        assertEquals("4-4095", t.offline().toList());
        assertEquals(4, t.summary().pus());
        assertEquals("4 PUs (+4092 offline)", t.summaryLine().split(", ")[2]);
        String svg = TopologySvg.render(t);
        assertTrue(svg.contains("Offline CPUs: 4-4095 (4092)"), "offline CPUs summed up in one box");
        assertFalse(svg.contains("PU 4095"), "no box per offline CPU when there are thousands");
        assertTrue(TopologyJson.render(t).contains("\"possible\" : \"0-4095\""));
    }

    @Test
    void masksWiderThanTheMachineAreCutToIt() {
        // kernels print maps of NR_CPUS bits: 8 chunks for a 2-CPU machine
        FakeSysfs f = new FakeSysfs(tmp).sets("0-1", "0-1", "0-1", "");
        f.oldCpu(0, 0, 0, "00000000,00000000,00000000,00000000,00000000,00000000,00000000,00000001",
                "00000000,00000000,00000000,00000000,00000000,00000000,00000000,00000003");
        f.oldCpu(1, 0, 1, "00000000,00000000,00000000,00000000,00000000,00000000,00000000,00000002",
                "00000000,00000000,00000000,00000000,00000000,00000000,00000000,00000003");
        Topology t = Topology.read(tmp);
        assertEquals(2, t.nbits());
        assertEquals(2, t.summary().cores());
    }

    @Test
    void dieAndClusterIdsOfMinusOneMeanTheLevelIsUnknown() {
        FakeSysfs f = new FakeSysfs(tmp).sets("0-1", "0-1", "0-1", "");
        for (int cpu = 0; cpu < 2; cpu++) {
            f.cpu(cpu, 0, cpu, String.valueOf(cpu), "0-1");
            String topo = FakeSysfs.CPU + "/cpu" + cpu + "/topology/";
            f.file(topo + "die_id", "-1").file(topo + "die_cpus_list", String.valueOf(cpu))
                    .file(topo + "cluster_id", "-1").file(topo + "cluster_cpus_list", String.valueOf(cpu));
        }
        Topology t = Topology.read(tmp);
        assertEquals(List.of(), t.dies());
        assertEquals(List.of(), t.clusters());
        assertEquals(2, t.cores().size());
    }

    @Test
    void intelHybridPmuFilesGiveCoreKinds() {
        FakeSysfs f = FakeSysfs.twoCores(tmp);
        f.file("sys/devices/cpu_core/cpus", "0").file("sys/devices/cpu_atom/cpus", "1");
        Topology t = Topology.read(tmp);
        assertEquals(2, t.coreKinds().size());
        assertEquals("core", t.coreKinds().get(0).hybridType().orElseThrow());
        assertEquals("atom", t.coreKinds().get(1).hybridType().orElseThrow());
        assertEquals("1", t.coreKinds().get(1).cpus().toList());
    }

    @Test
    void cpuCapacityGivesBigAndLittleKinds() {
        FakeSysfs f = FakeSysfs.twoCores(tmp);
        f.file(FakeSysfs.CPU + "/cpu0/cpu_capacity", "1024").file(FakeSysfs.CPU + "/cpu1/cpu_capacity", "446");
        Topology t = Topology.read(tmp);
        assertEquals(List.of(1024, 446), t.coreKinds().stream().map(k -> k.capacity().orElseThrow()).toList());
    }

    @Test
    void aFileThatCannotBeReadIsReportedAndTheRestStillRead() throws Exception {
        FakeSysfs f = FakeSysfs.twoCores(tmp);
        Path coreId = tmp.resolve(FakeSysfs.CPU + "/cpu1/topology/core_id");
        Files.delete(coreId);
        Files.createDirectory(coreId);
        Topology t = Topology.read(tmp);
        assertEquals(2, t.summary().cores());
        assertTrue(anyWarning(t, "could not read sys/devices/system/cpu/cpu1/topology/core_id"), t.warnings().toString());
        assertEquals(List.of("sys/devices/system/cpu/cpu1/topology/core_id"), t.unreadableFiles());
        assertTrue(TopologyText.render(t).contains("warning: could not read sys/devices/system/cpu/cpu1/topology/core_id"));
    }

    @Test
    void garbageInAFileIsReportedNotThrown() {
        FakeSysfs f = FakeSysfs.twoCores(tmp);
        f.file(FakeSysfs.CPU + "/cpu0/topology/core_cpus_list", "zero");
        f.file(FakeSysfs.CPU + "/cpu0/cache/index0/level", "one");
        Topology t = Topology.read(tmp);
        assertEquals(2, t.summary().pus());
        assertTrue(anyWarning(t, "core_cpus_list: not a CPU list"), t.warnings().toString());
        assertTrue(anyWarning(t, "index0/level: not an integer"), t.warnings().toString());
    }

    @Test
    void rootThatDoesNotExistIsRejectedWithOneLine() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Topology.read(tmp.resolve("nope")));
        assertEquals(tmp.resolve("nope") + ": no such directory", e.getMessage());
    }

    @Test
    void rootThatIsAFileIsRejected() throws Exception {
        Path file = Files.writeString(tmp.resolve("f"), "x");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Topology.read(file));
        assertEquals(file + ": not a directory", e.getMessage());
    }

    @Test
    void rootWithoutCpuDirectoryIsRejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Topology.read(tmp));
        assertTrue(e.getMessage().startsWith(tmp + ": holds no sys/devices/system/cpu"), e.getMessage());
        assertFalse(e.getMessage().contains("\n"));
    }
}
