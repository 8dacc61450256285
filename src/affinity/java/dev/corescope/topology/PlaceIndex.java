package dev.corescope.topology;

import dev.corescope.cpumask.CpuMask;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The tree's objects by level and its caches, each list by first CPU, and per CPU the position of
 * its package, die, cluster, core and PU in those lists, its L2, L3 and last-level cache and its
 * NUMA node and core kind: built once with the {@link Topology} in one pass over each list
 * (linear in the tree), so that "where does CPU n sit" and "how do a and b relate" are array
 * look-ups.
 */
final class PlaceIndex {

    private final Map<TopologyNode.Kind, List<TopologyNode>> nodes = new EnumMap<>(TopologyNode.Kind.class);
    private final List<Cache> caches;
    private final List<Cache> lastLevel;
    /** Positions in {@link #nodes}, by {@link TopologyNode.Kind#ordinal()}. */
    private final int[][] node = new int[TopologyNode.Kind.values().length][];
    private final int[] l2;
    private final int[] l3;
    private final int[] llc;
    private final int[] numa;
    private final int[] kind;

    PlaceIndex(Topology t, List<TopologyNode> roots, List<Cache> machineCaches) {
        for (TopologyNode.Kind k : TopologyNode.Kind.values()) nodes.put(k, new ArrayList<>());
        List<Cache> all = new ArrayList<>(machineCaches);
        for (TopologyNode r : roots) collect(r, all);
        nodes.replaceAll((k, l) -> l.stream().sorted(TopologyNode.BY_FIRST_CPU).toList());
        all.sort(Cache.ORDER);
        caches = List.copyOf(all);
        List<Cache> data = caches.stream().filter(c -> c.type() != Cache.Type.INSTRUCTION).toList();
        int top = data.stream().mapToInt(Cache::level).max().orElse(0);
        lastLevel = data.stream().filter(c -> c.level() == top).toList();

        int n = t.nbits();
        for (TopologyNode.Kind k : TopologyNode.Kind.values()) node[k.ordinal()] = positions(n, nodes.get(k), TopologyNode::cpus);
        l2 = positions(n, data.stream().filter(c -> c.level() == 2).toList(), Cache::cpus);
        l3 = positions(n, data.stream().filter(c -> c.level() == 3).toList(), Cache::cpus);
        llc = positions(n, lastLevel, Cache::cpus);
        numa = fill(n);
        for (NumaNode nn : t.numaNodes()) mark(numa, nn.cpus(), nn.id());
        kind = positions(n, t.coreKinds(), CoreKind::cpus);
    }

    private void collect(TopologyNode n, List<Cache> all) {
        nodes.get(n.kind()).add(n);
        all.addAll(n.caches());
        for (TopologyNode c : n.children()) collect(c, all);
    }

    /** The nodes of level {@code k}, by first CPU; unmodifiable. */
    List<TopologyNode> nodes(TopologyNode.Kind k) {
        return nodes.get(k);
    }

    /** Every cache, by level, type and first CPU; unmodifiable. */
    List<Cache> caches() {
        return caches;
    }

    /** The caches of the highest data or unified level; unmodifiable. */
    List<Cache> lastLevelCaches() {
        return lastLevel;
    }

    /** Per CPU, the position in {@code list} of the element whose CPUs hold it; -1 for none. */
    private static <T> int[] positions(int n, List<T> list, Function<T, CpuMask> cpus) {
        int[] a = fill(n);
        for (int i = 0; i < list.size(); i++) mark(a, cpus.apply(list.get(i)), i);
        return a;
    }

    private static void mark(int[] a, CpuMask cpus, int value) {
        cpus.forEachCpu(cpu -> {
            if (cpu < a.length) a[cpu] = value;
        });
    }

    private static int[] fill(int n) {
        int[] a = new int[n];
        Arrays.fill(a, -1);
        return a;
    }

    /** The position of {@code cpu}'s node of {@code k} in its list, -1 when none. */
    int position(TopologyNode.Kind k, int cpu) {
        return at(node[k.ordinal()], cpu);
    }

    private static int at(int[] a, int cpu) {
        return cpu >= 0 && cpu < a.length ? a[cpu] : -1;
    }

    CpuPlace place(int cpu) {
        if (cpu < 0 || cpu >= llc.length || position(TopologyNode.Kind.PU, cpu) < 0) return CpuPlace.unknown(cpu);
        return new CpuPlace(cpu, id(TopologyNode.Kind.PACKAGE, cpu), id(TopologyNode.Kind.DIE, cpu),
                id(TopologyNode.Kind.CLUSTER, cpu), id(TopologyNode.Kind.CORE, cpu),
                at(l2, cpu), at(l3, cpu), at(llc, cpu), at(numa, cpu), at(kind, cpu));
    }

    private int id(TopologyNode.Kind k, int cpu) {
        int p = position(k, cpu);
        return p < 0 ? -1 : nodes.get(k).get(p).id();
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
