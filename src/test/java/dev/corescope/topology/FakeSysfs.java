package dev.corescope.topology;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Builds a sysfs tree of an imagined machine under a folder, file by file, for the cases the
 * shared trees do not cover (no cache/, no node/, CPU 0 offline, holes, 4096 possible CPUs).
 */
final class FakeSysfs {

    static final String CPU = "sys/devices/system/cpu";
    static final String NODE = "sys/devices/system/node";

    private final Path root;

    FakeSysfs(Path root) {
        this.root = root;
        dir(CPU);
    }

    Path root() {
        return root;
    }

    FakeSysfs file(String rel, String content) {
        try {
            Path p = root.resolve(rel);
            Files.createDirectories(p.getParent());
            Files.writeString(p, content + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    FakeSysfs dir(String rel) {
        try {
            Files.createDirectories(root.resolve(rel));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /** {@code possible}, {@code present}, {@code online} and {@code offline} as the kernel writes them. */
    FakeSysfs sets(String possible, String present, String online, String offline) {
        file(CPU + "/possible", possible);
        file(CPU + "/present", present);
        file(CPU + "/online", online);
        return file(CPU + "/offline", offline);
    }

    /** A CPU with today's topology names (lists only, as some trees have). */
    FakeSysfs cpu(int cpu, int pkg, int core, String coreCpus, String pkgCpus) {
        String t = CPU + "/cpu" + cpu + "/topology/";
        file(t + "physical_package_id", String.valueOf(pkg));
        file(t + "core_id", String.valueOf(core));
        file(t + "core_cpus_list", coreCpus);
        file(t + "package_cpus_list", pkgCpus);
        file(t + "thread_siblings_list", coreCpus);
        return file(t + "core_siblings_list", pkgCpus);
    }

    /** A CPU with only the pre-5.4 names, as hex maps. */
    FakeSysfs oldCpu(int cpu, int pkg, int core, String threadSiblingsHex, String coreSiblingsHex) {
        String t = CPU + "/cpu" + cpu + "/topology/";
        file(t + "physical_package_id", String.valueOf(pkg));
        file(t + "core_id", String.valueOf(core));
        file(t + "thread_siblings", threadSiblingsHex);
        return file(t + "core_siblings", coreSiblingsHex);
    }

    FakeSysfs cache(int cpu, int index, int level, String type, String size, String sharedList) {
        String c = CPU + "/cpu" + cpu + "/cache/index" + index + "/";
        file(c + "level", String.valueOf(level));
        file(c + "type", type);
        file(c + "size", size);
        file(c + "ways_of_associativity", "8");
        file(c + "coherency_line_size", "64");
        return file(c + "shared_cpu_list", sharedList);
    }

    FakeSysfs node(int id, String cpulist, long memKb, String distance) {
        String n = NODE + "/node" + id + "/";
        file(n + "cpulist", cpulist);
        file(n + "meminfo", "Node " + id + " MemTotal:       " + memKb + " kB\nNode " + id + " MemFree:        1000 kB");
        return file(n + "distance", distance);
    }

    FakeSysfs meminfo(long kb) {
        return file("proc/meminfo", "MemTotal:       " + kb + " kB\nMemFree:        1000 kB");
    }

    FakeSysfs cpuinfo(String model) {
        return file("proc/cpuinfo", "processor\t: 0\nmodel name\t: " + model + "\n");
    }

    /** A plain two-core machine with L1d/L2 per core, one L3 and one node: the base most tests vary. */
    static FakeSysfs twoCores(Path root) {
        FakeSysfs f = new FakeSysfs(root).sets("0-1", "0-1", "0-1", "").cpuinfo("Test CPU").meminfo(8 * 1024 * 1024);
        for (int cpu = 0; cpu < 2; cpu++) {
            f.cpu(cpu, 0, cpu, String.valueOf(cpu), "0-1")
                    .cache(cpu, 0, 1, "Data", "32K", String.valueOf(cpu))
                    .cache(cpu, 1, 2, "Unified", "512K", String.valueOf(cpu))
                    .cache(cpu, 2, 3, "Unified", "32768K", "0-1");
        }
        return f.node(0, "0-1", 8 * 1024 * 1024, "10");
    }
}
