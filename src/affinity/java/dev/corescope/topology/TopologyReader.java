package dev.corescope.topology;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.cpumask.CpuMaskFormatException;
import dev.corescope.sys.internal.Os;
import dev.corescope.topology.proc.CgroupCpuset;
import dev.corescope.topology.proc.CpuInfo;
import dev.corescope.topology.proc.SysfsReader;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Builds a {@link Topology} from the files under a root, as the kernel documents them
 * ({@code Documentation/ABI/stable/sysfs-devices-system-cpu}, {@code admin-guide/cputopology.rst},
 * v6.16), with the fallbacks older kernels and other architectures need: without
 * {@code online}/{@code possible}/{@code present} (2.6-era trees), the {@code cpuN} directories less
 * those whose {@code cpuN/online} is 0. This class reads the CPU sets and assembles the model; its
 * sub-readers, sharing one {@link Reading}, read the rest (docs/architecture.md lists them).
 */
final class TopologyReader {

    static final String CPU = "sys/devices/system/cpu";
    static final String NODE = "sys/devices/system/node";

    /** The largest CONFIG_NR_CPUS a mainline kernel accepts (x86-64 with MAXSMP, powerpc). */
    static final int KERNEL_NR_CPUS_MAX = 8192;

    /** The most CPU numbers corescope reads from a tree: eight times {@link #KERNEL_NR_CPUS_MAX}. */
    static final int MAX_CPUS = SysfsReader.MAX_CPUS;

    /** At most this many "could not read" lines are kept; the rest are counted. */
    private static final int MAX_PROBLEM_LINES = 12;

    private final SysfsReader r;
    final Reading x;
    private final TopologyBuilder b = new TopologyBuilder();
    private final List<String> warnings;
    private int nbits;

    TopologyReader(SysfsReader reader) {
        this.r = reader;
        this.x = new Reading(reader);
        this.warnings = x.warnings;
    }

    static Topology read(Path root, boolean live) {
        return read(new SysfsReader(root), live);
    }

    static Topology read(SysfsReader reader, boolean live) {
        Path root = reader.root();
        if (live && !Files.isDirectory(root.resolve(CPU))) {
            // Not bad input but a machine without sysfs (a bare chroot or container): exit 1, not 2.
            throw new IllegalStateException(root.resolve(CPU) + ": missing, so the topology is not available"
                    + " (sysfs is not mounted here; mount -t sysfs sysfs /sys)");
        }
        checkRoot(root);
        return new TopologyReader(reader).build(root, live);
    }

    private static void checkRoot(Path root) {
        if (!Files.exists(root)) throw new IllegalArgumentException(root + ": no such directory");
        if (!Files.isDirectory(root)) throw new IllegalArgumentException(root + ": not a directory");
        if (!Files.isDirectory(root.resolve(CPU))) {
            throw new IllegalArgumentException(root + ": holds no " + CPU + " (not a saved sysfs tree; make one with 'capture')");
        }
    }

    Topology build(Path root, boolean live) {
        b.source = root.toString();
        List<Integer> cpuDirs = cpuDirectories();
        Map<String, Optional<String>> sets = new LinkedHashMap<>();
        for (String set : List.of("possible", "present", "online", "offline", "isolated", "nohz_full")) sets.put(set, r.read(CPU + "/" + set));

        int maxCpu = cpuDirs.isEmpty() ? 0 : cpuDirs.getLast();
        if (maxCpu >= MAX_CPUS) throw beyondLimit(root, CPU + "/cpu" + maxCpu, maxCpu);
        for (Map.Entry<String, Optional<String>> e : sets.entrySet()) {
            if (e.getValue().isEmpty()) continue;
            int last = SysfsReader.lastNumber(e.getValue().get());
            if (last >= MAX_CPUS) throw beyondLimit(root, CPU + "/" + e.getKey(), last);
            maxCpu = Math.max(maxCpu, last);
        }
        nbits = maxCpu + 1;
        b.nbits = nbits;
        x.nbits = nbits;

        CpuMask dirs = maskOf(cpuDirs);
        b.possible = parsedOr(sets, "possible", dirs, true);
        b.present = parsedOr(sets, "present", dirs, true);
        b.online = sets.get("online").isPresent() ? parsedOr(sets, "online", dirs, true) : onlineFromDirectories(cpuDirs);
        b.offline = sets.get("offline").isPresent() ? parsedOr(sets, "offline", CpuMask.empty(nbits), true) : b.possible.or(dirs).andNot(b.online);
        b.isolated = parsedOr(sets, "isolated", CpuMask.empty(nbits), false);
        b.nohzFull = parsedOr(sets, "nohz_full", CpuMask.empty(nbits), false);

        CpuMask noDir = b.online.andNot(dirs);
        if (!noDir.isEmpty()) warnings.add(Sizes.cpus(noDir) + (noDir.weight() == 1 ? " is online but has no " : " are online but have no ") + CPU + "/cpuN directory");

        x.online = b.online;
        CpuInfo cpuInfo = CpuInfo.read(r);
        b.cpuModel = cpuInfo.model();
        b.smtActive = smtActive().orElse(null);
        // the sub-readers, in this order (their warnings follow it): the tree, its caches, NUMA, core kinds
        List<NodeBuilder> roots = new CpuTreeReader(x, cpuInfo).read(b.online.andNot(noDir));
        CacheReader caches = new CacheReader(x);
        caches.read(b.online.andNot(noDir), roots, live);
        b.cacheSource = caches.source;
        b.machineCaches.addAll(caches.machineCaches());
        b.cacheLineSize = caches.lineSize();
        b.roots = NodeBuilder.finish(roots);
        b.numaNodes = new NumaReader(x).read();
        b.coreKinds = new CoreKindReader(x).read();
        b.cgroupCpuset = CgroupCpuset.read(r, nbits).orElse(null);
        // the kernel never allows a CPU beyond nr_cpu_ids, which sysfs already covers
        if (live) b.allowed = Os.live().processAllowed().resize(nbits);

        if (b.allowed != null && !b.allowed.sameCpus(b.online)) {
            warnings.add("allowed CPUs " + listOrNone(b.allowed) + " (sched_getaffinity) differ from online " + listOrNone(b.online)
                    + ": taskset, a container or a cgroup limits this process");
        }
        if (b.cgroupCpuset != null && !b.cgroupCpuset.cpus().sameCpus(b.online)) {
            warnings.add("the cgroup's cpuset " + listOrNone(b.cgroupCpuset.cpus()) + " differs from online " + listOrNone(b.online));
        }

        List<String> problems = r.problems();
        List<String> all = new ArrayList<>(problems.subList(0, Math.min(problems.size(), MAX_PROBLEM_LINES)));
        if (problems.size() > MAX_PROBLEM_LINES) {
            all.add("... and " + (problems.size() - MAX_PROBLEM_LINES) + " more files could not be read");
        }
        all.addAll(warnings);
        b.warnings = all;
        b.filesRead = r.filesRead();
        b.readRecorded = r.recordsFiles();
        b.dirsSeen = r.dirsSeen();
        b.unreadable = r.unreadable();
        return b.build();
    }

    private List<Integer> cpuDirectories() {
        List<Integer> out = new ArrayList<>();
        for (String name : r.list(CPU)) {
            if (name.length() > 3 && name.startsWith("cpu") && Reading.isDigits(name, 3) && r.isDirectory(CPU + "/" + name)) {
                try {
                    out.add(Integer.parseInt(name.substring(3)));
                } catch (NumberFormatException e) {
                    // a number too large for an int is no CPU of any kernel
                }
            }
        }
        out.sort(null);
        return out;
    }

    /** A CPU number no kernel builds for: refused before any mask is sized by it. */
    private static IllegalArgumentException beyondLimit(Path root, String rel, int cpu) {
        return new IllegalArgumentException(root.resolve(rel) + ": CPU " + (cpu >= 1 << 24 ? "16777216 or more" : cpu)
                + " is beyond " + (MAX_CPUS - 1) + ", the largest CPU number corescope reads (Linux builds for at most "
                + KERNEL_NR_CPUS_MAX + " CPUs)");
    }

    /** The set {@code cpu/NAME}, else {@code fallback} (with a warning where the file is expected to exist). */
    private CpuMask parsedOr(Map<String, Optional<String>> sets, String name, CpuMask fallback, boolean expected) {
        Optional<String> text = sets.get(name);
        String rel = CPU + "/" + name;
        if (text.isPresent()) {
            try {
                return SysfsReader.parseList(text.get(), nbits);
            } catch (IllegalArgumentException e) {
                // the path, never the content (a tree's file may be a link to anything)
                r.problem(rel, "not a CPU list" + (e instanceof CpuMaskFormatException f ? " (" + SysfsReader.contentFree(f) + ")" : ""));
            }
        } else if (expected) {
            warnings.add("no " + rel + ": " + name + " CPUs taken from the cpuN directories");
        }
        return fallback;
    }

    /** Before {@code cpu/online} existed, each hot-pluggable CPU had its own {@code online}; CPU 0 often has none. */
    private CpuMask onlineFromDirectories(List<Integer> cpuDirs) {
        CpuMask.Builder m = CpuMask.builder(nbits);
        for (int cpu : cpuDirs) {
            Optional<String> s = r.read(CPU + "/cpu" + cpu + "/online");
            if (s.isEmpty() || !s.get().equals("0")) m.set(cpu);
        }
        return m.build();
    }

    /** {@code smt/active} (v4.19+): whether the kernel has SMT siblings online; empty on older kernels. */
    private Optional<Boolean> smtActive() {
        return r.read(CPU + "/smt/active").map(String::strip).filter(v -> v.equals("0") || v.equals("1")).map(v -> v.equals("1"));
    }

    private CpuMask maskOf(List<Integer> cpus) {
        CpuMask.Builder m = CpuMask.builder(nbits);
        for (int c : cpus) m.set(c);
        return m.build();
    }

    static String listOrNone(CpuMask m) {
        return m.isEmpty() ? "(none)" : m.toList();
    }
}
