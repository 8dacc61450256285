package dev.corescope.bench.c2c;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A small sysfs tree for tests: {@code packages} packages of {@code cores} cores, one PU each,
 * an L1d and L2 per core and one L3 per package, 64-byte lines. CPU numbers run package by package.
 */
public final class SysfsTree {

    private SysfsTree() {
    }

    public static Path build(Path root, int packages, int cores) throws IOException {
        int n = packages * cores;
        String cpu = "sys/devices/system/cpu/";
        write(root, cpu + "possible", "0-" + (n - 1));
        write(root, cpu + "present", "0-" + (n - 1));
        write(root, cpu + "online", "0-" + (n - 1));
        for (int c = 0; c < n; c++) {
            int pkg = c / cores;
            String first = String.valueOf(pkg * cores);
            String pkgList = pkg * cores + "-" + (pkg * cores + cores - 1);
            String d = cpu + "cpu" + c + "/";
            write(root, d + "online", "1");
            write(root, d + "topology/core_id", String.valueOf(c % cores));
            write(root, d + "topology/physical_package_id", String.valueOf(pkg));
            write(root, d + "topology/core_cpus_list", String.valueOf(c));
            write(root, d + "topology/thread_siblings_list", String.valueOf(c));
            write(root, d + "topology/package_cpus_list", pkgList);
            write(root, d + "topology/core_siblings_list", pkgList);
            cache(root, d + "cache/index0/", 1, "Data", "32K", String.valueOf(c), c);
            cache(root, d + "cache/index2/", 2, "Unified", "1024K", String.valueOf(c), c);
            cache(root, d + "cache/index3/", 3, "Unified", "32768K", pkgList, Integer.parseInt(first) / cores);
        }
        return root;
    }

    private static void cache(Path root, String dir, int level, String type, String size, String shared, int id) throws IOException {
        write(root, dir + "level", String.valueOf(level));
        write(root, dir + "type", type);
        write(root, dir + "size", size);
        write(root, dir + "coherency_line_size", "64");
        write(root, dir + "ways_of_associativity", "8");
        write(root, dir + "shared_cpu_list", shared);
        write(root, dir + "id", String.valueOf(id));
    }

    private static void write(Path root, String file, String text) throws IOException {
        Path p = root.resolve(file);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text + "\n");
    }
}
