package dev.corescope.affinity;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.topology.Cache;
import dev.corescope.topology.Topology;
import dev.corescope.topology.TopologyNode;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Per-CPU core, last-level cache and package of a topology, so a relation is an O(1) look-up. */
final class CpuIndex {

    private final Topology topology;
    private final Map<Integer, Integer> core = new HashMap<>();
    private final Map<Integer, Integer> llc = new HashMap<>();
    private final Map<Integer, Integer> pkg = new HashMap<>();

    CpuIndex(Topology t) {
        this.topology = t;
        index(t.cores(), core);
        index(t.packages(), pkg);
        List<Cache> llcs = t.lastLevelCaches();
        for (int i = 0; i < llcs.size(); i++) {
            int id = i;
            llcs.get(i).cpus().forEachCpu(c -> llc.put(c, id));
        }
    }

    private static void index(List<TopologyNode> nodes, Map<Integer, Integer> into) {
        for (int i = 0; i < nodes.size(); i++) {
            int id = i;
            nodes.get(i).cpus().forEachCpu(c -> into.put(c, id));
        }
    }

    boolean sameCore(int a, int b) {
        Integer x = core.get(a);
        return x != null && x.equals(core.get(b));
    }

    boolean sameLlc(int a, int b) {
        Integer x = llc.get(a);
        return x != null && x.equals(llc.get(b));
    }

    boolean differentLlc(int a, int b) {
        Integer x = llc.get(a);
        Integer y = llc.get(b);
        return x != null && y != null && !x.equals(y);
    }

    boolean differentPackage(int a, int b) {
        Integer x = pkg.get(a);
        Integer y = pkg.get(b);
        return x != null && y != null && !x.equals(y);
    }

    /** Every online CPU of {@code cpu}'s core (just {@code cpu} when the tree has no cores). */
    CpuMask coreOf(int cpu) {
        for (TopologyNode n : topology.cores()) if (n.cpus().test(cpu)) return n.cpus();
        return CpuMask.of(Math.max(topology.nbits(), cpu + 1), cpu);
    }
}
