package dev.corescope.bench.c2c;

import dev.corescope.topology.Cache;
import dev.corescope.topology.NumaNode;
import dev.corescope.topology.Topology;
import dev.corescope.topology.TopologyNode;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.Set;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How two CPUs relate: the innermost thing they share, one class per pair, innermost first. A
 * level the topology does not describe (no L2 information, one NUMA node unknown) is skipped, not
 * guessed: two cores whose L2 is unknown but that share an L3 are {@link #SAME_L3}.
 *
 * <p>The c2c matrix samples by these classes ({@link C2cPlan}). {@code Topology.relation} now
 * answers the same question with {@code topology.Placement}; the planner still uses this index,
 * and moving it to that one is open work (issue 26).
 */
public enum Relation {
    /** Two hardware threads of one core (SMT siblings). */
    SAME_CORE("same core"),
    /** Different cores sharing an L2 (a module or cluster). */
    SAME_L2("same L2"),
    /** Different L2s sharing an L3. */
    SAME_L3("same L3"),
    /** The same NUMA node and package, different L3s (CCXs, tiles). */
    OTHER_L3("other L3"),
    /** The same package, different NUMA nodes (sub-NUMA clustering, NPS). */
    OTHER_NODE("other NUMA node"),
    /** Different packages. */
    OTHER_PACKAGE("other package");

    private final String words;

    Relation(String words) {
        this.words = words;
    }

    /** {@code same L3}: for tables and notes. */
    public String words() {
        return words;
    }

    /** {@code same-l3}: for params and the command line. */
    public String key() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }

    /**
     * The relation of every pair of a topology in O(1) per pair: for each CPU, the index of its
     * core, L2, L3, (package, NUMA node) and package, built in one pass over the tree's objects
     * (linear in the tree's size, whatever the CPU count).
     */
    public static final class Index {
        private static final int LEVELS = 5;
        /** keys[level][cpu]: the group at that level, -1 where the tree says nothing. */
        private final int[][] keys;

        public Index(Topology t) {
            int n = t.nbits();
            keys = new int[LEVELS][n];
            for (int[] k : keys) Arrays.fill(k, -1);
            int i = 0;
            for (TopologyNode core : t.cores()) mark(0, i++, core.cpus().toArray());
            int l2 = 0, l3 = 0;
            for (Cache c : t.caches()) {
                if (c.type() == Cache.Type.INSTRUCTION) continue;
                if (c.level() == 2) mark(1, l2++, c.cpus().toArray());
                else if (c.level() == 3) mark(2, l3++, c.cpus().toArray());
            }
            i = 0;
            for (TopologyNode pkg : t.packages()) mark(4, i++, pkg.cpus().toArray());
            // (package, node): a node that spans packages counts once in each
            List<NumaNode> nodes = t.numaNodes();
            int[] nodeOf = new int[n];
            Arrays.fill(nodeOf, -1);
            for (int k = 0; k < nodes.size(); k++) for (int cpu : nodes.get(k).cpus().toArray()) if (cpu < n) nodeOf[cpu] = k;
            Map<Long, Integer> pkgNode = new LinkedHashMap<>();
            for (int cpu = 0; cpu < n; cpu++) {
                // no NUMA information: the package is one node (sysfs without node/ has one)
                if (nodeOf[cpu] < 0 && keys[4][cpu] < 0) continue;
                long key = ((long) keys[4][cpu] << 32) | (nodeOf[cpu] & 0xFFFF_FFFFL);
                keys[3][cpu] = pkgNode.computeIfAbsent(key, x -> pkgNode.size());
            }
        }

        private void mark(int level, int group, int[] cpus) {
            for (int cpu : cpus) if (cpu < keys[level].length) keys[level][cpu] = group;
        }

        /** How {@code a} and {@code b} ({@code a != b}) relate: the innermost level they share. */
        public Relation of(int a, int b) {
            if (a == b) throw new IllegalArgumentException("CPU " + a + " and itself");
            for (int level = 0; level < LEVELS; level++) {
                int ka = key(level, a);
                if (ka >= 0 && ka == key(level, b)) return Relation.values()[level];
            }
            return OTHER_PACKAGE;
        }

        private int key(int level, int cpu) {
            return cpu < keys[level].length ? keys[level][cpu] : -1;
        }

        /**
         * Up to {@code perClass} representative pairs of each class among {@code cpus}, each as
         * {@code {from, to}} with {@code from < to}, classes innermost first; a class the
         * machine does not have among them is absent. Representatives are spread over the
         * machine: within each group of a level (a core, an L2, ...), the first CPU of one of its
         * parts paired with the first CPU of the next part (then their middle and last CPUs),
         * groups taken in turn, so three
         * representatives of {@code other L3} come from three L3 pairs, in different packages
         * where there are several. Linear in {@code cpus}: no scan over pairs.
         */
        public Map<Relation, List<int[]>> representatives(int[] cpus, int perClass) {
            Map<Relation, List<int[]>> out = new EnumMap<>(Relation.class);
            for (Relation r : Relation.values()) {
                int level = r.ordinal();
                // groups at this level (all CPUs one group for OTHER_PACKAGE), each split into its
                // parts: the CPUs that share the level below (the CPU itself below SAME_CORE)
                Map<Integer, Map<Integer, List<Integer>>> groups = new LinkedHashMap<>();
                for (int cpu : cpus) {
                    int g = level < LEVELS ? key(level, cpu) : 0;
                    if (level < LEVELS && g < 0) continue;
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
                int k = key(below, cpu);
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
}
