package dev.corescope.topology;

import java.util.Arrays;
import java.util.List;

/**
 * Per CPU, the position of its package, die, cluster, core and PU in the topology's lists, its
 * L2, L3 and last-level cache and its NUMA node and core kind: built once with the
 * {@link Topology} in one pass over each list (linear in the tree), so that "where does CPU n
 * sit" and "how do a and b relate" are array look-ups.
 */
final class PlaceIndex {

    /** Positions in packages(), dies(), clusters(), cores(), pus(), by {@link TopologyNode.Kind#ordinal()}. */
    private final int[][] node = new int[TopologyNode.Kind.values().length][];
    private final int[] l2;
    private final int[] l3;
    private final int[] llc;
    private final int[] numa;
    private final int[] kind;

    PlaceIndex(Topology t) {
        int n = t.nbits();
        for (TopologyNode.Kind k : TopologyNode.Kind.values()) node[k.ordinal()] = positions(n, nodes(t, k));
        l2 = fill(n);
        l3 = fill(n);
        int i2 = 0;
        int i3 = 0;
        for (Cache c : t.caches()) {
            if (c.type() == Cache.Type.INSTRUCTION) continue;
            if (c.level() == 2) mark(l2, c, i2++);
            if (c.level() == 3) mark(l3, c, i3++);
        }
        llc = fill(n);
        List<Cache> llcs = t.lastLevelCaches();
        for (int i = 0; i < llcs.size(); i++) mark(llc, llcs.get(i), i);
        numa = fill(n);
        for (NumaNode nn : t.numaNodes()) {
            int id = nn.id();
            nn.cpus().forEachCpu(c -> {
                if (c < n) numa[c] = id;
            });
        }
        kind = fill(n);
        List<CoreKind> kinds = t.coreKinds();
        for (int i = 0; i < kinds.size(); i++) {
            int idx = i;
            kinds.get(i).cpus().forEachCpu(c -> {
                if (c < n) kind[c] = idx;
            });
        }
    }

    static List<TopologyNode> nodes(Topology t, TopologyNode.Kind k) {
        return switch (k) {
            case PACKAGE -> t.packages();
            case DIE -> t.dies();
            case CLUSTER -> t.clusters();
            case CORE -> t.cores();
            case PU -> t.pus();
        };
    }

    private static int[] positions(int n, List<TopologyNode> list) {
        int[] a = fill(n);
        for (int i = 0; i < list.size(); i++) {
            int idx = i;
            list.get(i).cpus().forEachCpu(c -> {
                if (c < n) a[c] = idx;
            });
        }
        return a;
    }

    private static void mark(int[] a, Cache c, int idx) {
        c.cpus().forEachCpu(cpu -> {
            if (cpu < a.length) a[cpu] = idx;
        });
    }

    private static int[] fill(int n) {
        int[] a = new int[n];
        Arrays.fill(a, -1);
        return a;
    }

    /** The position of {@code cpu}'s node of {@code k} in its list, -1 when none. */
    int position(TopologyNode.Kind k, int cpu) {
        int[] a = node[k.ordinal()];
        return cpu >= 0 && cpu < a.length ? a[cpu] : -1;
    }

    private static int at(int[] a, int cpu) {
        return cpu >= 0 && cpu < a.length ? a[cpu] : -1;
    }

    CpuPlace place(Topology t, int cpu) {
        if (cpu < 0 || cpu >= llc.length || position(TopologyNode.Kind.PU, cpu) < 0) return CpuPlace.unknown(cpu);
        return new CpuPlace(cpu, id(t, TopologyNode.Kind.PACKAGE, cpu), id(t, TopologyNode.Kind.DIE, cpu),
                id(t, TopologyNode.Kind.CLUSTER, cpu), id(t, TopologyNode.Kind.CORE, cpu),
                at(l2, cpu), at(l3, cpu), at(llc, cpu), at(numa, cpu), at(kind, cpu));
    }

    private int id(Topology t, TopologyNode.Kind k, int cpu) {
        int p = position(k, cpu);
        return p < 0 ? -1 : nodes(t, k).get(p).id();
    }

    /** See {@link Topology#relation(int, int)}; null when the tree cannot tell or a == b. */
    Placement relation(int a, int b) {
        if (a == b) return null;
        if (same(node[TopologyNode.Kind.CORE.ordinal()], a, b)) return Placement.SAME_CORE;
        if (same(l2, a, b)) return Placement.SAME_L2;
        if (same(llc, a, b) || same(l3, a, b)) return Placement.SAME_L3;
        int[] pkg = node[TopologyNode.Kind.PACKAGE.ordinal()];
        if (differ(pkg, a, b)) return Placement.OTHER_PACKAGE;
        boolean samePackage = same(pkg, a, b);
        if (samePackage && differ(numa, a, b)) return Placement.OTHER_NODE;
        if (samePackage && differ(llc, a, b)) return Placement.OTHER_L3;
        return null;
    }

    private static boolean same(int[] a, int x, int y) {
        int i = at(a, x);
        return i >= 0 && i == at(a, y);
    }

    private static boolean differ(int[] a, int x, int y) {
        int i = at(a, x);
        int j = at(a, y);
        return i >= 0 && j >= 0 && i != j;
    }
}
