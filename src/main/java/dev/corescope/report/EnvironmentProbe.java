package dev.corescope.report;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.sys.PerfCounters;
import dev.corescope.sys.internal.Affinity;
import dev.corescope.topology.Topology;
import dev.corescope.topology.TopologyNode;
import dev.corescope.topology.proc.CgroupCpuset;
import dev.corescope.topology.proc.CgroupQuota;
import dev.corescope.topology.proc.CpuInfo;
import dev.corescope.topology.proc.CpuTimes;
import dev.corescope.topology.proc.SysfsReader;

import java.lang.management.ManagementFactory;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
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

    private final SysfsReader r;
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
    public record Start(Instant at, CpuTimes cpuTimes) {
    }

    /**
     * @param topology the topology read from the same root, or null when it could not be read
     *                 (no {@code sys/devices/system/cpu}): then what is topology stays unknown
     */
    public EnvironmentProbe(Path root, Facts facts, Topology topology) {
        this(new SysfsReader(root), facts, topology);
    }

    /** Reading through {@code reader}, whose record of files read {@code capture} saves. */
    public EnvironmentProbe(SysfsReader reader, Facts facts, Topology topology) {
        this.r = reader;
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
        CpuTimes endTimes = readCpuTimes();
        CpuInfo cpuinfo = CpuInfo.read(r);
        CpuMask online = topology == null ? null : topology.online();
        // An absent isolated or nohz_full file means the kernel has none of them: "", not unknown.
        String isolated = topology == null ? null : topology.isolated().toList();
        String nohzFull = topology == null ? null : topology.nohzFull().toList();
        Boolean smt = topology == null ? null : topology.smt().orElse(null);
        String cpuModel = topology == null ? cpuinfo.model() : topology.cpuModel().orElse(null);
        Cgroup cg = readCgroup();
        Governors gov = readGovernors(online, cpuinfo);
        String hypervisor = hypervisor(cpuinfo);
        Double steal = start.cpuTimes() == null || endTimes == null ? null
                : boxed(endTimes.totalStealPercentSince(start.cpuTimes()));

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

    private List<String> busySiblings(CpuMask pinned, CpuTimes before, CpuTimes after) {
        List<String> out = new ArrayList<>();
        if (before == null || after == null) return out;
        TreeSet<Integer> seen = new TreeSet<>();
        for (int cpu : pinned.toArray()) {
            CpuMask siblings = siblings(cpu);
            if (siblings == null) continue;
            for (int sib : siblings.toArray()) {
                if (sib == cpu || pinned.test(sib) || !seen.add(sib)) continue;
                OptionalDouble busy = after.busyPercentSince(before, sib);
                if (busy.isPresent() && busy.getAsDouble() > BUSY_SIBLING_PERCENT) {
                    out.add(String.format(Locale.ROOT,
                            "CPU %d, the SMT sibling of pinned CPU %d, was %.0f%% busy during the run: the two share one core's execution units",
                            sib, cpu, busy.getAsDouble()));
                }
            }
        }
        return out;
    }

    // ---- /proc/stat ---------------------------------------------------------------------

    /** The CPU times now; null when {@code /proc/stat} cannot be read. */
    private CpuTimes readCpuTimes() {
        return CpuTimes.read(r).orElse(null);
    }

    private static Double boxed(OptionalDouble d) {
        return d.isPresent() ? d.getAsDouble() : null;
    }

    // ---- cgroup -------------------------------------------------------------------------

    private record Cgroup(String path, String cpuset, String quota, Double quotaCpus, String quotaSource) {
    }

    /** The cgroup's cpuset (from the topology when there is one) and its CPU quota ({@link CgroupQuota}). */
    private Cgroup readCgroup() {
        if (r.read(CgroupCpuset.FILE).isEmpty()) return new Cgroup(null, null, null, null, null);
        List<String> paths = new ArrayList<>();
        Optional<CgroupCpuset> cs = topology != null ? topology.cgroupCpuset() : CgroupCpuset.read(r, NBITS);
        String cpuset = cs.map(c -> c.cpus().toList()).orElse(null);
        cs.ifPresent(c -> paths.add(c.cgroup()));
        Optional<CgroupQuota> q = CgroupQuota.read(r);
        q.ifPresent(x -> {
            if (!paths.contains(x.cgroup())) paths.add(x.cgroup());
        });
        return new Cgroup(paths.isEmpty() ? null : String.join(", ", paths), cpuset,
                q.map(CgroupQuota::describe).orElse(null),
                q.filter(CgroupQuota::limited).map(CgroupQuota::cpus).orElse(null),
                q.map(CgroupQuota::source).orElse(null));
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

    // ---- files ----------------------------------------------------------------------------

    /** The file's text through the capped reader (so {@code capture} saves it), or null when absent. */
    private String read(String rel) {
        return r.read(rel).orElse(null);
    }
}
