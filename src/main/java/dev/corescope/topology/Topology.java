package dev.corescope.topology;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.topology.proc.CgroupCpuset;
import dev.corescope.topology.proc.SysfsReader;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A machine's CPU topology as Linux describes it in sysfs: the tree Package &gt; Die &gt;
 * Cluster &gt; Core &gt; PU with its caches, the NUMA nodes, the core kinds, and the kernel's CPU
 * sets (online, offline, possible, present, isolated, nohz_full), plus, for the live machine,
 * the CPUs this process may run on.
 *
 * <p>Only online CPUs are in the tree and the counts; offline ones are listed in
 * {@link #offline()}. What could not be read, or had to be assumed, is in {@link #warnings()};
 * it never makes reading fail. Immutable and safe to share.
 *
 * <p>Build it with {@link #read(Path)} (a saved tree such as an unpacked {@code capture}) or
 * {@link #live()}.
 */
public final class Topology {

    /** Assumed when no L1d reports its {@code coherency_line_size}: every x86-64 and most Arm cores. */
    public static final int DEFAULT_CACHE_LINE = 64;

    /**
     * The summary counts of CONTRACT.md's {@code summary}: online objects only.
     *
     * @param packages sockets (physical packages)
     * @param dies dies the kernel numbers; 0 where it does not
     * @param clusters clusters the kernel describes; 0 where it does not
     * @param cores physical cores
     * @param pus logical CPUs (processing units, SMT threads)
     * @param numaNodes NUMA nodes with an online CPU
     */
    public record Summary(int packages, int dies, int clusters, int cores, int pus, int numaNodes) {
    }

    /**
     * One line of CONTRACT.md's {@code caches}: the instances of one (level, type, size).
     *
     * @param level 1, 2, 3, ...
     * @param type data, instruction or unified
     * @param sizeBytes the size of one instance, in bytes (-1 when unknown)
     * @param lineSize the line size in bytes (-1 when unknown)
     * @param ways the associativity (-1 when unknown, 0 for fully associative)
     * @param count how many instances the machine has
     */
    public record CacheGroup(int level, Cache.Type type, long sizeBytes, int lineSize, int ways, int count) {
        /**
         * The usual short name.
         *
         * @return {@code L1d}, {@code L1i}, {@code L2}, {@code L3}, ...
         */
        public String name() {
            return "L" + level + (type == Cache.Type.DATA ? "d" : type == Cache.Type.INSTRUCTION ? "i" : "");
        }
    }

    private final String source;
    private final String cpuModel;
    private final int nbits;
    private final CpuMask online;
    private final CpuMask offline;
    private final CpuMask possible;
    private final CpuMask present;
    private final CpuMask isolated;
    private final CpuMask nohzFull;
    private final CpuMask allowed;
    private final CgroupCpuset cgroupCpuset;
    private final Boolean smtActive;
    private final List<TopologyNode> roots;
    private final List<Cache> machineCaches;
    private final List<NumaNode> numaNodes;
    private final List<CoreKind> coreKinds;
    private final int cacheLineSize;
    private final String cacheSource;
    private final List<String> warnings;
    private final Map<String, byte[]> filesRead;
    private final boolean readRecorded;
    private final List<String> dirsSeen;
    private final List<String> unreadable;

    private final List<TopologyNode> packages;
    private final List<TopologyNode> dies;
    private final List<TopologyNode> clusters;
    private final List<TopologyNode> cores;
    private final List<TopologyNode> pus;
    private final List<Cache> caches;
    private final PlaceIndex index;

    /**
     * The longest name kept from an input (the CPU model, a cgroup, a core kind): /proc/cpuinfo's
     * {@code model name} is at most 64 bytes (x86's brand string 48); a longer one is cut, as
     * {@link dev.corescope.text.Shorten#end} cuts, whichever reader it came from.
     */
    public static final int MAX_NAME = 200;

    Topology(Builder b) {
        this.source = b.source;
        this.cpuModel = dev.corescope.text.Shorten.end(b.cpuModel, MAX_NAME);
        this.nbits = b.nbits;
        this.online = b.online;
        this.offline = b.offline;
        this.possible = b.possible;
        this.present = b.present;
        this.isolated = b.isolated;
        this.nohzFull = b.nohzFull;
        this.allowed = b.allowed;
        this.cgroupCpuset = b.cgroupCpuset;
        this.smtActive = b.smtActive;
        this.roots = List.copyOf(b.roots);
        this.machineCaches = List.copyOf(b.machineCaches);
        this.numaNodes = List.copyOf(b.numaNodes);
        this.coreKinds = List.copyOf(b.coreKinds);
        this.cacheLineSize = b.cacheLineSize;
        this.cacheSource = b.cacheSource;
        this.warnings = List.copyOf(b.warnings);
        this.filesRead = b.filesRead.isEmpty() ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(b.filesRead));
        this.readRecorded = b.readRecorded;
        this.dirsSeen = List.copyOf(b.dirsSeen);
        this.unreadable = List.copyOf(b.unreadable);

        Map<TopologyNode.Kind, List<TopologyNode>> byKind = new LinkedHashMap<>();
        for (TopologyNode.Kind k : TopologyNode.Kind.values()) byKind.put(k, new ArrayList<>());
        List<Cache> all = new ArrayList<>(machineCaches);
        for (TopologyNode r : roots) collect(r, byKind, all);
        for (List<TopologyNode> l : byKind.values()) l.sort(TopologyNode.BY_FIRST_CPU);
        all.sort(Cache.ORDER);
        this.packages = List.copyOf(byKind.get(TopologyNode.Kind.PACKAGE));
        this.dies = List.copyOf(byKind.get(TopologyNode.Kind.DIE));
        this.clusters = List.copyOf(byKind.get(TopologyNode.Kind.CLUSTER));
        this.cores = List.copyOf(byKind.get(TopologyNode.Kind.CORE));
        this.pus = List.copyOf(byKind.get(TopologyNode.Kind.PU));
        this.caches = List.copyOf(all);
        this.index = new PlaceIndex(this);
    }

    private static void collect(TopologyNode n, Map<TopologyNode.Kind, List<TopologyNode>> byKind, List<Cache> caches) {
        byKind.get(n.kind()).add(n);
        caches.addAll(n.caches());
        for (TopologyNode c : n.children()) collect(c, byKind, caches);
    }

    // ---- factories ---------------------------------------------------------------------

    /**
     * Reads a saved tree: {@code root} holds {@code sys/} and {@code proc/} as on a real machine
     * (an unpacked {@code capture}, or a tree from hwloc's test suite). {@link #allowed()} is
     * empty: a saved tree has no process to ask.
     *
     * @param root the directory holding {@code sys/} (and optionally {@code proc/})
     * @return the topology; what could not be read is in {@link #warnings()}
     * @throws IllegalArgumentException with a one-line reason when {@code root} does not exist,
     *                                  is not a directory, or holds no {@code sys/devices/system/cpu}
     */
    public static Topology read(Path root) {
        return TopologyReader.read(root, false);
    }

    /**
     * Reads this machine from {@code /}, with the CPUs this process may run on
     * ({@code sched_getaffinity}) and the cgroup's cpuset. Reads a few hundred small files:
     * read it once and keep it (the machine's topology changes only with CPU hotplug).
     *
     * @return this machine's topology
     */
    public static Topology live() {
        return TopologyReader.read(Path.of("/"), true);
    }

    /**
     * Reads through {@code reader} (its root; live when the root is {@code /}), so that what the
     * topology read is in the reader's record beside what other parsers read with it:
     * {@code capture} saves that record.
     *
     * @param reader the reader to read through, not null
     * @return the topology
     * @throws IllegalArgumentException as {@link #read(Path)}
     */
    public static Topology read(SysfsReader reader) {
        return TopologyReader.read(reader, reader.root().equals(Path.of("/")));
    }

    // ---- accessors ---------------------------------------------------------------------

    /**
     * The root it was read from.
     *
     * @return the path as text; {@code /} for the live machine
     */
    public String source() {
        return source;
    }

    /**
     * {@code model name} of /proc/cpuinfo (or its Arm/other spellings).
     *
     * @return the model, or empty when the tree has no /proc/cpuinfo or it names none
     */
    public Optional<String> cpuModel() {
        return Optional.ofNullable(cpuModel);
    }

    /**
     * Bits in every mask of this topology: the highest CPU number known + 1.
     *
     * @return at least 1
     */
    public int nbits() {
        return nbits;
    }

    /**
     * The online CPUs ({@code cpu/online}): those in the tree and the counts.
     *
     * @return a mask of {@link #nbits()} bits
     */
    public CpuMask online() {
        return online;
    }

    /**
     * The CPUs possible but not online: not in the tree.
     *
     * @return a mask of {@link #nbits()} bits, often empty
     */
    public CpuMask offline() {
        return offline;
    }

    /**
     * The possible CPUs ({@code cpu/possible}): every CPU number the kernel could bring online.
     *
     * @return a mask of {@link #nbits()} bits
     */
    public CpuMask possible() {
        return possible;
    }

    /**
     * The present CPUs ({@code cpu/present}).
     *
     * @return a mask of {@link #nbits()} bits
     */
    public CpuMask present() {
        return present;
    }

    /**
     * The CPUs the kernel isolated from the scheduler ({@code cpu/isolated}, {@code isolcpus=}).
     * A JVM started normally does not have them in its mask: see
     * {@code affinity.ThreadAffinity.pinnable()}.
     *
     * @return a mask of {@link #nbits()} bits; empty when the kernel has none or no such file
     */
    public CpuMask isolated() {
        return isolated;
    }

    /**
     * The CPUs without the scheduler tick when one task runs ({@code cpu/nohz_full}).
     *
     * @return a mask of {@link #nbits()} bits; empty when the kernel has none or no such file
     */
    public CpuMask nohzFull() {
        return nohzFull;
    }

    /**
     * The CPUs the thread that read the topology could run on ({@code sched_getaffinity}).
     *
     * @return the mask, for {@link #live()}, or the writing process's for hwloc XML that corescope
     *         wrote ({@link HwlocXmlWriter#INFO_AFFINITY}); empty for a saved tree and other XML
     */
    public Optional<CpuMask> allowed() {
        return Optional.ofNullable(allowed);
    }

    /**
     * The cgroup's {@code cpuset.cpus.effective} (v2) or {@code cpuset.effective_cpus} (v1).
     *
     * @return the CPUs, or empty when the process's cgroup (or the saved tree) has no cpuset
     */
    public Optional<CpuMask> cgroupCpus() {
        return cgroupCpuset().map(CgroupCpuset::cpus);
    }

    /**
     * The cgroup's cpuset with the cgroup it came from.
     *
     * @return the cpuset, or empty when the process is in no cgroup with a cpuset
     */
    public Optional<CgroupCpuset> cgroupCpuset() {
        return Optional.ofNullable(cgroupCpuset);
    }

    /**
     * The CPUs chosen for this process when none is named ({@link UsableCpus#usable()}): the
     * online CPUs of its start mask, plus the isolated and {@code nohz_full} CPUs its cgroup's
     * cpuset allows.
     *
     * @return a mask of at least {@link #nbits()} bits; for a saved tree, what a process started
     *         normally there could use
     */
    public CpuMask usable() {
        return UsableCpus.of(this).usable();
    }

    /**
     * The top of the tree.
     *
     * @return the packages, or the PUs directly when the tree has no topology files; unmodifiable
     */
    public List<TopologyNode> roots() {
        return roots;
    }

    /**
     * The packages (sockets), by {@code physical_package_id}.
     *
     * @return an unmodifiable list, empty when the tree has no topology files
     */
    public List<TopologyNode> packages() {
        return packages;
    }

    /**
     * Dies where the kernel numbers them ({@code die_id} &ge; 0).
     *
     * @return an unmodifiable list; empty where the kernel does not number dies
     */
    public List<TopologyNode> dies() {
        return dies;
    }

    /**
     * Clusters where the kernel describes them ({@code cluster_cpus}, {@code cluster_id} not -1).
     *
     * @return an unmodifiable list; empty where the kernel has no clusters
     */
    public List<TopologyNode> clusters() {
        return clusters;
    }

    /**
     * The physical cores with an online PU, in package order.
     *
     * @return an unmodifiable list
     */
    public List<TopologyNode> cores() {
        return cores;
    }

    /**
     * The online logical CPUs, by number.
     *
     * @return an unmodifiable list of {@code online().weight()} nodes
     */
    public List<TopologyNode> pus() {
        return pus;
    }

    /**
     * Every cache instance, by level, type and first CPU.
     *
     * @return an unmodifiable list; empty when the tree has no {@code cache/} directories
     */
    public List<Cache> caches() {
        return caches;
    }

    /**
     * Caches shared across packages (rare), which hang on the machine rather than on a package.
     *
     * @return an unmodifiable list, usually empty
     */
    public List<Cache> machineCaches() {
        return machineCaches;
    }

    /**
     * The NUMA nodes with an online CPU ({@code sys/devices/system/node}).
     *
     * @return an unmodifiable list; empty when the tree has no node directories
     */
    public List<NumaNode> numaNodes() {
        return numaNodes;
    }

    /**
     * The kinds of core on a machine whose cores are not all alike (P- and E-cores, big.LITTLE),
     * from the hybrid PMUs, {@code cpu_capacity} or cpufreq (see {@link CoreKind}).
     *
     * @return an unmodifiable list; one kind, or none, on a uniform machine
     */
    public List<CoreKind> coreKinds() {
        return coreKinds;
    }

    /**
     * {@code coherency_line_size} of the first L1d.
     *
     * @return bytes; {@link #DEFAULT_CACHE_LINE} (with a warning) when unknown
     */
    public int cacheLineSize() {
        return cacheLineSize;
    }

    /**
     * Where {@link #caches()} came from.
     *
     * @return {@code sysfs} ({@code cpuN/cache/}, or hwloc XML's caches), {@code cpuid} (the CPUID
     *         instruction, where sysfs has no {@code cache/}; replayed from a saved tree's
     *         {@code cpuid/leaves}) or {@code none}
     */
    public String cacheSource() {
        return cacheSource;
    }

    /**
     * What could not be read or had to be assumed, one line each ("could not read ...").
     *
     * @return an unmodifiable list, empty on a complete tree; the lines may hold text from the
     *         tree's files: escape them before printing to a terminal
     */
    public List<String> warnings() {
        return warnings;
    }

    /**
     * The files read, in reading order: what {@code capture} saves. Empty when read through a
     * reader that records nothing ({@link SysfsReader#unrecorded}).
     *
     * @return paths relative to the root, such as {@code sys/devices/system/cpu/online}
     */
    public List<String> filesRead() {
        return List.copyOf(filesRead.keySet());
    }

    /** The bytes of each file as they were read, for {@link Capture}: a capture holds what this report was made from. */
    Map<String, byte[]> fileContents() {
        return filesRead;
    }

    /** Whether the reader recorded the files it read (false for {@link SysfsReader#unrecorded}): {@link Capture} reads again when not. */
    boolean readRecorded() {
        return readRecorded;
    }

    /**
     * The directories looked into: capture keeps them even when nothing in them was read.
     *
     * @return paths relative to the root
     */
    public List<String> directoriesSeen() {
        return dirsSeen;
    }

    /**
     * Files that exist but could not be read (permission denied, I/O error).
     *
     * @return paths relative to the root, usually empty
     */
    public List<String> unreadableFiles() {
        return unreadable;
    }

    // ---- derived -----------------------------------------------------------------------

    /**
     * CONTRACT.md's {@code summary}: online objects only.
     *
     * @return the counts
     */
    public Summary summary() {
        return new Summary(packages.size(), dies.size(), clusters.size(), cores.size(), pus.size(), numaNodes.size());
    }

    /**
     * CONTRACT.md's {@code caches}: one entry per (level, type, size) with the number of instances.
     *
     * @return the groups in {@link #caches()} order; unmodifiable
     */
    public List<CacheGroup> cacheGroups() {
        Map<String, CacheGroup> groups = new LinkedHashMap<>();
        for (Cache c : caches) {
            String key = c.level() + "/" + c.type() + "/" + c.sizeBytes();
            CacheGroup g = groups.get(key);
            groups.put(key, g == null
                    ? new CacheGroup(c.level(), c.type(), c.sizeBytes(), c.lineSize(), c.ways(), 1)
                    : new CacheGroup(g.level(), g.type(), g.sizeBytes(), g.lineSize(), g.ways(), g.count() + 1));
        }
        return List.copyOf(groups.values());
    }

    /**
     * The number of cache instances of one name.
     *
     * @param name {@code L1d}, {@code L1i}, {@code L2}, {@code L3}, ... (as {@link Cache#name()})
     * @return the count, 0 for a name the tree does not have
     */
    public int cacheCount(String name) {
        int n = 0;
        for (Cache c : caches) if (c.name().equals(name)) n++;
        return n;
    }

    /**
     * The node of {@code kind} holding {@code cpu}; O(1).
     *
     * @param kind the level, e.g. {@code CORE} or {@code PACKAGE}
     * @param cpu a CPU number
     * @return the node, or empty when the tree has no such level or {@code cpu} is not online in it
     */
    public Optional<TopologyNode> nodeOf(TopologyNode.Kind kind, int cpu) {
        int p = index.position(kind, cpu);
        return p < 0 ? Optional.empty() : Optional.of(PlaceIndex.nodes(this, kind).get(p));
    }

    /**
     * Where {@code cpu} sits: package, die, cluster, core, L2, L3, NUMA node, core kind; O(1).
     *
     * @param cpu a CPU number
     * @return the place; each part is -1 when the tree does not tell it (or the CPU is not online)
     */
    public CpuPlace where(int cpu) {
        return index.place(this, cpu);
    }

    /**
     * How two different CPUs relate, innermost first ({@link Placement}); O(1). Empty when
     * {@code a == b}, when either is not an online CPU of this tree, or when the tree does not
     * describe what would tell them apart (no caches, no packages).
     *
     * @param a a CPU number
     * @param b another CPU number
     * @return the innermost thing they share, or empty as above
     */
    public Optional<Placement> relation(int a, int b) {
        return Optional.ofNullable(index.relation(a, b));
    }

    /**
     * The caches {@code cpu} uses, L1 first.
     *
     * @param cpu a CPU number
     * @return a new list, empty for a CPU that is in no cache of the tree
     */
    public List<Cache> cachesOf(int cpu) {
        List<Cache> out = new ArrayList<>();
        for (Cache c : caches) if (c.cpus().test(cpu)) out.add(c);
        return out;
    }

    /**
     * The last-level cache instances: those of the highest level present (data or unified),
     * i.e. the L3s, or the L2s of a machine without L3.
     *
     * @return an unmodifiable list; empty when the tree has no caches
     */
    public List<Cache> lastLevelCaches() {
        int top = 0;
        for (Cache c : caches) if (c.type() != Cache.Type.INSTRUCTION) top = Math.max(top, c.level());
        List<Cache> out = new ArrayList<>();
        for (Cache c : caches) if (c.level() == top && c.type() != Cache.Type.INSTRUCTION) out.add(c);
        return Collections.unmodifiableList(out);
    }

    /**
     * Whether SMT is in use: the kernel's {@code smt/active} where it has one, else whether some
     * core has more than one online PU.
     *
     * @return whether SMT is active, or empty when the tree describes no cores
     */
    public Optional<Boolean> smt() {
        if (smtActive != null) return Optional.of(smtActive);
        if (cores.isEmpty()) return Optional.empty();
        for (TopologyNode c : cores) if (c.cpus().weight() > 1) return Optional.of(true);
        return Optional.of(false);
    }

    /**
     * The one-line summary ending the text report.
     *
     * @return e.g. {@code 1 package, 2 cores, 2 PUs, 1 NUMA node; L1d 32K ×2, ...}
     */
    public String summaryLine() {
        return TopologyText.summaryLine(this);
    }

    @Override
    public String toString() {
        return "Topology[" + source + ": " + summaryLine() + "]";
    }

    /** Mutable state the reader fills in. */
    static final class Builder {
        String source;
        String cpuModel;
        int nbits;
        CpuMask online;
        CpuMask offline;
        CpuMask possible;
        CpuMask present;
        CpuMask isolated;
        CpuMask nohzFull;
        CpuMask allowed;
        CgroupCpuset cgroupCpuset;
        Boolean smtActive;
        List<TopologyNode> roots = new ArrayList<>();
        List<Cache> machineCaches = new ArrayList<>();
        String cacheSource = "sysfs";
        List<NumaNode> numaNodes = new ArrayList<>();
        List<CoreKind> coreKinds = new ArrayList<>();
        int cacheLineSize = DEFAULT_CACHE_LINE;
        List<String> warnings = new ArrayList<>();
        Map<String, byte[]> filesRead = new LinkedHashMap<>();
        boolean readRecorded = true;
        List<String> dirsSeen = new ArrayList<>();
        List<String> unreadable = new ArrayList<>();

        Topology build() {
            return new Topology(this);
        }
    }
}
