package dev.corescope.bench.c2c;

import dev.corescope.topology.CpuPlace;
import dev.corescope.topology.Placement;
import dev.corescope.topology.Topology;
import dev.corescope.topology.TopologyNode;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The class of every pair of CPUs the c2c matrix samples by: {@link Topology#relation} (the
 * innermost thing two CPUs share, O(1)), and where the tree cannot tell (no cache information,
 * no package number), the innermost level the two are known to share, so that every pair
 * gets exactly one class: the same package and NUMA node is {@link Placement#OTHER_L3}, the
 * same package {@link Placement#OTHER_NODE}, anything else {@link Placement#OTHER_PACKAGE}.
 */
public final class PairClasses {

    private static final Placement[] LEVELS = Placement.values();

    private final Topology topology;
    /** The core of a CPU as a small number (core_id repeats across packages, so the node itself). */
    private final Map<TopologyNode, Integer> cores = new IdentityHashMap<>();
    private final Map<Long, Integer> packageNodes = new HashMap<>();

    public PairClasses(Topology topology) {
        this.topology = topology;
    }

    /** How {@code a} and {@code b} ({@code a != b}) relate. */
    public Placement of(int a, int b) {
        if (a == b) throw new IllegalArgumentException("CPU " + a + " and itself");
        Placement p = topology.relation(a, b).orElse(null);
        if (p != null) return p;
        int na = group(3, a);
        if (na >= 0 && na == group(3, b)) return Placement.OTHER_L3;
        int pa = group(4, a);
        if (pa >= 0 && pa == group(4, b)) return Placement.OTHER_NODE;
        return Placement.OTHER_PACKAGE;
    }

    /**
     * {@code cpu}'s group at the level of class {@code level} (by ordinal: core, L2, L3,
     * (package, NUMA node), package), -1 where the tree says nothing; from {@link Topology#where}.
     */
    private int group(int level, int cpu) {
        CpuPlace p = topology.where(cpu);
        return switch (level) {
            case 0 -> topology.nodeOf(TopologyNode.Kind.CORE, cpu).map(n -> cores.computeIfAbsent(n, x -> cores.size())).orElse(-1);
            case 1 -> p.l2();
            case 2 -> p.l3();
            case 3 -> p.packageId() < 0 && p.numaNode() < 0 ? -1
                    : packageNodes.computeIfAbsent(((long) p.packageId() << 32) | (p.numaNode() & 0xFFFF_FFFFL), x -> packageNodes.size());
            case 4 -> p.packageId();
            default -> -1;
        };
    }

    /**
     * Up to {@code perClass} representative pairs of each class among {@code cpus}, each as
     * {@code {from, to}} with {@code from < to}, classes innermost first; a class the
     * machine does not have among them is absent. Representatives are spread over the
     * machine: within each group of a level (a core, an L2, ...), the first CPU of one of its
     * parts paired with the first CPU of the next part (then their middle and last CPUs),
     * groups taken in turn, so three representatives of {@code other L3} come from three L3
     * pairs, in different packages where there are several. Linear in {@code cpus}: no scan
     * over pairs.
     */
    public Map<Placement, List<int[]>> representatives(int[] cpus, int perClass) {
        Map<Placement, List<int[]>> out = new EnumMap<>(Placement.class);
        for (Placement r : LEVELS) {
            int level = r.ordinal();
            boolean all = r == Placement.OTHER_PACKAGE;
            // groups at this level (all CPUs one group for OTHER_PACKAGE), each split into its
            // parts: the CPUs that share the level below (the CPU itself below SAME_CORE)
            Map<Integer, Map<Integer, List<Integer>>> groups = new LinkedHashMap<>();
            for (int cpu : cpus) {
                int g = all ? 0 : group(level, cpu);
                if (g < 0) continue;
                int part = partOf(level, cpu);
                groups.computeIfAbsent(g, x -> new LinkedHashMap<>()).computeIfAbsent(part, x -> new ArrayList<>()).add(cpu);
            }
            // per group: consecutive parts paired at their first CPUs, then at their middle and last
            // ones, so a group of two parts (two packages) still gives several pairs
            List<List<int[]>> perGroup = new ArrayList<>();
            for (Map<Integer, List<Integer>> parts : groups.values()) {
                List<List<Integer>> ps = new ArrayList<>(parts.values());
                List<int[]> pairs = new ArrayList<>();
                Set<Long> seen = new HashSet<>();
                for (int pos = 0; pos < 3; pos++) {
                    for (int k = 0; k + 1 < ps.size(); k++) {
                        int a = at(ps.get(k), pos), b = at(ps.get(k + 1), pos);
                        if (of(a, b) == r && seen.add(((long) Math.min(a, b) << 32) | Math.max(a, b))) {
                            pairs.add(new int[]{Math.min(a, b), Math.max(a, b)});
                        }
                    }
                }
                if (!pairs.isEmpty()) perGroup.add(pairs);
            }
            List<int[]> chosen = new ArrayList<>();
            List<List<int[]>> spread = spread(perGroup, perClass);
            for (int round = 0; chosen.size() < perClass; round++) {
                boolean any = false;
                for (List<int[]> pairs : spread) {
                    if (round < pairs.size() && chosen.size() < perClass) {
                        chosen.add(pairs.get(round));
                        any = true;
                    }
                }
                if (!any) break;
            }
            if (!chosen.isEmpty()) out.put(r, List.copyOf(chosen));
        }
        return out;
    }

    /** The first, middle or last CPU of a part ({@code pos} 0, 1, 2). */
    private static int at(List<Integer> part, int pos) {
        return part.get(pos == 0 ? 0 : pos == 1 ? part.size() / 2 : part.size() - 1);
    }

    /** The part of {@code cpu} inside its group at {@code level}: its group one level in, the nearest one known, else itself. */
    private int partOf(int level, int cpu) {
        for (int below = level - 1; below >= 0; below--) {
            int k = group(below, cpu);
            if (k >= 0) return k;
        }
        return -1 - cpu;
    }

    /** Up to {@code k} of the groups, evenly spaced over the list (the first, the last, between). */
    private static List<List<int[]>> spread(List<List<int[]>> groups, int k) {
        if (groups.size() <= k) return groups;
        List<List<int[]>> out = new ArrayList<>();
        for (int i = 0; i < k; i++) out.add(groups.get((int) ((long) i * (groups.size() - 1) / Math.max(1, k - 1))));
        return out;
    }
}
