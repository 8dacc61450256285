package dev.corescope.topology;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.sys.internal.Affinity;
import dev.corescope.sys.internal.Threads;
import dev.corescope.topology.proc.CgroupCpuset;
import dev.corescope.topology.proc.CpuInfo;
import dev.corescope.topology.proc.SysfsReader;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * Builds a {@link Topology} from the files under a root, the way the kernel documents them
 * ({@code Documentation/ABI/stable/sysfs-devices-system-cpu},
 * {@code Documentation/admin-guide/cputopology.rst}, v6.16) and with the fallbacks older kernels
 * and other architectures need:
 * <ul>
 *   <li>no {@code online}/{@code possible}/{@code present} files (2.6-era trees): the
 *       {@code cpuN} directories, less those whose {@code cpuN/online} is 0;</li>
 *   <li>{@code thread_siblings}/{@code core_siblings} when {@code core_cpus}/{@code package_cpus}
 *       do not exist (before v5.4);</li>
 *   <li>{@code die_id} or {@code cluster_id} of -1: the architecture does not know (arm64's
 *       defaults, which also fill {@code die_cpus} with the CPU alone), so the level is absent;</li>
 *   <li>no {@code node/} (a kernel without NUMA): one node holding every CPU and
 *       {@code /proc/meminfo}'s memory, as hwloc does, with a warning.</li>
 * </ul>
 */
final class TopologyReader {

    static final String CPU = "sys/devices/system/cpu";
    static final String NODE = "sys/devices/system/node";

    /**
     * The largest CONFIG_NR_CPUS a mainline kernel accepts (x86-64 with MAXSMP, powerpc; arm64
     * stops at 4096), so the most CPU numbers a real {@code cpu/possible} lists.
     */
    static final int KERNEL_NR_CPUS_MAX = 8192;

    /** The most CPU numbers corescope reads from a tree: eight times {@link #KERNEL_NR_CPUS_MAX}. */
    static final int MAX_CPUS = SysfsReader.MAX_CPUS;

    /** At most this many "could not read" lines are kept; the rest are counted. */
    private static final int MAX_PROBLEM_LINES = 12;

    private final SysfsReader r;
    private final Topology.Builder b = new Topology.Builder();
    private final List<String> warnings = new ArrayList<>();
    private int nbits;
    private CpuInfo cpuInfo = CpuInfo.NONE;
    /**
     * Objects visited and candidates compared while building the tree: a count, not a time, that
     * a test compares across tree sizes to keep reading linear (issue 28).
     */
    long work;

    private TopologyReader(SysfsReader reader) {
        this.r = reader;
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

    private Topology build(Path root, boolean live) {
        b.source = root.toString();
        // sched_getaffinity through FFM links its downcalls on first use, tens of milliseconds
        // that overlap with reading sysfs on another thread rather than add to it
        AllowedLookup allowed = live ? AllowedLookup.start() : null;

        List<Integer> cpuDirs = cpuDirectories();
        Optional<String> possibleText = r.read(CPU + "/possible");
        Optional<String> presentText = r.read(CPU + "/present");
        Optional<String> onlineText = r.read(CPU + "/online");
        Optional<String> offlineText = r.read(CPU + "/offline");
        Optional<String> isolatedText = r.read(CPU + "/isolated");
        Optional<String> nohzText = r.read(CPU + "/nohz_full");

        int maxCpu = cpuDirs.isEmpty() ? 0 : cpuDirs.getLast();
        if (maxCpu >= MAX_CPUS) throw beyondLimit(root, CPU + "/cpu" + maxCpu, maxCpu);
        String[] names = {"possible", "present", "online", "offline", "isolated", "nohz_full"};
        List<Optional<String>> texts = List.of(possibleText, presentText, onlineText, offlineText, isolatedText, nohzText);
        for (int i = 0; i < names.length; i++) {
            if (texts.get(i).isEmpty()) continue;
            int last = SysfsReader.lastNumber(texts.get(i).get());
            if (last >= MAX_CPUS) throw beyondLimit(root, CPU + "/" + names[i], last);
            maxCpu = Math.max(maxCpu, last);
        }
        nbits = maxCpu + 1;
        b.nbits = nbits;

        CpuMask dirs = maskOf(cpuDirs);
        b.possible = parsedOr(possibleText, CPU + "/possible", dirs, "possible");
        b.present = parsedOr(presentText, CPU + "/present", dirs, "present");
        if (onlineText.isPresent()) {
            b.online = parsedOr(onlineText, CPU + "/online", dirs, "online");
        } else {
            b.online = onlineFromDirectories(cpuDirs);
        }
        b.offline = offlineText.isPresent()
                ? parsedOr(offlineText, CPU + "/offline", CpuMask.empty(nbits), "offline")
                : b.possible.or(dirs).andNot(b.online);
        b.isolated = parsedOr(isolatedText, CPU + "/isolated", CpuMask.empty(nbits), null);
        b.nohzFull = parsedOr(nohzText, CPU + "/nohz_full", CpuMask.empty(nbits), null);

        CpuMask noDir = b.online.andNot(dirs);
        if (!noDir.isEmpty()) warnings.add(Sizes.cpus(noDir) + (noDir.weight() == 1 ? " is online but has no " : " are online but have no ") + CPU + "/cpuN directory");

        cpuInfo = CpuInfo.read(r);
        b.cpuModel = cpuInfo.model();
        b.smtActive = smtActive().orElse(null);
        List<NodeBuilder> roots = buildTree(b.online.andNot(noDir));
        readCaches(b.online.andNot(noDir), roots);
        b.roots = finish(roots);
        b.numaNodes = readNuma();
        b.coreKinds = readCoreKinds();
        b.cgroupCpuset = CgroupCpuset.read(r, nbits).orElse(null);
        if (allowed != null) {
            CpuMask a = allowed.join();
            // the kernel never allows a CPU beyond nr_cpu_ids, which sysfs already covers
            b.allowed = a.resize(nbits);
        }

        if (b.allowed != null && !b.allowed.sameCpus(b.online)) {
            warnings.add("allowed CPUs " + listOrNone(b.allowed) + " (sched_getaffinity) differ from online " + listOrNone(b.online)
                    + ": taskset, a container or a cgroup limits this process");
        }
        if (b.cgroupCpuset != null && !b.cgroupCpuset.cpus().sameCpus(b.online)) {
            warnings.add("the cgroup's cpuset " + listOrNone(b.cgroupCpuset.cpus()) + " differs from online " + listOrNone(b.online));
        }

        List<String> all = new ArrayList<>();
        List<String> problems = r.problems();
        for (int i = 0; i < problems.size() && i < MAX_PROBLEM_LINES; i++) all.add(problems.get(i));
        if (problems.size() > MAX_PROBLEM_LINES) {
            all.add("... and " + (problems.size() - MAX_PROBLEM_LINES) + " more files could not be read");
        }
        all.addAll(warnings);
        b.warnings = all;
        b.filesRead = r.filesRead();
        b.readRecorded = r.recordsFiles();
        b.dirsSeen = r.dirsSeen();
        b.unreadable = r.unreadable();
        b.readWork = work;
        return b.build();
    }

    /** {@link Affinity#processAllowed()} on a thread of its own, joined when the model is assembled. */
    private static final class AllowedLookup implements Runnable {
        private final Thread thread;
        private CpuMask result;
        private Throwable failure;

        private AllowedLookup() {
            thread = new Thread(this, "corescope-affinity");
            thread.setDaemon(true);
        }

        static AllowedLookup start() {
            AllowedLookup a = new AllowedLookup();
            a.thread.start();
            return a;
        }

        @Override
        public void run() {
            try {
                result = Affinity.processAllowed();
            } catch (Throwable t) {
                failure = t;
            }
        }

        CpuMask join() {
            if (Threads.joinIgnoringInterrupts(thread)) Thread.currentThread().interrupt();
            if (failure instanceof RuntimeException e) throw e;
            if (failure instanceof Error e) throw e;
            if (failure != null) throw new IllegalStateException(failure);
            return result;
        }
    }

    // ---- CPU sets ----------------------------------------------------------------------

    private List<Integer> cpuDirectories() {
        List<Integer> out = new ArrayList<>();
        for (String name : r.list(CPU)) {
            if (name.length() > 3 && name.startsWith("cpu") && isDigits(name, 3) && r.isDirectory(CPU + "/" + name)) {
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

    /**
     * A CPU number no kernel builds for: refused before any mask is sized by it, so the cost of
     * a tree stays in the CPUs it describes, not in the largest number a file holds.
     */
    private static IllegalArgumentException beyondLimit(Path root, String rel, int cpu) {
        return new IllegalArgumentException(root.resolve(rel) + ": CPU " + (cpu >= 1 << 24 ? "16777216 or more" : cpu)
                + " is beyond " + (MAX_CPUS - 1) + ", the largest CPU number corescope reads (Linux builds for at most "
                + KERNEL_NR_CPUS_MAX + " CPUs)");
    }

    private CpuMask parsedOr(Optional<String> text, String rel, CpuMask fallback, String what) {
        if (text.isPresent()) {
            try {
                return SysfsReader.parseList(text.get(), nbits);
            } catch (IllegalArgumentException e) {
                // the path, never the content (a tree's file may be a link to anything)
                r.problem(rel, "not a CPU list" + (e instanceof dev.corescope.cpumask.CpuMaskFormatException f ? " (" + SysfsReader.contentFree(f) + ")" : ""));
            }
        } else if (what != null) {
            warnings.add("no " + rel + ": " + what + " CPUs taken from the cpuN directories");
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

    // ---- the tree ----------------------------------------------------------------------

    /** What one CPU's {@code topology/} says; a mask is null where the files do not exist. */
    private record CpuTopo(int cpu, int pkgId, CpuMask pkg, int dieId, CpuMask die, int clusterId, CpuMask cluster,
                           int coreId, CpuMask core) {
    }

    private List<NodeBuilder> buildTree(CpuMask cpus) {
        List<CpuTopo> topos = new ArrayList<>();
        CpuMask.Builder noTopology = CpuMask.builder(nbits);
        for (int cpu : cpus.toArray()) {
            String t = CPU + "/cpu" + cpu + "/topology";
            if (!r.isDirectory(t)) {
                noTopology.set(cpu);
                topos.add(new CpuTopo(cpu, -1, null, -1, null, -1, null, -1, null));
                continue;
            }
            int pkgId = r.readInt(t + "/physical_package_id").orElse(-1);
            CpuMask pkg = mapOrList(t, "package_cpus", cpu).or(() -> mapOrList(t, "core_siblings", cpu)).orElse(null);
            OptionalInt dieIdFile = r.readInt(t + "/die_id");
            CpuMask die = null;
            int dieId = dieIdFile.orElse(-1);
            if (dieIdFile.isPresent() && dieId >= 0) die = mapOrList(t, "die_cpus", cpu).orElse(null);
            OptionalInt clusterIdFile = r.readInt(t + "/cluster_id");
            CpuMask cluster = null;
            int clusterId = clusterIdFile.orElse(-1);
            if (!(clusterIdFile.isPresent() && clusterId == -1)) cluster = mapOrList(t, "cluster_cpus", cpu).orElse(null);
            int coreId = r.readInt(t + "/core_id").orElse(-1);
            CpuMask core = mapOrList(t, "core_cpus", cpu).or(() -> mapOrList(t, "thread_siblings", cpu)).orElse(null);
            topos.add(new CpuTopo(cpu, pkgId, pkg, dieId, die, clusterId, cluster, coreId, core));
        }
        CpuMask missing = noTopology.build();
        if (!missing.isEmpty()) warnings.add("no topology/ for " + Sizes.cpus(missing) + (missing.weight() == 1 ? ": it is" : ": they are") + " listed without package or core");

        topos = fillMasksFromIds(topos);
        topos = packagesFollowIds(topos);
        topos = splitAmdComputeUnits(topos);

        Map<CpuMask, NodeBuilder> roots = new LinkedHashMap<>();
        for (CpuTopo c : topos) {
            Map<CpuMask, NodeBuilder> level = roots;
            CpuMask parent = null;
            NodeBuilder node = null;
            Object[][] path = {
                    {TopologyNode.Kind.PACKAGE, c.pkgId, c.pkg},
                    {TopologyNode.Kind.DIE, c.dieId, c.die},
                    {TopologyNode.Kind.CLUSTER, c.clusterId, c.cluster},
                    {TopologyNode.Kind.CORE, c.coreId, c.core}};
            for (Object[] step : path) {
                work++;
                TopologyNode.Kind kind = (TopologyNode.Kind) step[0];
                CpuMask mask = (CpuMask) step[2];
                if (mask == null) continue;
                if (parent != null && !mask.isSubsetOf(parent)) {
                    warnings.add("CPU " + c.cpu + ": its " + kind.jsonName() + " CPUs " + mask + " are not within its "
                            + node.kind.jsonName() + " " + parent + "; that level is left out for it");
                    continue;
                }
                node = level.computeIfAbsent(mask, m -> new NodeBuilder(kind, (Integer) step[1], m));
                level = node.children;
                parent = mask;
            }
            CpuMask self = CpuMask.of(nbits, c.cpu);
            level.computeIfAbsent(self, m -> new NodeBuilder(TopologyNode.Kind.PU, c.cpu, m));
        }
        return new ArrayList<>(roots.values());
    }

    /** A CPU mask file limited to online CPUs and always holding the CPU itself. */
    private Optional<CpuMask> mapOrList(String dir, String name, int cpu) {
        return r.readMapOrList(dir + "/" + name, dir + "/" + name + "_list", nbits)
                .map(m -> onlineWith(m, cpu));
    }

    /** {@code m}'s online CPUs as one shared instance per mask read (the reader shares those per text). */
    private final Map<CpuMask, CpuMask> onlineOf = new java.util.IdentityHashMap<>();

    /**
     * {@code m.and(online).with(cpu)} without a new mask where nothing changes: a mask read from
     * a file is the same instance for each CPU that lists the same text, and so is this, so a
     * package's CPUs share one mask (at 8192 CPUs each is 1 KiB, read ~8 times per CPU).
     */
    private CpuMask onlineWith(CpuMask m, int cpu) {
        CpuMask on = onlineOf.get(m);
        if (on == null) {
            on = m.isSubsetOf(b.online) ? m : m.and(b.online);
            onlineOf.put(m, on);
        }
        return on.test(cpu) ? on : on.with(cpu);
    }

    /** Where a tree has an id but no mask (some old kernels), the mask is the CPUs sharing the id. */
    private List<CpuTopo> fillMasksFromIds(List<CpuTopo> topos) {
        boolean needed = false;
        for (CpuTopo t : topos) {
            if ((t.pkg == null && t.pkgId >= 0) || (t.core == null && t.coreId >= 0)) needed = true;
        }
        if (!needed) return topos;
        Map<Integer, CpuMask.Builder> pkgs = new TreeMap<>();
        Map<String, CpuMask.Builder> cores = new TreeMap<>();
        for (CpuTopo t : topos) {
            if (t.pkgId >= 0) pkgs.computeIfAbsent(t.pkgId, k -> CpuMask.builder(nbits)).set(t.cpu);
            if (t.coreId >= 0) cores.computeIfAbsent(t.pkgId + "/" + t.coreId, k -> CpuMask.builder(nbits)).set(t.cpu);
        }
        List<CpuTopo> out = new ArrayList<>();
        for (CpuTopo t : topos) {
            CpuMask pkg = t.pkg != null ? t.pkg : t.pkgId >= 0 ? pkgs.get(t.pkgId).build() : null;
            CpuMask core = t.core != null ? t.core : t.coreId >= 0 ? cores.get(t.pkgId + "/" + t.coreId).build() : null;
            out.add(new CpuTopo(t.cpu, t.pkgId, pkg, t.dieId, t.die, t.clusterId, t.cluster, t.coreId, core));
        }
        warnings.add("some CPUs have ids but no CPU masks in topology/: grouped by physical_package_id and core_id");
        return out;
    }

    /**
     * Packages are never invented: when the CPUs' package masks ({@code package_cpus}, or
     * {@code core_siblings} on older kernels) do not split the CPUs into disjoint sets (one CPU
     * claims {@code 0-3} while CPU 0 claims {@code 0,4,8,...}), a set built from them would be a
     * package that does not exist; packages then follow {@code physical_package_id}. Masks that
     * do form disjoint sets are kept even where the ids are coarser, as hwloc keeps them (ia64
     * trees give two sockets one id). A tree with no ids keeps its masks.
     */
    private List<CpuTopo> packagesFollowIds(List<CpuTopo> topos) {
        if (masksArePartition(topos)) return topos;
        Map<Integer, CpuMask.Builder> byId = new TreeMap<>();
        for (CpuTopo t : topos) if (t.pkgId >= 0) byId.computeIfAbsent(t.pkgId, k -> CpuMask.builder(nbits)).set(t.cpu);
        if (byId.isEmpty()) return topos;
        Map<Integer, CpuMask> idMasks = new TreeMap<>();
        for (var e : byId.entrySet()) idMasks.put(e.getKey(), e.getValue().build());
        CpuMask.Builder disagree = CpuMask.builder(nbits);
        List<CpuTopo> out = new ArrayList<>();
        for (CpuTopo t : topos) {
            CpuMask byIdMask = t.pkgId >= 0 ? idMasks.get(t.pkgId) : null;
            if (byIdMask != null && t.pkg != null && !t.pkg.sameCpus(byIdMask)) {
                disagree.set(t.cpu);
                out.add(new CpuTopo(t.cpu, t.pkgId, byIdMask, t.dieId, t.die, t.clusterId, t.cluster, t.coreId, t.core));
            } else {
                out.add(t);
            }
        }
        CpuMask bad = disagree.build();
        if (!bad.isEmpty()) {
            warnings.add("the package CPU masks of " + Sizes.cpus(bad) + " disagree with their physical_package_id: packages follow the ids ("
                    + idMasks.size() + (idMasks.size() == 1 ? " package)" : " packages)"));
        }
        return out;
    }

    /** True when the package masks are pairwise equal or disjoint (each CPU in its own). */
    private boolean masksArePartition(List<CpuTopo> topos) {
        List<CpuMask> distinct = new ArrayList<>();
        for (CpuTopo t : topos) {
            if (t.pkg == null) continue;
            boolean seen = false;
            for (CpuMask m : distinct) {
                work++;
                if (m.sameCpus(t.pkg)) {
                    seen = true;
                    break;
                }
                if (m.intersects(t.pkg)) return false;
            }
            if (!seen) distinct.add(t.pkg);
        }
        return true;
    }

    /**
     * AMD families 15h and 16h (Bulldozer to Excavator, Jaguar/Puma): Linux lists the two cores of
     * a compute unit as SMT siblings of one core but gives each its own {@code core_id}. hwloc
     * then counts each as a core ({@code is_amd_with_CU} in its Linux backend, decided on the first
     * core with two siblings); corescope does the same, and the L2 and L1i the pair shares are
     * shown above the two cores.
     */
    private List<CpuTopo> splitAmdComputeUnits(List<CpuTopo> topos) {
        if (!cpuInfo.amdWithComputeUnits()) return topos;
        Map<Integer, CpuTopo> byCpu = new HashMap<>();
        for (CpuTopo t : topos) byCpu.put(t.cpu, t);
        boolean split = false;
        for (CpuTopo t : topos) {
            if (t.core == null || t.core.weight() < 2) continue;
            int sibling = t.core.first() == t.cpu ? t.core.next(t.cpu) : t.core.first();
            CpuTopo s = byCpu.get(sibling);
            split = s != null && s.coreId != t.coreId;
            break;
        }
        if (!split) return topos;
        List<CpuTopo> out = new ArrayList<>();
        for (CpuTopo t : topos) {
            out.add(new CpuTopo(t.cpu, t.pkgId, t.pkg, t.dieId, t.die, t.clusterId, t.cluster, t.coreId, CpuMask.of(nbits, t.cpu)));
        }
        warnings.add("AMD compute units: the kernel lists the two cores of each compute unit as SMT siblings with their own core_id;"
                + " counted as two cores, as hwloc counts them, with the caches each pair shares shown above them");
        return out;
    }

    /**
     * Where an architecture describes caches outside {@code cache/}, say that they are not read:
     * SPARC's per-CPU {@code l1_dcache_size}, {@code l2_cache_size}... (arch/sparc/kernel/sysfs.c)
     * give sizes but not which CPUs share each cache, so no instance count can be made from them.
     */
    private String cachesDescribedElsewhere(int cpu) {
        String dir = CPU + "/cpu" + cpu;
        for (String f : List.of("l1_dcache_size", "l1_icache_size", "l2_cache_size")) {
            if (r.readLong(dir + "/" + f).isPresent()) {
                return "; " + dir + "/l1_dcache_size, l2_cache_size... (SPARC) give sizes but not which CPUs share a cache, so they are not read";
            }
        }
        return "";
    }

    /** Mutable tree node while reading. */
    private static final class NodeBuilder {
        final TopologyNode.Kind kind;
        final int id;
        final CpuMask cpus;
        final Map<CpuMask, NodeBuilder> children = new LinkedHashMap<>();
        final List<Cache> caches = new ArrayList<>();

        NodeBuilder(TopologyNode.Kind kind, int id, CpuMask cpus) {
            this.kind = kind;
            this.id = id;
            this.cpus = cpus;
        }

        TopologyNode build() {
            List<TopologyNode> kids = new ArrayList<>();
            for (NodeBuilder c : children.values()) kids.add(c.build());
            kids.sort(TopologyNode.BY_FIRST_CPU);
            caches.sort(Cache.ORDER);
            return new TopologyNode(kind, id, cpus, caches, kids);
        }
    }

    private List<TopologyNode> finish(List<NodeBuilder> roots) {
        List<TopologyNode> out = new ArrayList<>();
        for (NodeBuilder n : roots) out.add(n.build());
        out.sort(TopologyNode.BY_FIRST_CPU);
        return out;
    }

    // ---- caches ------------------------------------------------------------------------

    private void readCaches(CpuMask cpus, List<NodeBuilder> roots) {
        // keyed by (level, type, CPUs): the masks are shared instances, so a key costs a hash, not a cpulist string
        Map<List<Object>, Cache> found = new LinkedHashMap<>();
        CpuMask.Builder noCache = CpuMask.builder(nbits);
        for (int cpu : cpus.toArray()) {
            String dir = CPU + "/cpu" + cpu + "/cache";
            List<String> entries = r.list(dir);
            boolean any = false;
            for (String idx : entries) {
                if (!idx.startsWith("index") || !isDigits(idx, 5)) continue;
                work++;
                String p = dir + "/" + idx;
                OptionalInt level = r.readInt(p + "/level");
                Optional<Cache.Type> type = r.read(p + "/type").map(Cache.Type::parse);
                if (level.isEmpty() || type.isEmpty()) {
                    if (level.isEmpty()) r.problem(p + "/level", "missing; cache ignored");
                    else r.problem(p + "/type", "missing or unknown; cache ignored");
                    continue;
                }
                any = true;
                Optional<CpuMask> shared = r.readMapOrList(p + "/shared_cpu_map", p + "/shared_cpu_list", nbits);
                if (shared.isEmpty()) r.problem(p + "/shared_cpu_map", "missing; taken as private to CPU " + cpu);
                CpuMask mask = shared.isPresent() ? onlineWith(shared.get(), cpu) : CpuMask.of(nbits, cpu);
                List<Object> key = List.of(level.getAsInt(), type.get(), mask);
                if (found.containsKey(key)) continue;
                Optional<String> sizeText = r.read(p + "/size");
                long size = sizeText.isPresent() ? Sizes.parseKernelSize(sizeText.get()) : -1;
                int ways = r.readInt(p + "/ways_of_associativity").orElse(-1);
                int line = r.readInt(p + "/coherency_line_size").orElse(-1);
                found.put(key, new Cache(level.getAsInt(), type.get(), size, line, ways, mask));
            }
            if (!any) noCache.set(cpu);
        }
        CpuMask none = noCache.build();
        if (!none.isEmpty() && !none.sameCpus(cpus)) {
            warnings.add("no cache/ information for " + Sizes.cpus(none));
        } else if (!cpus.isEmpty() && none.sameCpus(cpus)) {
            warnings.add("no cache/ information in sysfs (cpuN/cache): caches unknown" + cachesDescribedElsewhere(cpus.first()));
        }
        ObjectIndex index = new ObjectIndex(roots, this);
        for (Cache c : found.values()) attach(c, index);

        b.cacheLineSize = Topology.DEFAULT_CACHE_LINE;
        Cache l1d = null;
        for (Cache c : found.values()) {
            if (c.level() == 1 && c.type() != Cache.Type.INSTRUCTION && c.lineSize() > 0
                    && (l1d == null || c.cpus().first() < l1d.cpus().first())) {
                l1d = c;
            }
        }
        if (l1d != null) {
            b.cacheLineSize = l1d.lineSize();
        } else {
            warnings.add("cache line size unknown (no L1d coherency_line_size): assuming " + Topology.DEFAULT_CACHE_LINE + " bytes");
        }
    }

    /**
     * Every object of the tree by its CPUs, and each CPU's chain of objects from its package
     * inwards: built once, in one walk of the tree, so that hanging each cache is a look-up and
     * a walk of one chain, not a pass over the whole tree ({@link #attach}).
     */
    private static final class ObjectIndex {
        final Map<CpuMask, List<NodeBuilder>> byCpus = new HashMap<>();
        final Map<Integer, List<NodeBuilder>> chainOf = new HashMap<>();

        ObjectIndex(List<NodeBuilder> roots, TopologyReader reader) {
            for (NodeBuilder n : roots) walk(n, new ArrayList<>(), reader);
        }

        private void walk(NodeBuilder n, List<NodeBuilder> chain, TopologyReader reader) {
            reader.work++;
            byCpus.computeIfAbsent(n.cpus, k -> new ArrayList<>(1)).add(n);
            if (n.kind == TopologyNode.Kind.PU) {
                chainOf.put(n.id, List.copyOf(chain));
                return;
            }
            chain.add(n);
            for (NodeBuilder c : n.children.values()) walk(c, chain, reader);
            chain.removeLast();
        }
    }

    /** Attach order for an L1 or L2: the innermost object with its CPUs first. */
    private static final List<TopologyNode.Kind> INNER_FIRST = List.of(TopologyNode.Kind.CORE, TopologyNode.Kind.CLUSTER,
            TopologyNode.Kind.DIE, TopologyNode.Kind.PACKAGE, TopologyNode.Kind.PU);
    /** Attach order for an L3 or higher: the outermost first. */
    private static final List<TopologyNode.Kind> OUTER_FIRST = List.of(TopologyNode.Kind.PACKAGE, TopologyNode.Kind.DIE,
            TopologyNode.Kind.CLUSTER, TopologyNode.Kind.CORE, TopologyNode.Kind.PU);

    /**
     * Hangs a cache on the object whose CPUs it covers exactly; where several objects have the
     * same CPUs, an L1 or L2 goes to the innermost (the core) and an L3 or higher to the
     * outermost (the package), as people think of them. Else on the smallest object holding
     * it (one of its first CPU's chain, since an object holding the cache holds that CPU); else
     * on the machine. Costs the objects with the cache's CPUs plus one chain: linear overall.
     */
    private void attach(Cache c, ObjectIndex index) {
        NodeBuilder best = null;
        List<NodeBuilder> same = index.byCpus.getOrDefault(c.cpus(), List.of());
        for (TopologyNode.Kind k : c.level() >= 3 ? OUTER_FIRST : INNER_FIRST) {
            for (NodeBuilder n : same) {
                work++;
                if (n.kind == k) {
                    best = n;
                    break;
                }
            }
            if (best != null) break;
        }
        if (best == null && !c.cpus().isEmpty()) {
            for (NodeBuilder n : index.chainOf.getOrDefault(c.cpus().first(), List.of())) {
                work++;
                if (c.cpus().isSubsetOf(n.cpus) && (best == null || n.cpus.weight() < best.cpus.weight())) best = n;
            }
        }
        if (best == null) {
            b.machineCaches.add(c);
        } else {
            best.caches.add(c);
        }
    }

    // ---- NUMA --------------------------------------------------------------------------

    private List<NumaNode> readNuma() {
        List<NumaNode> nodes = new ArrayList<>();
        List<Integer> ids = new ArrayList<>();
        for (String name : r.list(NODE)) {
            if (name.length() > 4 && name.startsWith("node") && isDigits(name, 4)) ids.add(Integer.parseInt(name.substring(4)));
        }
        ids.sort(null);
        if (ids.isEmpty()) {
            long mem = memTotal("proc/meminfo", "MemTotal:");
            warnings.add("no " + NODE + "/nodeN (a kernel without NUMA): one NUMA node with all CPUs assumed");
            nodes.add(new NumaNode(0, b.online, mem, List.of()));
            return nodes;
        }
        for (int id : ids) {
            String p = NODE + "/node" + id;
            CpuMask cpus = r.readList(p + "/cpulist", nbits)
                    .or(() -> r.readMap(p + "/cpumap", nbits))
                    .orElseGet(() -> {
                        r.problem(p + "/cpulist", "missing; node taken as without CPUs");
                        return CpuMask.empty(nbits);
                    }).and(b.online);
            long mem = memTotal(p + "/meminfo", "MemTotal:");
            List<Integer> dist = new ArrayList<>();
            Optional<String> d = r.read(p + "/distance");
            if (d.isPresent()) {
                for (String tok : Sizes.words(d.get())) {
                    try {
                        dist.add(Integer.parseInt(tok));
                    } catch (NumberFormatException e) {
                        r.problem(p + "/distance", "not a list of numbers");
                        dist.clear();
                        break;
                    }
                }
            }
            nodes.add(new NumaNode(id, cpus, mem, dist));
        }
        return nodes;
    }

    /** {@code MemTotal: N kB} in /proc/meminfo, or {@code Node 0 MemTotal: N kB} in a node's meminfo; -1 when absent. */
    private long memTotal(String rel, String key) {
        Optional<List<String>> lines = r.readLines(rel);
        if (lines.isEmpty()) return -1;
        for (String line : lines.get()) {
            int i = line.indexOf(key);
            if (i < 0) continue;
            String rest = line.substring(i + key.length()).strip();
            String[] parts = Sizes.words(rest).toArray(new String[0]);
            if (parts.length == 0) continue;
            try {
                long v = Long.parseLong(parts[0]);
                return parts.length > 1 && parts[1].equalsIgnoreCase("kB") ? v * 1024 : v;
            } catch (NumberFormatException e) {
                r.problem(rel, "MemTotal is not a number");
                return -1;
            }
        }
        return -1;
    }

    // ---- core kinds --------------------------------------------------------------------

    private List<CoreKind> readCoreKinds() {
        CpuMask online = b.online;
        Optional<CpuMask> pCores = r.readList("sys/devices/cpu_core/cpus", nbits).map(m -> m.and(online));
        Optional<CpuMask> eCores = r.readList("sys/devices/cpu_atom/cpus", nbits).map(m -> m.and(online));

        // equals and hashCode by hand: a record's generated ones bootstrap through invokedynamic, a start-up cost
        record Key(String hybrid, int capacity, int baseMHz, int maxMHz) {
            @Override
            public boolean equals(Object o) {
                return o instanceof Key k && java.util.Objects.equals(k.hybrid, hybrid) && k.capacity == capacity
                        && k.baseMHz == baseMHz && k.maxMHz == maxMHz;
            }

            @Override
            public int hashCode() {
                return ((java.util.Objects.hashCode(hybrid) * 31 + capacity) * 31 + baseMHz) * 31 + maxMHz;
            }
        }
        Map<Key, CpuMask.Builder> groups = new LinkedHashMap<>();
        boolean byFrequency = false;
        for (int cpu : online.toArray()) {
            String hybrid = pCores.isPresent() && pCores.get().test(cpu) ? "core"
                    : eCores.isPresent() && eCores.get().test(cpu) ? "atom" : null;
            int capacity = r.readInt(CPU + "/cpu" + cpu + "/cpu_capacity").orElse(-1);
            if (hybrid != null || capacity >= 0) groups.computeIfAbsent(new Key(hybrid, capacity, -1, -1), k -> CpuMask.builder(nbits)).set(cpu);
        }
        Map<Key, Integer> maxOf = new LinkedHashMap<>();
        if (groups.isEmpty()) {
            byFrequency = true;
            for (int cpu : online.toArray()) {
                String f = CPU + "/cpu" + cpu + "/cpufreq/";
                if (!r.isDirectory(f)) continue;
                OptionalLong base = r.readLong(f + "base_frequency");
                OptionalLong max = r.readLong(f + "cpuinfo_max_freq");
                if (base.isEmpty() && max.isEmpty()) continue;
                int baseMHz = base.isPresent() ? (int) (base.getAsLong() / 1000) : -1;
                int maxMHz = max.isPresent() ? (int) (max.getAsLong() / 1000) : -1;
                // base_frequency tells hybrid kinds apart; the highest max frequency alone would also
                // split out the favoured cores (Turbo Boost Max 3.0) of one kind, so it is only the key without a base
                Key k = new Key(null, -1, baseMHz, baseMHz >= 0 ? -1 : maxMHz);
                groups.computeIfAbsent(k, x -> CpuMask.builder(nbits)).set(cpu);
                maxOf.merge(k, maxMHz, Math::max);
            }
        }
        List<CoreKind> kinds = new ArrayList<>();
        for (Map.Entry<Key, CpuMask.Builder> e : groups.entrySet()) {
            Key k = e.getKey();
            kinds.add(new CoreKind(e.getValue().build(),
                    k.capacity >= 0 ? OptionalInt.of(k.capacity) : OptionalInt.empty(),
                    Optional.ofNullable(k.hybrid),
                    maxOf.getOrDefault(k, -1) >= 0 ? OptionalInt.of(maxOf.get(k)) : OptionalInt.empty(),
                    k.baseMHz >= 0 ? OptionalInt.of(k.baseMHz) : OptionalInt.empty()));
        }
        kinds.sort((x, y) -> Integer.compare(x.cpus().first(), y.cpus().first()));
        if (byFrequency && kinds.size() > 1) {
            warnings.add("core kinds told apart by cpufreq frequencies (no cpu_capacity or cpu_core/cpu_atom in sysfs)");
        }
        return kinds;
    }

    // ---- /proc and cgroups -------------------------------------------------------------

    /** {@code smt/active} (v4.19+): whether the kernel has SMT siblings online; empty on older kernels. */
    private Optional<Boolean> smtActive() {
        return r.read(CPU + "/smt/active").map(String::strip).filter(v -> v.equals("0") || v.equals("1")).map(v -> v.equals("1"));
    }

    // ---- helpers -----------------------------------------------------------------------

    private CpuMask maskOf(List<Integer> cpus) {
        CpuMask.Builder m = CpuMask.builder(nbits);
        for (int c : cpus) m.set(c);
        return m.build();
    }

    private static boolean isDigits(String s, int from) {
        for (int i = from; i < s.length(); i++) if (s.charAt(i) < '0' || s.charAt(i) > '9') return false;
        return from < s.length();
    }

    static String listOrNone(CpuMask m) {
        return m.isEmpty() ? "(none)" : m.toList();
    }
}
