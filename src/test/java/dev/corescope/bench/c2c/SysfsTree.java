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
        int[][] pkgs = new int[packages][cores];
        for (int p = 0; p < packages; p++) for (int c = 0; c < cores; c++) pkgs[p][c] = p * cores + c;
        return build(root, pkgs);
    }

    /**
     * A tree whose package {@code p} holds the CPUs {@code packages[p]} (ascending), one core
     * each: numbers may leave gaps (CPUs 0-3 and 1280-1283), the gaps being possible but not
     * present, so a small tree can have CPU numbers far beyond a fixed {@code cpu_set_t}.
     */
    public static Path build(Path root, int[][] packages) throws IOException {
        StringBuilder online = new StringBuilder();
        int last = 0;
        for (int[] pkg : packages) {
            for (int c : pkg) {
                online.append(online.isEmpty() ? "" : ",").append(c);
                last = Math.max(last, c);
            }
        }
        String cpu = "sys/devices/system/cpu/";
        write(root, cpu + "possible", "0-" + last);
        write(root, cpu + "present", online.toString());
        write(root, cpu + "online", online.toString());
        for (int pkg = 0; pkg < packages.length; pkg++) {
            int[] cpus = packages[pkg];
            String pkgList = java.util.Arrays.stream(cpus).mapToObj(String::valueOf).collect(java.util.stream.Collectors.joining(","));
            for (int k = 0; k < cpus.length; k++) {
                int c = cpus[k];
                String d = cpu + "cpu" + c + "/";
                write(root, d + "online", "1");
                write(root, d + "topology/core_id", String.valueOf(k));
                write(root, d + "topology/physical_package_id", String.valueOf(pkg));
                write(root, d + "topology/core_cpus_list", String.valueOf(c));
                write(root, d + "topology/thread_siblings_list", String.valueOf(c));
                write(root, d + "topology/package_cpus_list", pkgList);
                write(root, d + "topology/core_siblings_list", pkgList);
                cache(root, d + "cache/index0/", 1, "Data", "32K", String.valueOf(c), c);
                cache(root, d + "cache/index2/", 2, "Unified", "1024K", String.valueOf(c), c);
                cache(root, d + "cache/index3/", 3, "Unified", "32768K", pkgList, pkg);
            }
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
