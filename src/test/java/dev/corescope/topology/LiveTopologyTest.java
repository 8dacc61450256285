package dev.corescope.topology;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.sys.internal.Affinity;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The live machine, checked against sched_getaffinity and against sysfs read here directly. */
class LiveTopologyTest {

    private static final Path CPU = Path.of("/sys/devices/system/cpu");
    private static Topology live;

    @BeforeAll
    static void readLive() {
        assumeTrue(System.getProperty("os.name").equals("Linux"), "Linux only");
        assumeTrue(Files.isReadable(CPU.resolve("online")), "no readable /sys/devices/system/cpu/online");
        live = Topology.live();
    }

    private static Optional<String> sysfs(String rel) throws IOException {
        Path p = CPU.resolve(rel);
        return Files.isReadable(p) ? Optional.of(Files.readString(p).strip()) : Optional.empty();
    }

    @Test
    void allowedIsWhatSchedGetaffinitySays() {
        CpuMask fromSyscall = Affinity.get(0);
        assertEquals(fromSyscall.toList(), live.allowed().orElseThrow().toList());
        assertTrue(live.usable().isSubsetOf(live.allowed().orElseThrow()));
    }

    @Test
    void onlineAndPossibleAreTheSysfsFiles() throws IOException {
        assertEquals(sysfs("online").orElseThrow(), live.online().toList());
        assertEquals(sysfs("possible").orElseThrow(), live.possible().toList());
        assertEquals(live.online().weight(), live.summary().pus());
    }

    @Test
    void everyOnlineCpuSitsInTheCoreAndPackageSysfsNamesForIt() throws IOException {
        for (int cpu : live.online().toArray()) {
            Optional<String> core = sysfs("cpu" + cpu + "/topology/core_cpus_list").or(() -> read("cpu" + cpu + "/topology/thread_siblings_list"));
            Optional<String> pkg = sysfs("cpu" + cpu + "/topology/package_cpus_list").or(() -> read("cpu" + cpu + "/topology/core_siblings_list"));
            assumeTrue(core.isPresent() && pkg.isPresent(), "this kernel has no *_list topology files");
            CpuMask online = live.online();
            assertEquals(CpuMask.parseList(core.get(), live.nbits()).and(online).toList(),
                    live.nodeOf(TopologyNode.Kind.CORE, cpu).orElseThrow().cpus().toList(), "core of CPU " + cpu);
            assertEquals(CpuMask.parseList(pkg.get(), live.nbits()).and(online).toList(),
                    live.nodeOf(TopologyNode.Kind.PACKAGE, cpu).orElseThrow().cpus().toList(), "package of CPU " + cpu);
        }
    }

    @Test
    void theCachesOfCpu0AreItsSysfsCacheIndexes() throws IOException {
        int cpu = live.online().first();
        List<Cache> cachesOf = live.caches().stream().filter(c -> c.cpus().test(cpu)).toList();
        Path cacheDir = CPU.resolve("cpu" + cpu + "/cache");
        assumeTrue(Files.isDirectory(cacheDir), "no cache/ in sysfs here");
        int indexes = 0;
        try (var s = Files.list(cacheDir)) {
            for (Path idx : s.filter(p -> p.getFileName().toString().startsWith("index")).toList()) {
                indexes++;
                int level = Integer.parseInt(Files.readString(idx.resolve("level")).strip());
                String type = Files.readString(idx.resolve("type")).strip().toLowerCase();
                long size = Sizes.parseKernelSize(Files.readString(idx.resolve("size")).strip());
                boolean found = cachesOf.stream().anyMatch(c -> c.level() == level
                        && c.type().jsonName().equals(type) && c.sizeBytes() == size);
                assertTrue(found, "cache " + idx + " (L" + level + " " + type + " " + size + ") in " + cachesOf);
            }
        }
        assertEquals(indexes, cachesOf.size());
    }

    @Test
    void cacheLineIsTheL1dCoherencyLineSize() throws IOException {
        Optional<String> line = sysfs("cpu" + live.online().first() + "/cache/index0/coherency_line_size");
        assumeTrue(line.isPresent(), "no cache/index0 here");
        assertEquals(Integer.parseInt(line.get()), live.cacheLineSize());
    }

    @Test
    void placementsUseOnlyCpusThisProcessMayRunOn() {
        CpuMask usable = live.usable();
        assumeTrue(usable.weight() >= 2, "fewer than 2 CPUs allowed: " + usable);
        for (CpuPair p : Placements.of(live, usable)) {
            assertTrue(usable.test(p.from()) && usable.test(p.to()), p.toString());
        }
        assertEquals("any", Placements.of(live, usable).getLast().name());
    }

    private static Optional<String> read(String rel) {
        try {
            return sysfs(rel);
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
