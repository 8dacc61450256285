package dev.corescope.topology;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.text.Shorten;
import dev.corescope.topology.proc.CgroupCpuset;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads hwloc's XML ({@code lstopo --of xml}) into a {@link Topology}: v2 and v3 as hwloc 2.x writes
 * it, v1 as hwloc 1.x wrote it. Packages, dies, Groups of subtype {@code Cluster}, cores and PUs make
 * the tree; other Groups, Misc, I/O and memory-side caches are stepped through or skipped.
 *
 * <p>The document is parsed by {@link XmlElement} (no DTD, no entities, capped); the numbers follow
 * the rules of a saved tree ({@code --root}). Every refusal is an {@link IllegalArgumentException}
 * with a one-line reason that names the file.
 */
public final class HwlocXmlReader {

    /**
     * Reads {@code file}.
     *
     * @param file an hwloc XML file (v1 or v2, as {@code lstopo --of xml} writes)
     * @return the topology it describes ({@link Topology#allowed()} is the writing process's
     *         {@code sched_getaffinity} set where corescope wrote it ({@link HwlocXmlWriter#INFO_AFFINITY}), else empty)
     * @throws IllegalArgumentException {@code FILE: why}, when the file cannot be read, is not
     *                                  well-formed XML, uses a DTD or entities, or is not hwloc's topology
     */
    public static Topology read(Path file) {
        try {
            if (!Files.isRegularFile(file)) throw new IllegalArgumentException(file + ": not a regular file");
            tooLarge(Files.size(file), file.toString());
            try (InputStream in = Files.newInputStream(file)) {
                return new HwlocXmlReader(file.toString()).topology(XmlElement.parse(in, file.toString()));
            }
        } catch (IOException e) {
            throw new IllegalArgumentException(file + ": cannot read: " + e.getMessage());
        }
    }

    /**
     * Reads hwloc XML held in a string (the topology a results file saved).
     *
     * @param xml the document
     * @param name what to call it in a reason, e.g. the results file's name
     * @return the topology it describes
     * @throws IllegalArgumentException {@code NAME: why}, as {@link #read(Path)}
     */
    public static Topology read(String xml, String name) {
        tooLarge(xml.length(), name);
        return new HwlocXmlReader(name).topology(XmlElement.parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)), name));
    }

    private static void tooLarge(long size, String name) {
        if (size > XmlElement.MAX_BYTES) {
            throw new IllegalArgumentException(name + ": larger than " + (XmlElement.MAX_BYTES >> 20) + " MiB, not an hwloc XML topology");
        }
    }

    /** The document's attributes, read as hwloc writes them; its refusals name the file. */
    private final HwlocAttributes attrs;
    private final List<String> warnings = new ArrayList<>();
    private int version;
    final List<XmlElement> numaElements = new ArrayList<>();
    final List<Integer> numaDepths = new ArrayList<>();
    final List<Cache> caches = new ArrayList<>();
    final Map<String, Integer> gpToOs = new HashMap<>();
    String cpuModel;
    CpuMask online;

    private HwlocXmlReader(String name) {
        this.attrs = new HwlocAttributes(name);
    }

    private Topology topology(XmlElement root) {
        if (!root.name().equals("topology")) throw attrs.bad("the root element is <" + root.name() + ">, not hwloc's <topology>");
        String v = root.attr("version");
        version = v == null ? 1 : parseVersion(v);
        List<XmlElement> objects = root.all("object");
        if (objects.isEmpty()) throw attrs.bad("no <object> in <topology>");
        XmlElement machine = objects.getFirst();
        String mtype = machine.attr("type");
        if ("System".equals(mtype)) {
            List<XmlElement> machines = machine.all("object");
            if (machines.size() != 1 || !"Machine".equals(machines.getFirst().attr("type"))) {
                throw attrs.bad("a System of " + machines.size() + " machines (hwloc 1.x's multi-node topology); corescope reads one machine");
            }
            machine = machines.getFirst();
            mtype = "Machine";
        }
        if (mtype == null || !mtype.equals("Machine")) {
            throw attrs.bad("the first object is " + mtype + ", not Machine");
        }
        int maxBit = Math.max(attrs.lastBit(machine, "complete_cpuset"), Math.max(attrs.lastBit(machine, "cpuset"), attrs.lastBit(machine, "allowed_cpuset")));
        attrs.nbits = Math.max(1, maxBit + 1);
        if (attrs.nbits > TopologyReader.MAX_CPUS) throw attrs.bad("CPU " + maxBit + " is beyond the " + TopologyReader.MAX_CPUS + " CPUs corescope reads");
        CpuMask cpuset = attrs.mask(machine, "cpuset");
        Optional<CpuMask> onlineAttr = attrs.optMask(machine, "online_cpuset");
        online = onlineAttr.map(cpuset::and).orElse(cpuset);
        if (online.isEmpty()) {
            throw attrs.bad("the Machine's cpuset=\"" + HwlocAttributes.shorten(machine.attr("cpuset")) + "\"" + (onlineAttr.isPresent() ? " and online_cpuset hold" : " holds")
                    + " no CPU: a machine has at least one");
        }
        CpuMask complete = attrs.optMask(machine, "complete_cpuset").orElse(cpuset).or(online);
        CpuMask allowed = attrs.optMask(machine, "allowed_cpuset").map(a -> a.and(online)).orElse(online);

        TopologyBuilder b = new TopologyBuilder();
        b.source = attrs.name;
        b.nbits = attrs.nbits;
        b.online = online;
        b.possible = complete;
        b.present = complete;
        b.offline = complete.andNot(online);
        // corescope's own infos (HwlocXmlWriter): the writer's sched_getaffinity set, isolated and nohz_full CPUs
        b.allowed = attrs.infoMask(machine, HwlocXmlWriter.INFO_AFFINITY).map(a -> a.and(online)).orElse(null);
        b.isolated = attrs.infoMask(machine, HwlocXmlWriter.INFO_ISOLATED).map(a -> a.and(complete)).orElse(CpuMask.empty(attrs.nbits));
        b.nohzFull = attrs.infoMask(machine, HwlocXmlWriter.INFO_NOHZ_FULL).map(a -> a.and(complete)).orElse(CpuMask.empty(attrs.nbits));
        HwlocAttributes.info(machine, HwlocXmlWriter.INFO_CACHE_SOURCE).filter("cpuid"::equals).ifPresent(src -> b.cacheSource = src);
        // corescope writes them where there are any: without either, they are unknown (hwloc's own XML has neither)
        boolean isolatedKnown = HwlocAttributes.info(machine, HwlocXmlWriter.INFO_ISOLATED).isPresent() || HwlocAttributes.info(machine, HwlocXmlWriter.INFO_NOHZ_FULL).isPresent();
        if (!allowed.sameCpus(online)) {
            String cg = HwlocAttributes.info(machine, "LinuxCgroup").map(g -> Shorten.end(g, Topology.MAX_NAME)).orElse("hwloc's allowed_cpuset");
            b.cgroupCpuset = new CgroupCpuset(allowed, cg);
        }
        List<NodeBuilder> roots = new ArrayList<>();
        walk(machine, null, roots, 0);
        // no files: the reading only counts the work of hanging the caches
        CacheReader.hang(caches, roots, b.machineCaches, new Reading(null));
        b.roots = NodeBuilder.finish(roots);
        b.numaNodes = numa(root, machine);
        b.coreKinds = coreKinds(root);
        b.cpuModel = cpuModel;
        b.cacheLineSize = CacheReader.lineSize(caches, "cache_linesize", warnings);
        if (!isolatedKnown) warnings.addFirst("read from hwloc XML (v" + version + "): isolated and nohz_full CPUs are not in it");
        b.warnings = warnings;
        return b.build();
    }

    private int parseVersion(String v) {
        try {
            int dot = v.indexOf('.');
            return Integer.parseInt(dot < 0 ? v : v.substring(0, dot));
        } catch (NumberFormatException e) {
            throw attrs.bad("<topology version=\"" + HwlocAttributes.shorten(v) + "\">: not a version hwloc writes");
        }
    }

    private void walk(XmlElement e, NodeBuilder parent, List<NodeBuilder> roots, int depth) {
        for (XmlElement c : e.all("object")) {
            String type = c.attr("type");
            if (type == null) throw attrs.bad("an <object> without a type");
            String gp = c.attr("gp_index");
            if (gp != null && c.attr("os_index") != null) gpToOs.put(gp, attrs.intAttr(c, "os_index", -1));
            TopologyNode.Kind kind = switch (type) {
                case "Package", "Socket" -> TopologyNode.Kind.PACKAGE;
                case "Die" -> TopologyNode.Kind.DIE;
                case "Group" -> "Cluster".equalsIgnoreCase(c.attr("subtype"))
                        || String.valueOf(HwlocXmlWriter.GROUP_KIND_LINUX_CLUSTER).equals(c.attr("kind")) ? TopologyNode.Kind.CLUSTER : null;
                case "Core" -> TopologyNode.Kind.CORE;
                case "PU" -> TopologyNode.Kind.PU;
                default -> null;
            };
            if (List.of("Bridge", "PCIDev", "OSDev", "Misc").contains(type)) continue;
            if (type.equals("NUMANode") || type.equals("MemCache")) {
                if (type.equals("NUMANode")) {
                    numaElements.add(c);
                    numaDepths.add(depth + 1);
                }
                // v1: the NUMA node is in the CPU tree; v2: a memory child without CPU children
                walk(c, parent, roots, depth + 1);
                continue;
            }
            if (kind == TopologyNode.Kind.PACKAGE && cpuModel == null) cpuModel = HwlocAttributes.info(c, "CPUModel").orElse(null);
            Cache cache = cache(c, type);
            if (cache != null && !cache.cpus().isEmpty()) caches.add(cache);
            NodeBuilder self = null;
            if (kind != null) {
                CpuMask cpus = attrs.mask(c, "cpuset").and(online);
                if (!cpus.isEmpty() && !(kind == TopologyNode.Kind.PU && cpus.weight() != 1)) {
                    int id = kind == TopologyNode.Kind.PU ? pu(c, cpus.first()) : attrs.intAttr(c, "os_index", -1);
                    if (kind == TopologyNode.Kind.CORE && id >= 0 && parent != null) sameCoreId(parent, id);
                    self = new NodeBuilder(kind, id, cpus);
                    if (parent == null) roots.add(self);
                    else self = parent.children.merge(cpus, self, (first, again) -> first);
                }
            }
            walk(c, self != null ? self : parent, roots, depth + 1);
        }
    }

    /** The CPUs already seen as a PU: each CPU is one PU, as each is one cpuN in sysfs. */
    private final Set<Integer> pus = new HashSet<>();
    /** The core ids seen under each parent object, for {@link #sameCoreId}. */
    private final Map<NodeBuilder, Set<Integer>> coreIds = new IdentityHashMap<>();

    /** The CPU number of a PU whose cpuset holds {@code cpu}: its {@code os_index} a CPU corescope reads, in no other PU. */
    private int pu(XmlElement e, int cpu) {
        if (e.attr("os_index") != null) {
            long os;
            try {
                os = Long.parseLong(e.attr("os_index").strip());
            } catch (NumberFormatException ex) {
                os = -1;
            }
            if (os < 0 || os >= TopologyReader.MAX_CPUS) {
                throw attrs.bad("<object type=\"PU\" os_index=\"" + HwlocAttributes.shorten(e.attr("os_index")) + "\">: not a CPU number (0 to "
                        + (TopologyReader.MAX_CPUS - 1) + ", the CPU numbers corescope reads)");
            }
            if (os != cpu) warnings.add("PU os_index " + os + " has CPU " + cpu + " in its cpuset (hwloc writes them equal): CPU " + cpu + " taken");
        }
        if (!pus.add(cpu)) throw attrs.bad("CPU " + cpu + " is in two PUs; each CPU is one PU");
        return cpu;
    }

    /** Two cores with one id under one package (or die, cluster): kept apart by their CPUs, with a warning. */
    private void sameCoreId(NodeBuilder parent, int id) {
        if (!coreIds.computeIfAbsent(parent, p -> new HashSet<>()).add(id)) {
            warnings.add("two cores of " + parent.kind.jsonName() + " " + parent.id + " have core id " + id + ": kept as two cores, by their CPUs");
        }
    }

    private Cache cache(XmlElement c, String type) {
        // v1: Cache with a depth; v2: L1Cache ... L5Cache, L1iCache ... L3iCache
        boolean v2 = type.matches("L[1-5]i?Cache");
        if (!v2 && !type.equals("Cache")) return null;
        int level = v2 ? type.charAt(1) - '0' : attrs.intAttr(c, "depth", -1);
        if (level < 1) return null;
        int cacheType = v2 && type.charAt(2) == 'i' ? 2 : attrs.intAttr(c, "cache_type", 0);
        Cache.Type ct = cacheType == 1 ? Cache.Type.DATA : cacheType == 2 ? Cache.Type.INSTRUCTION : Cache.Type.UNIFIED;
        long size = attrs.size(c, "cache_size");
        int line = attrs.intAttr(c, "cache_linesize", -1);
        int assoc = attrs.intAttr(c, "cache_associativity", 0);
        // hwloc: 0 unknown, -1 fully associative; Cache: -1 unknown, 0 fully associative
        int ways = assoc == 0 ? -1 : assoc < 0 ? 0 : assoc;
        return new Cache(level, ct, size, line <= 0 ? -1 : line, ways, attrs.mask(c, "cpuset").and(online));
    }

    private List<NumaNode> numa(XmlElement root, XmlElement machine) {
        record Raw(int id, CpuMask cpus, long memory, int depth) {
        }
        List<Raw> raws = new ArrayList<>();
        for (int i = 0; i < numaElements.size(); i++) {
            XmlElement e = numaElements.get(i);
            int id = attrs.intAttr(e, "os_index", i);
            raws.add(new Raw(id, attrs.optMask(e, "cpuset").orElse(CpuMask.empty(attrs.nbits)).and(online), attrs.size(e, "local_memory"), numaDepths.get(i)));
        }
        List<Integer> ids = raws.stream().map(Raw::id).toList();
        List<Integer> sorted = ids.stream().sorted().toList();
        // each row in the order of the sorted nodes
        Map<Integer, List<Integer>> rows = version >= 2 ? distances2(root, ids, sorted)
                : distances1(machine, raws.isEmpty() ? -1 : raws.getFirst().depth, ids, sorted);
        if (raws.isEmpty()) {
            // as hwloc 2.x does for such a file: one node with every CPU and the machine's memory
            warnings.add("no NUMANode in the file: one NUMA node with all CPUs assumed");
            raws.add(new Raw(0, online, attrs.size(machine, "local_memory"), 1));
        }
        return raws.stream().map(r -> new NumaNode(r.id, r.cpus, r.memory, rows.getOrDefault(r.id, List.of())))
                .sorted(Comparator.comparingInt(NumaNode::id)).toList();
    }

    /** v2: the first {@code distances2} between NUMA nodes that means latency, indexed by os or gp index. */
    private Map<Integer, List<Integer>> distances2(XmlElement root, List<Integer> ids, List<Integer> sorted) {
        for (XmlElement d : root.all("distances2")) {
            if (!"NUMANode".equals(d.attr("type"))) continue;
            int n = attrs.intAttr(d, "nbobjs", -1);
            if (n != ids.size()) continue;
            List<Long> idx = attrs.numbers(d.all("indexes"));
            List<Long> vals = attrs.numbers(d.all("u64values"));
            if (idx.size() != n || vals.size() != (long) n * n) {
                warnings.add("distances2 " + d.attr("name") + ": " + idx.size() + " indexes and " + vals.size() + " values for " + n + " nodes; ignored");
                continue;
            }
            boolean gp = "gp".equals(d.attr("indexing"));
            List<Integer> order = new ArrayList<>();
            for (long i : idx) order.add(gp ? gpToOs.getOrDefault(Long.toString(i), -1) : (int) i);
            return rows(order, vals, sorted);
        }
        return Map.of();
    }

    /** v1: the machine's {@code distances} at the NUMA nodes' depth, values times {@code latency_base}. */
    private Map<Integer, List<Integer>> distances1(XmlElement machine, int numaDepth, List<Integer> ids, List<Integer> sorted) {
        for (XmlElement d : machine.all("distances")) {
            if (attrs.intAttr(d, "relative_depth", -2) != numaDepth || attrs.intAttr(d, "nbobjs", -1) != ids.size()) continue;
            double base = attrs.doubleAttr(d, "latency_base", 1);
            List<Long> vals = new ArrayList<>();
            for (XmlElement l : d.all("latency")) vals.add(Math.round(attrs.doubleAttr(l, "value", 0) * base));
            if (vals.size() != ids.size() * ids.size()) continue;
            return rows(ids, vals, sorted);
        }
        return Map.of();
    }

    /** Rows by node id, each in the order of {@code ids}; {@code order} is the values' order. */
    private Map<Integer, List<Integer>> rows(List<Integer> order, List<Long> vals, List<Integer> ids) {
        int n = order.size();
        Map<Integer, List<Integer>> out = new HashMap<>();
        for (int a : ids) {
            int ia = order.indexOf(a);
            if (ia < 0) return Map.of();
            List<Integer> row = new ArrayList<>();
            for (int b2 : ids) {
                int ib = order.indexOf(b2);
                if (ib < 0) return Map.of();
                row.add((int) Math.min(Integer.MAX_VALUE, vals.get(ia * n + ib)));
            }
            out.put(a, row);
        }
        return out;
    }

    private List<CoreKind> coreKinds(XmlElement root) {
        List<CoreKind> out = new ArrayList<>();
        for (XmlElement k : root.all("cpukind")) {
            CpuMask cpus = attrs.mask(k, "cpuset").and(online);
            if (cpus.isEmpty()) continue;
            Optional<String> type = HwlocAttributes.info(k, "CoreType").map(t -> t.equals("IntelCore") ? "core" : t.equals("IntelAtom") ? "atom"
                    : Shorten.end(t, Topology.MAX_NAME));
            out.add(new CoreKind(cpus, HwlocAttributes.intInfo(k, "LinuxCapacity"), type, HwlocAttributes.intInfo(k, "FrequencyMaxMHz"), HwlocAttributes.intInfo(k, "FrequencyBaseMHz")));
        }
        out.sort(Comparator.comparingInt(k -> k.cpus().first()));
        return out;
    }
}
