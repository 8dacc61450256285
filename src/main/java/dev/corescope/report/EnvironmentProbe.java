package dev.corescope.report;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.sys.Affinity;
import dev.corescope.sys.PerfCounters;
import dev.corescope.topology.proc.CgroupCpuset;
import dev.corescope.topology.proc.CpuInfo;
import dev.corescope.topology.Topology;
import dev.corescope.topology.TopologyNode;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Reads the {@link Environment} a run happened in from a root holding {@code proc/} and
 * {@code sys/} ({@code /} for this machine; a saved or hand-built tree in tests), plus the
 * {@link Facts} that only the running JVM knows. What is topology (the CPU model, the online,
 * isolated and nohz_full sets, SMT, the cgroup's cpuset) comes from the {@link Topology} of the
 * same root, read once by its one reader, so a results file and {@code topology} agree by
 * construction; this class adds what is not topology. {@link #start} takes a {@code /proc/stat}
 * snapshot; {@link #finish} takes another, so steal time and how busy the SMT siblings of
 * the pinned CPUs were are measured over the run, not guessed.
 *
 * <p>The cgroup is found as the JDK's container support finds it: the process's line in
 * {@code /proc/self/cgroup}, located under its mount from {@code /proc/self/mountinfo}; v2
 * ({@code cpu.max}, {@code cpuset.cpus.effective}) first, then v1 ({@code cpu.cfs_quota_us},
 * {@code cpuset.effective_cpus}). The tightest quota on the path up to the mount counts.
 */
public final class EnvironmentProbe {

    /** An SMT sibling busier than this during the run gets a warning. */
    static final double BUSY_SIBLING_PERCENT = 10.0;
    /** Parsing width for a cgroup's cpuset when there is no topology to size it: far above any NR_CPUS. */
    private static final int NBITS = 1 << 16;

    private final Path root;
    private final Facts facts;
    private final Topology topology;

    /**
     * What the JVM knows and no file says.
     *
     * @param allowed                the process's allowed CPUs; null when unknown
     * @param hardwareCountersReason null when hardware counters work, else why not
     */
    public record Facts(String jdk, List<String> jvmFlags, CpuMask allowed, String hardwareCountersReason) {

        /** This JVM and this process. */
        public static Facts live() {
            String jdk = System.getProperty("java.vendor", "?") + " " + System.getProperty("java.runtime.version", "?")
                    + " (" + System.getProperty("java.vm.name", "?") + ")";
            List<String> flags = ManagementFactory.getRuntimeMXBean().getInputArguments();
            return new Facts(jdk, flags, Affinity.processAllowed(), PerfCounters.hardwareUnavailableReason());
        }
    }

    /** The state at the start of a run. */
    public record Start(Instant at, Map<Integer, long[]> cpuTimes) {
    }

    /**
     * @param topology the topology read from the same root, or null when it could not be read
     *                 (no {@code sys/devices/system/cpu}): then what is topology stays unknown
     */
    public EnvironmentProbe(Path root, Facts facts, Topology topology) {
        this.root = root;
        this.facts = facts;
        this.topology = topology;
    }

    /** A saved or built tree, its topology read here. */
    public EnvironmentProbe(Path root, Facts facts) {
        this(root, facts, readTopology(root));
    }

    /** This machine and this JVM, with the topology the caller read of it. */
    public static EnvironmentProbe live(Topology topology) {
        return new EnvironmentProbe(Path.of("/"), Facts.live(), topology);
    }

    private static Topology readTopology(Path root) {
        try {
            return Topology.read(root);
        } catch (RuntimeException e) {
            return null;
        }
    }

    public Start start(Instant now) {
        return new Start(now, readCpuTimes());
    }

    /**
     * The environment of a run from {@code start} to {@code now}, with warnings;
     * {@code pinned} are the CPUs the measuring threads were pinned to (null: none known).
     */
    public Environment finish(Start start, Instant now, CpuMask pinned) {
        Map<Integer, long[]> endTimes = readCpuTimes();
        CpuInfo cpuinfo = CpuInfo.read(root);
        CpuMask online = topology == null ? null : topology.online();
        // An absent isolated or nohz_full file means the kernel has none of them: "", not unknown.
        String isolated = topology == null ? null : topology.isolated().toList();
        String nohzFull = topology == null ? null : topology.nohzFull().toList();
        Boolean smt = topology == null ? null : topology.smt().orElse(null);
        String cpuModel = topology == null ? cpuinfo.model() : topology.cpuModel().orElse(null);
        Cgroup cg = readCgroup();
        Governors gov = readGovernors(online, cpuinfo);
        String hypervisor = hypervisor(cpuinfo);
        Double steal = stealPercent(start.cpuTimes(), endTimes);

        List<String> warnings = new ArrayList<>();
        if (gov.governor != null && !gov.governor.equals("performance")) {
            warnings.add("the cpufreq governor is " + gov.governor + ", not performance: the clock moves with load, and so do the numbers");
        }
        if (facts.allowed() != null && online != null && facts.allowed().weight() < online.weight()) {
            warnings.add("only CPUs " + facts.allowed().toList() + " of the online " + online.toList()
                    + " are allowed (affinity or cpuset): the benchmarks see part of the machine");
        }
        if (cg.quotaCpus != null) {
            warnings.add(String.format(Locale.ROOT, "a CPU quota of %.2f CPUs (%s): threads are throttled when it runs out", cg.quotaCpus, cg.quotaSource));
        }
        if (pinned != null && !pinned.isEmpty()) warnings.addAll(busySiblings(pinned, start.cpuTimes(), endTimes));
        if (hypervisor != null) {
            warnings.add("running under a hypervisor, " + hypervisor + ": vCPUs are threads on the host, shared with other guests"
                    + (steal == null ? "" : String.format(Locale.ROOT, "; %.1f%% of CPU time was stolen during the run", steal)));
        }

        return new Environment(cpuModel, kernel(), facts.jdk(), facts.jvmFlags(),
                facts.allowed() == null ? null : facts.allowed().toList(),
                online == null ? null : online.toList(),
                isolated, nohzFull, smt, cg.cpuset, cg.quota, gov.governor, gov.frequency, hypervisor,
                facts.hardwareCountersReason() == null, start.at().toString(), now.toString(), List.copyOf(warnings),
                facts.hardwareCountersReason(), cg.quotaCpus, steal,
                pinned == null || pinned.isEmpty() ? null : pinned.toList(), cg.path);
    }

    // ---- kernel -------------------------------------------------------------------------

    private String kernel() {
        String release = read("proc/sys/kernel/osrelease");
        if (release != null) {
            String type = Optional.ofNullable(read("proc/sys/kernel/ostype")).orElse("Linux");
            return type.strip() + " " + release.strip();
        }
        String version = read("proc/version");
        if (version == null) return null;
        String[] words = version.strip().split("\\s+");
        return words.length >= 3 ? words[0] + " " + words[2] : version.strip();
    }

    // ---- SMT ----------------------------------------------------------------------------

    /** The CPUs of {@code cpu}'s core in the topology, or null when it describes none. */
    private CpuMask siblings(int cpu) {
        if (topology == null) return null;
        return topology.nodeOf(TopologyNode.Kind.CORE, cpu).map(TopologyNode::cpus).orElse(null);
    }

    private List<String> busySiblings(CpuMask pinned, Map<Integer, long[]> before, Map<Integer, long[]> after) {
        List<String> out = new ArrayList<>();
        TreeSet<Integer> seen = new TreeSet<>();
        for (int cpu : pinned.toArray()) {
            CpuMask siblings = siblings(cpu);
            if (siblings == null) continue;
            for (int sib : siblings.toArray()) {
                if (sib == cpu || pinned.test(sib) || !seen.add(sib)) continue;
                Double busy = busyPercent(before.get(sib), after.get(sib));
                if (busy != null && busy > BUSY_SIBLING_PERCENT) {
                    out.add(String.format(Locale.ROOT,
                            "CPU %d, the SMT sibling of pinned CPU %d, was %.0f%% busy during the run: the two share one core's execution units",
                            sib, cpu, busy));
                }
            }
        }
        return out;
    }

    // ---- /proc/stat ---------------------------------------------------------------------

    /** Per CPU (and -1 for the {@code cpu} total line): user nice system idle iowait irq softirq steal, in ticks. */
    private Map<Integer, long[]> readCpuTimes() {
        Map<Integer, long[]> times = new TreeMap<>();
        String text = read("proc/stat");
        if (text == null) return times;
        for (String line : text.split("\n")) {
            if (!line.startsWith("cpu")) continue;
            String[] f = line.trim().split("\\s+");
            int cpu;
            if (f[0].equals("cpu")) {
                cpu = -1;
            } else {
                try {
                    cpu = Integer.parseInt(f[0].substring(3));
                } catch (NumberFormatException e) {
                    continue;
                }
            }
            long[] v = new long[8];
            for (int i = 0; i < v.length && i + 1 < f.length; i++) {
                try {
                    v[i] = Long.parseLong(f[i + 1]);
                } catch (NumberFormatException e) {
                    v[i] = 0;
                }
            }
            times.put(cpu, v);
        }
        return times;
    }

    private static Double busyPercent(long[] before, long[] after) {
        if (before == null || after == null) return null;
        long total = 0;
        long idle = 0;
        for (int i = 0; i < 8; i++) total += after[i] - before[i];
        idle += (after[3] - before[3]) + (after[4] - before[4]);
        if (total <= 0) return null;
        return 100.0 * (total - idle) / total;
    }

    private static Double stealPercent(Map<Integer, long[]> before, Map<Integer, long[]> after) {
        long[] b = before.get(-1);
        long[] a = after.get(-1);
        if (b == null || a == null) return null;
        long total = 0;
        for (int i = 0; i < 8; i++) total += a[i] - b[i];
        if (total <= 0) return null;
        return Math.round(10_000.0 * (a[7] - b[7]) / total) / 100.0;
    }

    // ---- cgroup -------------------------------------------------------------------------

    private record Cgroup(String path, String cpuset, String quota, Double quotaCpus, String quotaSource) {
    }

    private record Mount(String root, Path point, String fsType, List<String> options) {
    }

    private Cgroup readCgroup() {
        String self = read("proc/self/cgroup");
        if (self == null) return new Cgroup(null, null, null, null, null);
        String v2Path = null;
        Map<String, String> v1Paths = new LinkedHashMap<>();
        for (String line : self.split("\n")) {
            String[] f = line.split(":", 3);
            if (f.length < 3) continue;
            if (f[0].equals("0") && f[1].isEmpty()) {
                v2Path = f[2].strip();
            } else {
                for (String controller : f[1].split(",")) v1Paths.put(controller, f[2].strip());
            }
        }
        List<Mount> mounts = readMounts();
        List<String> paths = new ArrayList<>();

        Optional<CgroupCpuset> cs = topology != null ? topology.cgroupCpuset() : CgroupCpuset.read(root, NBITS);
        String cpuset = cs.map(c -> c.cpus().toList()).orElse(null);
        cs.ifPresent(c -> paths.add(c.cgroup()));
        String quota = null;
        Double quotaCpus = null;
        String quotaSource = null;

        Path v2Dir = v2Path == null ? null : locate(mounts, "cgroup2", null, v2Path);
        if (v2Dir != null) {
            Quota q = tightestQuota(v2Dir, mounts, "cgroup2", null, dir -> {
                String max = readAbs(dir.resolve("cpu.max"));
                if (max == null) return null;
                String[] w = max.strip().split("\\s+");
                if (w.length < 2) return null;
                if (w[0].equals("max")) return new Quota(Double.POSITIVE_INFINITY, "cpu.max " + max.strip());
                return new Quota(Double.parseDouble(w[0]) / Double.parseDouble(w[1]), "cgroup v2 cpu.max " + max.strip());
            });
            if (q != null) {
                quota = q.cpus.isInfinite() ? "none" : describe(q);
                quotaCpus = q.cpus.isInfinite() ? null : q.cpus;
                quotaSource = q.source;
            }
            if (quota != null && !paths.contains(v2Path)) paths.add(v2Path);
        }
        if (quota == null && v1Paths.containsKey("cpu")) {
            Path dir = locate(mounts, "cgroup", "cpu", v1Paths.get("cpu"));
            if (dir != null) {
                Quota q = tightestQuota(dir, mounts, "cgroup", "cpu", d -> {
                    String qs = readAbs(d.resolve("cpu.cfs_quota_us"));
                    String ps = readAbs(d.resolve("cpu.cfs_period_us"));
                    if (qs == null || ps == null) return null;
                    long qv = Long.parseLong(qs.strip());
                    long pv = Long.parseLong(ps.strip());
                    if (qv < 0) return new Quota(Double.POSITIVE_INFINITY, "cpu.cfs_quota_us -1");
                    return new Quota((double) qv / pv, "cgroup v1 cpu.cfs_quota_us " + qv + " / cpu.cfs_period_us " + pv);
                });
                if (q != null) {
                    quota = q.cpus.isInfinite() ? "none" : describe(q);
                    quotaCpus = q.cpus.isInfinite() ? null : q.cpus;
                    quotaSource = q.source;
                    paths.add("cpu:" + v1Paths.get("cpu"));
                }
            }
        }
        return new Cgroup(paths.isEmpty() ? null : String.join(", ", paths), cpuset, quota, quotaCpus, quotaSource);
    }

    private record Quota(Double cpus, String source) {
    }

    private static String describe(Quota q) {
        return String.format(Locale.ROOT, "%.2f CPUs (%s)", q.cpus, q.source);
    }

    private interface QuotaReader {
        Quota read(Path dir);
    }

    /** The smallest quota from {@code dir} up to its mount point: a parent's limit binds its children. */
    private Quota tightestQuota(Path dir, List<Mount> mounts, String fsType, String controller, QuotaReader reader) {
        Path stop = mountPointOf(dir, mounts, fsType, controller);
        Quota best = null;
        for (Path d = dir; d != null; d = d.getParent()) {
            Quota q;
            try {
                q = reader.read(d);
            } catch (NumberFormatException e) {
                q = null;
            }
            if (q != null && (best == null || q.cpus < best.cpus)) best = q;
            if (stop == null || d.equals(stop)) break;
        }
        return best;
    }

    private Path mountPointOf(Path dir, List<Mount> mounts, String fsType, String controller) {
        Path best = null;
        for (Mount m : mounts) {
            if (!matches(m, fsType, controller)) continue;
            if (dir.startsWith(m.point) && (best == null || m.point.getNameCount() > best.getNameCount())) best = m.point;
        }
        return best;
    }

    private static boolean matches(Mount m, String fsType, String controller) {
        return m.fsType.equals(fsType) && (controller == null || m.options.contains(controller));
    }

    /** The directory of cgroup {@code path} under its mount, or null when it is not there. */
    private Path locate(List<Mount> mounts, String fsType, String controller, String path) {
        List<Path> candidates = new ArrayList<>();
        for (Mount m : mounts) {
            if (!matches(m, fsType, controller)) continue;
            String rel = path;
            if (!m.root.equals("/") && (rel.equals(m.root) || rel.startsWith(m.root + "/"))) rel = rel.substring(m.root.length());
            candidates.add(under(m.point, rel));
            candidates.add(m.point);
        }
        if (mounts.isEmpty()) {
            Path base = root.resolve("sys/fs/cgroup");
            if (fsType.equals("cgroup2")) {
                candidates.add(under(base, path));
                candidates.add(under(base.resolve("unified"), path));
            } else {
                candidates.add(under(base.resolve(controller), path));
                candidates.add(under(base.resolve("cpu,cpuacct"), path));
            }
        }
        for (Path c : candidates) if (Files.isDirectory(c)) return c;
        return null;
    }

    private static Path under(Path base, String rel) {
        String r = rel.startsWith("/") ? rel.substring(1) : rel;
        return r.isEmpty() ? base : base.resolve(r);
    }

    private List<Mount> readMounts() {
        List<Mount> mounts = new ArrayList<>();
        String text = read("proc/self/mountinfo");
        if (text == null) return mounts;
        for (String line : text.split("\n")) {
            int dash = line.indexOf(" - ");
            if (dash < 0) continue;
            String[] pre = line.substring(0, dash).split(" ");
            String[] post = line.substring(dash + 3).split(" ");
            if (pre.length < 5 || post.length < 3) continue;
            String fsType = post[0];
            if (!fsType.equals("cgroup") && !fsType.equals("cgroup2")) continue;
            Path point = under(root, unescape(pre[4]));
            mounts.add(new Mount(unescape(pre[3]), point, fsType, List.of(post[2].split(","))));
        }
        return mounts;
    }

    /** mountinfo escapes space, tab, newline and backslash as octal. */
    private static String unescape(String s) {
        return s.replace("\\040", " ").replace("\\011", "\t").replace("\\012", "\n").replace("\\134", "\\");
    }

    // ---- cpufreq ------------------------------------------------------------------------

    private record Governors(String governor, Map<String, Object> frequency) {
    }

    private Governors readGovernors(CpuMask online, CpuInfo cpuinfo) {
        TreeMap<String, TreeSet<Integer>> byGovernor = new TreeMap<>();
        List<Double> mhz = new ArrayList<>();
        String source = null;
        int[] cpus = online == null ? new int[0] : online.toArray();
        for (int cpu : cpus) {
            String dir = "sys/devices/system/cpu/cpu" + cpu + "/cpufreq/";
            String g = read(dir + "scaling_governor");
            if (g != null) byGovernor.computeIfAbsent(g.strip(), k -> new TreeSet<>()).add(cpu);
            String cur = read(dir + "scaling_cur_freq");
            if (cur != null) {
                try {
                    mhz.add(Long.parseLong(cur.strip()) / 1000.0);
                    source = "cpufreq scaling_cur_freq";
                } catch (NumberFormatException ignored) {
                    // a driver that prints "<unknown>" has no current frequency
                }
            }
        }
        if (mhz.isEmpty() && !cpuinfo.mhz().isEmpty()) {
            mhz.addAll(cpuinfo.mhz());
            source = "/proc/cpuinfo cpu MHz";
        }
        String governor = byGovernor.isEmpty() ? null : String.join(",", byGovernor.keySet());
        Map<String, Object> freq = null;
        if (!mhz.isEmpty()) {
            freq = new LinkedHashMap<>();
            freq.put("lowest", round1(mhz.stream().mapToDouble(Double::doubleValue).min().orElseThrow()));
            freq.put("mean", round1(mhz.stream().mapToDouble(Double::doubleValue).average().orElseThrow()));
            freq.put("highest", round1(mhz.stream().mapToDouble(Double::doubleValue).max().orElseThrow()));
            freq.put("source", source);
        }
        return new Governors(governor, freq);
    }

    private static double round1(double v) {
        return Math.round(v * 10) / 10.0;
    }

    // ---- hypervisor ---------------------------------------------------------------------

    private String hypervisor(CpuInfo cpuinfo) {
        String type = read("sys/hypervisor/type");
        if (type != null && !type.isBlank()) return type.strip();
        if (!cpuinfo.flags().contains("hypervisor")) return null;
        String vendor = Optional.ofNullable(read("sys/class/dmi/id/sys_vendor")).map(String::strip).orElse(null);
        String product = Optional.ofNullable(read("sys/class/dmi/id/product_name")).map(String::strip).orElse(null);
        String clock = Optional.ofNullable(read("sys/devices/system/clocksource/clocksource0/current_clocksource")).map(String::strip).orElse("");
        if (product != null && !product.isBlank()) return (vendor == null ? "" : vendor + " ") + product;
        if (clock.startsWith("kvm")) return "KVM (kvm-clock)";
        if (clock.startsWith("hyperv")) return "Hyper-V (" + clock + ")";
        if (clock.startsWith("xen")) return "Xen (" + clock + ")";
        return "vendor unknown (cpuinfo flag 'hypervisor')";
    }

    // ---- files --------------------------------------------------------------------------

    private String read(String rel) {
        return readAbs(root.resolve(rel));
    }

    private static String readAbs(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
