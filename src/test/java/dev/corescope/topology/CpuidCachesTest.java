package dev.corescope.topology;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.testing.Tools;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Caches from CPUID where sysfs has none: a saved tree of this kind of machine replays its
 * leaves ({@code cpuid/leaves}), Intel's leaf 4 is decoded with its sharing, and on the live
 * machine, where sysfs has no {@code cache/}, CPUID's caches agree with lstopo's (hwloc reads
 * CPUID there too).
 */
class CpuidCachesTest {

    private static final Path NO_CACHE = Path.of("src/test/resources/fixtures/nocache-cpuid");

    @Test
    void aTreeWithoutCacheDirectoriesReplaysItsCpuidLeaves() {
        Topology t = Topology.read(NO_CACHE);
        assertEquals("cpuid", t.cacheSource());
        assertEquals(List.of("L1d 48K ×2", "L1i 32K ×2", "L2 1M ×2"), groups(t));
        assertTrue(TopologyText.summaryLine(t).contains("from CPUID: L1d 48K ×2"), TopologyText.summaryLine(t));
        assertTrue(TopologyJson.render(t).contains("\"cacheSource\" : \"cpuid\""));
        assertTrue(t.warnings().contains("no cache/ information in sysfs (cpuN/cache): caches from CPUID"), t.warnings().toString());
        assertEquals(java.util.Optional.of(Placement.OTHER_L3), t.relation(0, 1),
                "different last-level caches (the per-CPU L2s CPUID describes), now from cache data");
    }

    @Test
    void intelLeafFourGivesEachCacheItsSharingCpus() {
        // 4 CPUs, APIC ids 0-3 (2 cores of 2 threads): L1d 32K per core (2 threads share it), L3 8M for all 4
        StringBuilder leaves = new StringBuilder();
        for (int cpu = 0; cpu < 4; cpu++) {
            leaves.append(cpu).append(" 0 0 0000000d 756e6547 6c65746e 49656e69\n");          // GenuineIntel, max leaf 0xd
            leaves.append(cpu).append(" 1 0 000906ea ").append(String.format("%02x", cpu)).append("100800 7ffafbff bfebfbff\n");
            leaves.append(cpu).append(" 4 0 ").append(String.format("%08x", (1 << 14) | (1 << 5) | 1)).append(" 01c0003f 0000003f 00000000\n");
            leaves.append(cpu).append(" 4 1 ").append(String.format("%08x", (3 << 14) | (3 << 5) | 3)).append(" 03c0003f 00001fff 00000006\n");
            leaves.append(cpu).append(" 4 2 00000000 00000000 00000000 00000000\n");
        }
        List<Cache> caches = CpuidCaches.decode(leaves.toString(), CpuMask.parseList("0-3", 4));
        assertEquals(3, caches.size(), caches.toString());
        List<Cache> l1d = caches.stream().filter(c -> c.level() == 1).toList();
        assertEquals(List.of("0-1", "2-3"), l1d.stream().map(c -> c.cpus().toList()).toList(), "one L1d per core");
        assertEquals(32 * 1024, l1d.get(0).sizeBytes());
        assertEquals(8, l1d.get(0).ways());
        Cache l3 = caches.stream().filter(c -> c.level() == 3).findFirst().orElseThrow();
        assertEquals(3, l3.level());
        assertEquals(Cache.Type.UNIFIED, l3.type());
        assertEquals("0-3", l3.cpus().toList());
        assertEquals(16L * 64 * 8192, l3.sizeBytes(), "ways x line x sets");
    }

    @Test
    void onThisMachineCpuidCachesAgreeWithLstopo() throws Exception {
        Topology live = Topology.live();
        assumeTrue(live.cacheSource().equals("cpuid"), "sysfs has cache/ here: CPUID is not used");
        Path lstopo = Tools.require("lstopo-no-graphics", "hwloc-nox");
        Tools.Output xml = Tools.run(List.of(lstopo.toString(), "--of", "xml", "-"), Map.of(), 60);
        assertEquals(0, xml.exitCode(), xml.err());
        Topology hwloc = HwlocXmlReader.read(xml.out(), "lstopo");
        List<String> theirs = groups(hwloc);
        for (String ours : groups(live)) assertTrue(theirs.contains(ours), ours + " from CPUID; lstopo has " + theirs);
    }

    private static List<String> groups(Topology t) {
        return t.cacheGroups().stream().map(g -> g.name() + " " + Sizes.kernelStyle(g.sizeBytes()) + " ×" + g.count()).toList();
    }
}
