package dev.corescope.topology;

import dev.corescope.text.Terminal;

import dev.corescope.cpumask.CpuMask;

import java.util.ArrayList;
import java.util.List;

/**
 * The text report: a tree in the manner of {@code lstopo-no-graphics}, then the CPU sets, core
 * kinds, NUMA distances and warnings, and last the one-line summary. Caches that belong to a
 * single core are written on the core's line; shared caches, dies and clusters are levels of the
 * tree (see {@link DisplayTree}).
 */
public final class TopologyText {

    private TopologyText() {
    }

    /**
     * The whole report: the tree, the CPU sets, the summary line, ending with a newline.
     * Text from the tree's files is escaped for a terminal.
     *
     * @param t the topology
     * @return the report
     */
    public static String render(Topology t) {
        StringBuilder sb = new StringBuilder();
        sb.append(machineLine(t)).append('\n');

        DisplayTree tree = DisplayTree.of(t);
        for (DisplayTree.Item item : tree.roots()) renderItem(sb, item, 1);

        sb.append('\n');
        sb.append("CPUs: online ").append(list(t.online()))
                .append("; offline ").append(list(t.offline()))
                .append("; possible ").append(list(t.possible()))
                .append("; present ").append(list(t.present())).append('\n');
        if (!t.isolated().isEmpty() || !t.nohzFull().isEmpty()) {
            sb.append("Isolated: ").append(list(t.isolated())).append("; nohz_full ").append(list(t.nohzFull())).append('\n');
        }
        // a live machine's is this process's; one read from corescope's hwloc XML, the writing process's
        t.allowed().ifPresent(a -> sb.append("Allowed: ").append(list(a))
                .append(t.source().equals("/") ? " (sched_getaffinity of this process)\n" : " (sched_getaffinity of the process that wrote it)\n"));
        t.cgroupCpus().ifPresent(c -> sb.append("Cgroup cpuset: ").append(list(c)).append('\n'));
        if (!t.coreKinds().isEmpty()) {
            sb.append("Core kinds: ").append(String.join("; ", t.coreKinds().stream().map(k -> k.cpus().toList() + " " + k.describe()).toList())).append('\n');
        }
        sb.append("Cache line: ").append(t.cacheLineSize()).append(" bytes\n");
        if (t.numaNodes().size() > 1) {
            if (t.numaNodes().stream().anyMatch(n -> !n.distances().isEmpty())) {
                sb.append("NUMA distances:\n");
                int w = 4;
                for (NumaNode n : t.numaNodes()) for (int d : n.distances()) w = Math.max(w, String.valueOf(d).length() + 1);
                sb.append(pad("", 7));
                for (NumaNode n : t.numaNodes()) sb.append(padLeft("#" + n.id(), w));
                sb.append('\n');
                for (NumaNode n : t.numaNodes()) {
                    sb.append(pad("  #" + n.id(), 7));
                    for (int d : n.distances()) sb.append(padLeft(String.valueOf(d), w));
                    sb.append('\n');
                }
            }
        }
        for (String w : t.warnings()) sb.append("warning: ").append(Terminal.escape(w)).append('\n');
        sb.append(summaryLine(t)).append('\n');
        return sb.toString();
    }

    /** {@code Machine: AMD EPYC (2 of 2 possible CPUs online, 5.2 GiB memory)}. */
    static String machineLine(Topology t) {
        StringBuilder sb = new StringBuilder("Machine");
        t.cpuModel().ifPresent(m -> sb.append(": ").append(Terminal.escape(m)));
        sb.append(" (").append(t.online().weight()).append(" of ").append(t.possible().weight()).append(" possible CPUs online");
        long mem = 0;
        boolean memKnown = !t.numaNodes().isEmpty();
        for (NumaNode n : t.numaNodes()) {
            if (n.memoryBytes() < 0) memKnown = false;
            mem += Math.max(0, n.memoryBytes());
        }
        if (memKnown) sb.append(", ").append(Sizes.binary(mem)).append(" memory");
        return sb.append(')').toString();
    }

    private static void renderItem(StringBuilder sb, DisplayTree.Item item, int depth) {
        sb.append("  ".repeat(depth)).append(Terminal.escape(item.label())).append('\n');
        for (DisplayTree.Item c : item.children()) renderItem(sb, c, depth + 1);
    }

    /**
     * The one-line summary, as {@link Topology#summaryLine()}.
     *
     * @param t the topology
     * @return e.g. {@code 1 package, 2 cores, 2 PUs, 1 NUMA node; L1d 32K ×2, L1i 32K ×2, L2 1M ×2, L3 32M ×1}
     */
    public static String summaryLine(Topology t) {
        Topology.Summary s = t.summary();
        List<String> parts = new ArrayList<>();
        parts.add(count(s.packages(), "package"));
        if (s.dies() > s.packages()) parts.add(count(s.dies(), "die"));
        // clusters are worth a word where one holds several cores
        if (t.clusters().stream().anyMatch(c -> c.children().stream().filter(k -> k.kind() == TopologyNode.Kind.CORE).count() > 1)) {
            parts.add(count(s.clusters(), "cluster"));
        }
        parts.add(count(s.cores(), "core"));
        String pus = count(s.pus(), "PU");
        if (!t.offline().isEmpty()) pus += " (+" + t.offline().weight() + " offline)";
        parts.add(pus);
        parts.add(count(s.numaNodes(), "NUMA node"));
        StringBuilder sb = new StringBuilder(String.join(", ", parts));
        List<Topology.CacheGroup> groups = t.cacheGroups();
        if (groups.isEmpty()) {
            sb.append("; caches unknown");
        } else {
            String sep = t.cacheSource().equals("cpuid") ? "; from CPUID: " : "; ";
            for (Topology.CacheGroup g : groups) {
                sb.append(sep).append(g.name()).append(' ').append(Sizes.kernelStyle(g.sizeBytes())).append(" ×").append(g.count());
                sep = ", ";
            }
        }
        return sb.toString();
    }

    private static String count(int n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }

    static String list(CpuMask m) {
        return m.isEmpty() ? "none" : m.toList();
    }

    private static String pad(String s, int w) {
        return s.length() >= w ? s : s + " ".repeat(w - s.length());
    }

    private static String padLeft(String s, int w) {
        return s.length() >= w ? s : " ".repeat(w - s.length()) + s;
    }
}
