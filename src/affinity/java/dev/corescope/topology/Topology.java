package dev.corescope.topology;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.text.Shorten;
import dev.corescope.topology.proc.CgroupCpuset;
import dev.corescope.topology.proc.SysfsReader;

import java.nio.file.Path;
import java.util.ArrayList;
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

    /** The longest name kept from an input (CPU model, cgroup, core kind), cut as {@link Shorten#end} cuts: cpuinfo's is at most 64 bytes. */
    public static final int MAX_NAME = 200;

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
        /** {@return the usual short name: {@code L1d}, {@code L1i}, {@code L2}, {@code L3}, ...} */
        public String name() {
            return "L" + level + type.suffix;
        }
    }

    /** What the reader found, frozen by {@link TopologyBuilder#build()} and never changed after. */
    private final TopologyBuilder b;
    private final PlaceIndex index;

    Topology(TopologyBuilder b) {
        this.b = b;
        this.index = new PlaceIndex(this, b.roots, b.machineCaches);
    }

    /**
     * Reads a saved tree (an unpacked {@code capture}, a tree from hwloc's test suite); {@link #allowed()} is empty.
     *
     * @param root the directory holding {@code sys/} (and optionally {@code proc/})
     * @return the topology; what could not be read is in {@link #warnings()}
     * @throws IllegalArgumentException with a one-line reason when {@code root} is missing, not a directory or has no {@code sys/devices/system/cpu}
     */
    public static Topology read(Path root) {
        return TopologyReader.read(root, false);
    }

    /**
     * {@return this machine's topology, read from {@code /} with the CPUs this process may run on
     * ({@code sched_getaffinity}) and the cgroup's cpuset} A few hundred small files: read it once and keep it.
     */
    public static Topology live() {
        return TopologyReader.read(Path.of("/"), true);
    }

    /**
     * Reads through {@code reader} (live when its root is {@code /}), so that its record, which {@code capture} saves,
     * holds what the topology read beside what other parsers read with it.
     *
     * @param reader the reader to read through, not null
     * @return the topology
     * @throws IllegalArgumentException as {@link #read(Path)}
     */
    public static Topology read(SysfsReader reader) {
        return TopologyReader.read(reader, reader.root().equals(Path.of("/")));
    }

    /** {@return the root it was read from, as text; {@code /} for the live machine} */
    public String source() {
        return b.source;
    }

    /** {@return {@code model name} of /proc/cpuinfo (or its Arm/other spellings); empty when the tree has none} */
    public Optional<String> cpuModel() {
        return Optional.ofNullable(b.cpuModel);
    }

    /** {@return the bits in every mask of this topology: the highest CPU number known + 1, at least 1} */
    public int nbits() {
        return b.nbits;
    }

    /** {@return the online CPUs ({@code cpu/online}): those in the tree and the counts} */
    public CpuMask online() {
        return b.online;
    }

    /** {@return the CPUs possible but not online, which are not in the tree; often empty} */
    public CpuMask offline() {
        return b.offline;
    }

    /** {@return the possible CPUs ({@code cpu/possible}): every CPU number the kernel could bring online} */
    public CpuMask possible() {
        return b.possible;
    }

    /** {@return the present CPUs ({@code cpu/present})} */
    public CpuMask present() {
        return b.present;
    }

    /** {@return the CPUs isolated from the scheduler ({@code cpu/isolated}, {@code isolcpus=}); often empty} See {@link UsableCpus}. */
    public CpuMask isolated() {
        return b.isolated;
    }

    /** {@return the CPUs without the scheduler tick when one task runs ({@code cpu/nohz_full}); empty when none or no such file} */
    public CpuMask nohzFull() {
        return b.nohzFull;
    }

    /**
     * {@return the CPUs the reading thread could run on ({@code sched_getaffinity})} Present for {@link #live()} and for
     * hwloc XML corescope wrote ({@link HwlocXmlWriter#INFO_AFFINITY}); empty for a saved tree and other XML.
     */
    public Optional<CpuMask> allowed() {
        return Optional.ofNullable(b.allowed);
    }

    /** {@return the cgroup's {@code cpuset.cpus.effective} (v2) or {@code cpuset.effective_cpus} (v1); empty without a cpuset} */
    public Optional<CpuMask> cgroupCpus() {
        return cgroupCpuset().map(CgroupCpuset::cpus);
    }

    /** {@return the cgroup's cpuset with the cgroup it came from; empty when the process is in no cgroup with a cpuset} */
    public Optional<CgroupCpuset> cgroupCpuset() {
        return Optional.ofNullable(b.cgroupCpuset);
    }

    /** {@return the CPUs chosen for this process when none is named: {@link UsableCpus#usable()}, at least {@link #nbits()} bits} */
    public CpuMask usable() {
        return UsableCpus.of(this).usable();
    }

    /** {@return the top of the tree: the packages, or the PUs directly when the tree has no topology files} */
    public List<TopologyNode> roots() {
        return b.roots;
    }

    /** {@return the packages (sockets), by {@code physical_package_id}; empty when the tree has no topology files} */
    public List<TopologyNode> packages() {
        return index.nodes(TopologyNode.Kind.PACKAGE);
    }

    /** {@return the dies where the kernel numbers them ({@code die_id} &ge; 0), else empty} */
    public List<TopologyNode> dies() {
        return index.nodes(TopologyNode.Kind.DIE);
    }

    /** {@return the clusters where the kernel describes them ({@code cluster_cpus}, {@code cluster_id} not -1), else empty} */
    public List<TopologyNode> clusters() {
        return index.nodes(TopologyNode.Kind.CLUSTER);
    }

    /** {@return the physical cores with an online PU, in package order} */
    public List<TopologyNode> cores() {
        return index.nodes(TopologyNode.Kind.CORE);
    }

    /** {@return the online logical CPUs, by number: {@code online().weight()} nodes} */
    public List<TopologyNode> pus() {
        return index.nodes(TopologyNode.Kind.PU);
    }

    /** {@return every cache instance, by level, type and first CPU; empty when the tree has no {@code cache/} directories} */
    public List<Cache> caches() {
        return index.caches();
    }

    /** {@return the caches shared across packages (rare), which hang on the machine rather than on a package} */
    public List<Cache> machineCaches() {
        return b.machineCaches;
    }

    /** {@return the NUMA nodes with an online CPU ({@code sys/devices/system/node}); empty when the tree has no node directories} */
    public List<NumaNode> numaNodes() {
        return b.numaNodes;
    }

    /** {@return the kinds of core (P- and E-cores, big.LITTLE; see {@link CoreKind}); one or none on a uniform machine} */
    public List<CoreKind> coreKinds() {
        return b.coreKinds;
    }

    /** {@return {@code coherency_line_size} of the first L1d in bytes; {@link #DEFAULT_CACHE_LINE} (with a warning) when unknown} */
    public int cacheLineSize() {
        return b.cacheLineSize;
    }

    /** {@return where {@link #caches()} came from: {@code sysfs} (or hwloc XML), {@code cpuid} (sysfs has no {@code cache/}) or {@code none}} */
    public String cacheSource() {
        return b.cacheSource;
    }

    /** {@return what could not be read or was assumed, one line each; empty on a complete tree} Escape before printing: they may quote the tree. */
    public List<String> warnings() {
        return b.warnings;
    }

    /** {@return the files read, in order, relative to the root: what {@code capture} saves; empty for {@link SysfsReader#unrecorded}} */
    public List<String> filesRead() {
        return List.copyOf(b.filesRead.keySet());
    }

    /** The bytes of each file as they were read, for {@link Capture}: a capture holds what this report was made from. */
    Map<String, byte[]> fileContents() {
        return b.filesRead;
    }

    /** Whether the reader recorded the files it read (false for {@link SysfsReader#unrecorded}): {@link Capture} reads again when not. */
    boolean readRecorded() {
        return b.readRecorded;
    }

    /** {@return the directories looked into, relative to the root: capture keeps them even when nothing in them was read} */
    public List<String> directoriesSeen() {
        return b.dirsSeen;
    }

    /** {@return the files that exist but could not be read (permission denied, I/O error), relative to the root} */
    public List<String> unreadableFiles() {
        return b.unreadable;
    }

    /** {@return CONTRACT.md's {@code summary}: the counts of online objects} */
    public Summary summary() {
        return new Summary(packages().size(), dies().size(), clusters().size(), cores().size(), pus().size(), b.numaNodes.size());
    }

    /** {@return CONTRACT.md's {@code caches}: one entry per (level, type, size) with its number of instances, in {@link #caches()} order} */
    public List<CacheGroup> cacheGroups() {
        Map<String, CacheGroup> groups = new LinkedHashMap<>();
        for (Cache c : caches()) {
            groups.merge(c.level() + "/" + c.type() + "/" + c.sizeBytes(), new CacheGroup(c.level(), c.type(), c.sizeBytes(), c.lineSize(), c.ways(), 1),
                    (g, one) -> new CacheGroup(g.level(), g.type(), g.sizeBytes(), g.lineSize(), g.ways(), g.count() + 1));
        }
        return List.copyOf(groups.values());
    }

    /**
     * {@return the number of cache instances named {@code name}; 0 for none}
     *
     * @param name as {@link Cache#name()}: {@code L1d}, {@code L1i}, {@code L2}, ...
     */
    public int cacheCount(String name) {
        return (int) caches().stream().filter(c -> c.name().equals(name)).count();
    }

    /**
     * {@return the node of {@code kind} holding {@code cpu}, in O(1); empty when the tree has no such level or the CPU is not online}
     *
     * @param kind the level, e.g. {@code CORE}
     * @param cpu a CPU number
     */
    public Optional<TopologyNode> nodeOf(TopologyNode.Kind kind, int cpu) {
        int p = index.position(kind, cpu);
        return p < 0 ? Optional.empty() : Optional.of(index.nodes(kind).get(p));
    }

    /**
     * {@return where {@code cpu} sits, in O(1); a part is -1 where the tree does not tell it or the CPU is not online}
     *
     * @param cpu a CPU number
     */
    public CpuPlace where(int cpu) {
        return index.place(cpu);
    }

    /**
     * {@return how two CPUs relate: the innermost thing they share, in O(1)} Empty when {@code a == b}, when either is
     * not online, or when the tree does not describe what would tell them apart (no caches, no packages).
     *
     * @param a a CPU number
     * @param b another CPU number
     */
    public Optional<Placement> relation(int a, int b) {
        return Optional.ofNullable(index.relation(a, b));
    }

    /**
     * {@return the caches {@code cpu} uses, L1 first, in a new list; empty for a CPU in no cache of the tree}
     *
     * @param cpu a CPU number
     */
    public List<Cache> cachesOf(int cpu) {
        return new ArrayList<>(caches().stream().filter(c -> c.cpus().test(cpu)).toList());
    }

    /** {@return the caches of the highest data or unified level present (the L3s, or the L2s without L3); empty without caches} */
    public List<Cache> lastLevelCaches() {
        return index.lastLevelCaches();
    }

    /** {@return whether SMT is in use: {@code smt/active}, else whether a core has two online PUs; empty without cores} */
    public Optional<Boolean> smt() {
        if (b.smtActive != null) return Optional.of(b.smtActive);
        if (cores().isEmpty()) return Optional.empty();
        return Optional.of(cores().stream().anyMatch(c -> c.cpus().weight() > 1));
    }

    /** {@return the one-line summary ending the text report, e.g. {@code 1 package, 2 cores, 2 PUs, 1 NUMA node; L1d 32K ×2, ...}} */
    public String summaryLine() {
        return TopologyText.summaryLine(this);
    }

    @Override
    public String toString() {
        return "Topology[" + b.source + ": " + summaryLine() + "]";
    }
}
