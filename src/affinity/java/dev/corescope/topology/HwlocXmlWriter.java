package dev.corescope.topology;

import dev.corescope.cpumask.CpuMask;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A {@link Topology} as hwloc's v2 XML ({@code lstopo --of xml}), so that {@code lstopo -i FILE.xml},
 * {@code hwloc-calc --input FILE.xml} and every hwloc-based tool read it as they read the machine.
 *
 * <p>Objects nest by CPU set in hwloc's order (Group, Package, Die, caches largest first, Core,
 * PU); NUMA nodes are memory children of the highest object with exactly their CPUs; clusters are
 * Groups of subtype {@code Cluster}; a die with its package's CPUs is left out, as hwloc leaves it.
 * {@code allowed_cpuset} is the cgroup's cpuset (hwloc's "allowed"), else the online CPUs. What
 * hwloc's XML has no attribute for is kept as Machine infos, which hwloc keeps and shows without
 * acting on them: {@link #INFO_AFFINITY}, {@link #INFO_ISOLATED}, {@link #INFO_NOHZ_FULL}.
 */
public final class HwlocXmlWriter {

    /**
     * The Machine's info holding the writing process's {@code sched_getaffinity} set (an hwloc bitmap); not
     * {@code allowed_cpuset}, which means the cgroup's limit to hwloc, and outside which its tools remove every PU.
     */
    public static final String INFO_AFFINITY = "corescope.sched_getaffinity";

    /** The Machine's info holding the kernel's isolated CPUs ({@code isolcpus=}), an hwloc bitmap; written when there are any. */
    public static final String INFO_ISOLATED = "corescope.isolated";

    /** The Machine's info holding the kernel's {@code nohz_full} CPUs, an hwloc bitmap; written when there are any. */
    public static final String INFO_NOHZ_FULL = "corescope.nohz_full";

    /** The Machine's info naming where the caches came from when not sysfs ({@code cpuid}); hwloc's XML has no place for it. */
    static final String INFO_CACHE_SOURCE = "corescope.cache_source";

    /** hwloc's {@code HWLOC_GROUP_KIND_LINUX_CLUSTER}, the kind its Linux backend gives clusters. */
    static final int GROUP_KIND_LINUX_CLUSTER = 222;

    /** hwloc's {@code HWLOC_DISTANCES_KIND_FROM_OS | HWLOC_DISTANCES_KIND_MEANS_LATENCY}, as for the kernel's SLIT. */
    static final int DISTANCES_KIND_OS_LATENCY = 5;

    private final Topology t;
    private final int nbits;
    private int gpIndex = 1;

    private HwlocXmlWriter(Topology t) {
        this.t = t;
        this.nbits = t.nbits();
    }

    /**
     * {@return the whole XML document of {@code t}, starting with the XML declaration}
     *
     * @param t the topology
     */
    public static String write(Topology t) {
        return new HwlocXmlWriter(t).document();
    }

    /** One object of the document while it is assembled. */
    private static final class Obj {
        final String type;
        final int order;
        final CpuMask cpus;
        final List<String[]> attrs = new ArrayList<>();
        final List<String[]> infos = new ArrayList<>();
        final List<Obj> children = new ArrayList<>();
        final List<Obj> memory = new ArrayList<>();

        Obj(String type, int order, CpuMask cpus) {
            this.type = type;
            this.order = order;
            this.cpus = cpus;
        }

        Obj attr(String name, Object value) {
            attrs.add(new String[] {name, String.valueOf(value)});
            return this;
        }

        Obj info(String name, String value) {
            infos.add(new String[] {name, value});
            return this;
        }
    }

    // hwloc's obj_type_order: for the same CPUs, the lower number is the parent
    private static final int ORDER_MACHINE = 0;
    private static final int ORDER_GROUP = 1;
    private static final int ORDER_PACKAGE = 4;
    private static final int ORDER_DIE = 5;
    private static final int ORDER_CORE = 14;
    private static final int ORDER_PU = 18;

    private static int cacheOrder(Cache c) {
        // L5 6, L4 7, L3 8, L3i 9, L2 10, L2i 11, L1 12, L1i 13
        int base = switch (c.level()) {
            case 1 -> 12;
            case 2 -> 10;
            case 3 -> 8;
            case 4 -> 7;
            default -> 6;
        };
        return c.type() == Cache.Type.INSTRUCTION && c.level() <= 3 ? base + 1 : base;
    }

    private String document() {
        CpuMask online = t.online().resize(nbits);
        CpuMask complete = online.or(t.possible().resize(nbits));
        CpuMask allowed = t.cgroupCpus().map(c -> c.resize(nbits).and(online)).filter(c -> !c.isEmpty()).orElse(online);
        List<NumaNode> nodes = new ArrayList<>(t.numaNodes());
        nodes.sort(Comparator.comparingInt(NumaNode::id));

        Obj machine = new Obj("Machine", ORDER_MACHINE, online);
        machine.attr("os_index", 0).attr("cpuset", HwlocBitmap.format(online)).attr("complete_cpuset", HwlocBitmap.format(complete))
                .attr("allowed_cpuset", HwlocBitmap.format(allowed));
        machine.info("Backend", "Linux").info("OSName", "Linux").info("WrittenBy", "corescope");
        // what hwloc's XML has no attribute for, as infos hwloc keeps and shows (lstopo -v) but does not act on
        t.allowed().ifPresent(a -> machine.info(INFO_AFFINITY, HwlocBitmap.format(a.resize(nbits))));
        if (!t.isolated().isEmpty()) machine.info(INFO_ISOLATED, HwlocBitmap.format(t.isolated().resize(nbits)));
        if (!t.nohzFull().isEmpty()) machine.info(INFO_NOHZ_FULL, HwlocBitmap.format(t.nohzFull().resize(nbits)));
        if (!t.cacheSource().equals("sysfs")) machine.info(INFO_CACHE_SOURCE, t.cacheSource());

        List<Obj> objs = new ArrayList<>();
        for (TopologyNode n : t.roots()) collect(n, null, objs);
        for (Cache c : t.caches()) {
            if (c.cpus().isEmpty()) continue;
            Obj o = new Obj("L" + c.level() + (c.type() == Cache.Type.INSTRUCTION ? "i" : "") + "Cache", cacheOrder(c), c.cpus().resize(nbits));
            if (c.sizeBytes() >= 0) o.attr("cache_size", c.sizeBytes());
            o.attr("depth", c.level());
            if (c.lineSize() > 0) o.attr("cache_linesize", c.lineSize());
            // hwloc: 0 unknown, -1 fully associative; the kernel (and Cache): 0 fully associative
            if (c.ways() >= 0) o.attr("cache_associativity", c.ways() == 0 ? -1 : c.ways());
            o.attr("cache_type", switch (c.type()) {
                case UNIFIED -> 0;
                case DATA -> 1;
                case INSTRUCTION -> 2;
            });
            objs.add(o);
        }
        objs.sort(Comparator.comparingInt((Obj o) -> -o.cpus.weight()).thenComparingInt(o -> o.order)
                .thenComparingInt(o -> o.cpus.isEmpty() ? -1 : o.cpus.first()));
        for (Obj o : objs) insert(machine, o);

        for (NumaNode n : nodes) {
            CpuMask cpus = n.cpus().resize(nbits).and(online);
            Obj o = new Obj("NUMANode", 3, cpus);
            String nodeset = HwlocBitmap.of(List.of(n.id()));
            o.attr("os_index", n.id()).attr("cpuset", HwlocBitmap.format(cpus)).attr("complete_cpuset", HwlocBitmap.format(cpus))
                    .attr("nodeset", nodeset).attr("complete_nodeset", nodeset).attr("gp_index", gpIndex++);
            if (n.memoryBytes() >= 0) o.attr("local_memory", n.memoryBytes());
            holder(machine, cpus, true).memory.add(o);
        }
        List<Integer> nodeIds = nodes.stream().map(NumaNode::id).toList();

        StringBuilder sb = new StringBuilder(4096);
        sb.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        sb.append("<!DOCTYPE topology SYSTEM \"hwloc2.dtd\">\n");
        sb.append("<topology version=\"2.0\">\n");
        String nodeset = HwlocBitmap.of(nodeIds);
        machine.attr("nodeset", nodeset).attr("complete_nodeset", nodeset).attr("allowed_nodeset", nodeset).attr("gp_index", gpIndex++);
        t.cpuModel().ifPresent(m -> {
            for (Obj c : machine.children) if (c.type.equals("Package")) c.info("CPUModel", m);
        });
        emit(sb, machine, nodes, "  ");
        if (nodes.size() > 1) distances(sb, nodes);
        for (CoreKind k : t.coreKinds()) cpukind(sb, k);
        sb.append("</topology>\n");
        return sb.toString();
    }

    private void collect(TopologyNode n, TopologyNode pkg, List<Obj> out) {
        CpuMask cpus = n.cpus().resize(nbits);
        Obj o = switch (n.kind()) {
            case PACKAGE -> new Obj("Package", ORDER_PACKAGE, cpus);
            case DIE -> pkg != null && pkg.cpus().sameCpus(n.cpus()) ? null : new Obj("Die", ORDER_DIE, cpus);
            case CLUSTER -> new Obj("Group", ORDER_GROUP, cpus);
            case CORE -> new Obj("Core", ORDER_CORE, cpus);
            case PU -> new Obj("PU", ORDER_PU, cpus);
        };
        if (o != null && !cpus.isEmpty()) {
            if (n.id() >= 0) o.attr("os_index", n.id());
            if (n.kind() == TopologyNode.Kind.CLUSTER) {
                o.attr("subtype", "Cluster").attr("kind", GROUP_KIND_LINUX_CLUSTER).attr("subkind", 0);
            }
            out.add(o);
        }
        TopologyNode p = n.kind() == TopologyNode.Kind.PACKAGE ? n : pkg;
        for (TopologyNode c : n.children()) collect(c, p, out);
    }

    /** Under the deepest object already placed whose CPUs hold {@code o}'s. */
    private static void insert(Obj machine, Obj o) {
        holder(machine, o.cpus, false).children.add(o);
    }

    /** Down from the machine into a child holding {@code cpus}, as deep as that goes; with {@code atSame}, to the first with exactly them. */
    private static Obj holder(Obj machine, CpuMask cpus, boolean atSame) {
        Obj at = machine;
        descend:
        while (!(atSame && cpus.isEmpty())) {
            for (Obj c : at.children) {
                if (cpus.isSubsetOf(c.cpus)) {
                    at = c;
                    if (atSame && c.cpus.sameCpus(cpus)) return at;
                    continue descend;
                }
            }
            break;
        }
        return at;
    }

    private void emit(StringBuilder sb, Obj o, List<NumaNode> nodes, String indent) {
        if (!o.type.equals("Machine") && !o.type.equals("NUMANode")) {
            o.attr("cpuset", HwlocBitmap.format(o.cpus)).attr("complete_cpuset", HwlocBitmap.format(o.cpus));
            List<Integer> ids = new ArrayList<>();
            for (NumaNode n : nodes) if (n.cpus().resize(nbits).intersects(o.cpus)) ids.add(n.id());
            o.attr("nodeset", HwlocBitmap.of(ids)).attr("complete_nodeset", HwlocBitmap.of(ids));
            o.attr("gp_index", gpIndex++);
        }
        sb.append(indent).append("<object type=\"").append(o.type).append('"');
        for (String[] a : o.attrs) sb.append(' ').append(a[0]).append("=\"").append(escape(a[1])).append('"');
        o.children.sort(Comparator.comparingInt(c -> c.cpus.first()));
        if (o.infos.isEmpty() && o.children.isEmpty() && o.memory.isEmpty()) {
            sb.append("/>\n");
            return;
        }
        sb.append(">\n");
        String inner = indent + "  ";
        infos(sb, o.infos, inner);
        for (Obj m : o.memory) emit(sb, m, nodes, inner);
        for (Obj c : o.children) emit(sb, c, nodes, inner);
        sb.append(indent).append("</object>\n");
    }

    private static void distances(StringBuilder sb, List<NumaNode> nodes) {
        int n = nodes.size();
        for (NumaNode node : nodes) if (node.distances().size() != n) return;
        StringBuilder idx = new StringBuilder();
        for (NumaNode node : nodes) idx.append(node.id()).append(' ');
        StringBuilder vals = new StringBuilder();
        for (NumaNode node : nodes) for (int d : node.distances()) vals.append(d).append(' ');
        sb.append("  <distances2 type=\"NUMANode\" nbobjs=\"").append(n).append("\" kind=\"").append(DISTANCES_KIND_OS_LATENCY)
                .append("\" name=\"NUMALatency\" indexing=\"os\">\n");
        sb.append("    <indexes length=\"").append(idx.length()).append("\">").append(idx).append("</indexes>\n");
        sb.append("    <u64values length=\"").append(vals.length()).append("\">").append(vals).append("</u64values>\n");
        sb.append("  </distances2>\n");
    }

    private void cpukind(StringBuilder sb, CoreKind k) {
        sb.append("  <cpukind cpuset=\"").append(HwlocBitmap.format(k.cpus().resize(nbits))).append("\"");
        List<String[]> infos = new ArrayList<>();
        k.hybridType().ifPresent(h -> infos.add(new String[] {"CoreType", h.equals("core") ? "IntelCore" : h.equals("atom") ? "IntelAtom" : h}));
        k.maxFreqMHz().ifPresent(f -> infos.add(new String[] {"FrequencyMaxMHz", Integer.toString(f)}));
        k.baseFreqMHz().ifPresent(f -> infos.add(new String[] {"FrequencyBaseMHz", Integer.toString(f)}));
        k.capacity().ifPresent(c -> infos.add(new String[] {"LinuxCapacity", Integer.toString(c)}));
        if (infos.isEmpty()) {
            sb.append("/>\n");
            return;
        }
        sb.append(">\n");
        infos(sb, infos, "    ");
        sb.append("  </cpukind>\n");
    }

    private static void infos(StringBuilder sb, List<String[]> infos, String indent) {
        for (String[] i : infos) sb.append(indent).append("<info name=\"").append(escape(i[0])).append("\" value=\"").append(escape(i[1])).append("\"/>\n");
    }

    /** XML attribute text: the five predefined entities; a tab as a reference, other control characters as spaces. */
    static String escape(String s) {
        StringBuilder sb = null;
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            String rep = switch (ch) {
                case '&' -> "&amp;";
                case '<' -> "&lt;";
                case '>' -> "&gt;";
                case '"' -> "&quot;";
                case '\'' -> "&apos;";
                // XML 1.0 has no way to write the other control characters, even as references
                default -> ch < 0x20 ? (ch == '\t' ? "&#9;" : " ") : null;
            };
            if (rep != null && sb == null) sb = new StringBuilder(s.length() + 16).append(s, 0, i);
            if (sb != null) {
                if (rep != null) sb.append(rep);
                else sb.append(ch);
            }
        }
        return sb == null ? s : sb.toString();
    }
}
