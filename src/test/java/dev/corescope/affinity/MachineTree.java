package dev.corescope.affinity;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A sysfs tree for tests: {@code packages} packages of {@code llcs} L3s of {@code cores} cores of
 * {@code threads} SMT threads, CPUs numbered from {@code first} with siblings adjacent
 * (cpu = first + ((package * llcs + llc) * cores + core) * threads + thread).
 */
final class MachineTree {

    private final Path root;
    private final int first;
    private final int packages;
    private final int llcs;
    private final int cores;
    private final int threads;

    private MachineTree(Path root, int first, int packages, int llcs, int cores, int threads) {
        this.root = root;
        this.first = first;
        this.packages = packages;
        this.llcs = llcs;
        this.cores = cores;
        this.threads = threads;
    }

    static MachineTree build(Path root, int first, int packages, int llcs, int cores, int threads) throws IOException {
        MachineTree m = new MachineTree(root, first, packages, llcs, cores, threads);
        m.write();
        return m;
    }

    Path root() {
        return root;
    }

    int cpus() {
        return packages * llcs * cores * threads;
    }

    int last() {
        return first + cpus() - 1;
    }

    /** Writes {@code isolated} (isolcpus) as {@code list}. */
    MachineTree isolated(String list) throws IOException {
        write("sys/devices/system/cpu/isolated", list);
        return this;
    }

    /** A /proc/interrupts with {@code perCpu[i]} interrupts on CPU first + i. */
    MachineTree interrupts(long... perCpu) throws IOException {
        StringBuilder sb = new StringBuilder("     ");
        for (int i = 0; i < perCpu.length; i++) sb.append(String.format("%11s", "CPU" + (first + i)));
        sb.append('\n').append("  0:");
        for (long n : perCpu) sb.append(String.format("%11d", n));
        sb.append("   IO-APIC    2-edge      timer\n");
        write("proc/interrupts", sb.toString());
        return this;
    }

    private void write() throws IOException {
        String cpu = "sys/devices/system/cpu/";
        String all = first + "-" + last();
        write(cpu + "possible", "0-" + last());
        write(cpu + "present", all);
        write(cpu + "online", all);
        for (int c = first; c <= last(); c++) {
            int i = c - first;
            int core = i / threads;
            int llc = core / cores;
            int pkg = llc / llcs;
            String coreList = range(first + core * threads, threads);
            String llcList = range(first + llc * cores * threads, cores * threads);
            String pkgList = range(first + pkg * llcs * cores * threads, llcs * cores * threads);
            String d = cpu + "cpu" + c + "/";
            write(d + "online", "1");
            write(d + "topology/core_id", String.valueOf(core % (llcs * cores)));
            write(d + "topology/physical_package_id", String.valueOf(pkg));
            write(d + "topology/core_cpus_list", coreList);
            write(d + "topology/thread_siblings_list", coreList);
            write(d + "topology/package_cpus_list", pkgList);
            write(d + "topology/core_siblings_list", pkgList);
            cache(d + "cache/index0/", 1, "Data", "32K", coreList, core);
            cache(d + "cache/index2/", 2, "Unified", "1024K", coreList, core);
            cache(d + "cache/index3/", 3, "Unified", "32768K", llcList, llc);
        }
    }

    private static String range(int from, int n) {
        return n == 1 ? String.valueOf(from) : from + "-" + (from + n - 1);
    }

    private void cache(String dir, int level, String type, String size, String shared, int id) throws IOException {
        write(dir + "level", String.valueOf(level));
        write(dir + "type", type);
        write(dir + "size", size);
        write(dir + "coherency_line_size", "64");
        write(dir + "ways_of_associativity", "8");
        write(dir + "shared_cpu_list", shared);
        write(dir + "id", String.valueOf(id));
    }

    private void write(String file, String text) throws IOException {
        Path p = root.resolve(file);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text + "\n");
    }

    static List<String> javaCommand(Class<?> main, String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("--enable-native-access=ALL-UNNAMED");
        cmd.add("-XX:TieredStopAtLevel=1");
        cmd.add("-XX:+UseSerialGC");
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(main.getName());
        cmd.addAll(List.of(args));
        return cmd;
    }
}
