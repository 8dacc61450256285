package dev.corescope.affinity;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.topology.Topology;
import dev.corescope.topology.TopologyNode;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which CPUs a reservation may take, best first, before anything is locked: the usable CPUs in
 * preference order, the single CPUs and the whole cores that fit a {@link CpuStrategy}, and the
 * cores that cannot be reserved whole. Immutable; the masks it hands out are shared by every
 * reservation of their CPU and never written.
 */
final class CpuChoice {

    final Topology topology;
    final CpuMask usable;
    /** The usable CPUs in preference order, each as a mask and as a one-element list: what {@code reserveAny} walks without allocating. */
    final int[] order;
    final CpuMask[] single;
    final int[][] singleList;

    CpuChoice(Topology topology, CpuMask usable, int[] order) {
        this.topology = topology;
        this.usable = usable;
        this.order = order;
        int nbits = usable.nbits();
        this.single = new CpuMask[order.length];
        this.singleList = new int[order.length][];
        for (int i = 0; i < order.length; i++) {
            single[i] = CpuMask.of(nbits, order[i]);
            singleList[i] = new int[]{order[i]};  // shared by the reservations of this CPU: never written
        }
    }

    /** Every online CPU of {@code cpu}'s core, from {@link Topology#nodeOf} (just {@code cpu} when the tree has no cores). */
    CpuMask coreOf(int cpu) {
        return topology.nodeOf(TopologyNode.Kind.CORE, cpu).map(TopologyNode::cpus)
                .orElseGet(() -> CpuMask.of(Math.max(topology.nbits(), cpu + 1), cpu));
    }

    /** Single CPUs fitting {@code s} relative to {@code anchor} (negative: none), in preference order. */
    List<CpuMask> cpus(int anchor, CpuStrategy s) {
        List<CpuMask> out = new ArrayList<>();
        for (int i = 0; i < order.length; i++) {
            if (fits(s, anchor, order[i])) out.add(single[i]);
        }
        return out;
    }

    /** How every strategy is asked: without an anchor any CPU fits, and never the anchor itself. */
    private boolean fits(CpuStrategy s, int anchor, int cpu) {
        return anchor < 0 || (cpu != anchor && s.accepts(topology, anchor, cpu));
    }

    /** Whole cores (every online CPU usable) whose CPUs all fit {@code s}, best first. */
    List<CpuMask> cores(int anchor, CpuStrategy s) {
        Map<Integer, Integer> rank = new HashMap<>();
        for (int i = 0; i < order.length; i++) rank.put(order[i], i);
        Map<String, CpuMask> cores = new LinkedHashMap<>();
        for (int cpu : order) {
            CpuMask core = coreOf(cpu).resize(usable.nbits());
            if (!core.isSubsetOf(usable)) continue;
            boolean fits = true;
            for (int c : core.toArray()) fits &= fits(s, anchor, c) && c != anchor;
            if (fits) cores.putIfAbsent(core.toList(), core);
        }
        List<CpuMask> out = new ArrayList<>(cores.values());
        out.sort(Comparator.comparingInt(core -> Arrays.stream(core.toArray()).map(rank::get).max().orElse(0)));
        return out;
    }

    /** The usable CPUs whose core has CPUs outside the usable set: no whole core can be reserved there. */
    CpuMask partialCores() {
        CpuMask.Builder b = CpuMask.builder(usable.nbits());
        for (int cpu : usable.toArray()) {
            if (!coreOf(cpu).resize(usable.nbits()).isSubsetOf(usable)) b.set(cpu);
        }
        return b.build();
    }

    /** Throws when {@code cpus} has a CPU outside the usable set, naming it. */
    void checkUsable(CpuMask cpus) {
        CpuMask outside = cpus.andNot(usable);
        if (!outside.isEmpty()) {
            throw new ReservationException((outside.weight() == 1 ? "CPU " + outside.toList() + " is" : "CPUs " + outside.toList() + " are")
                    + " not among the usable CPUs " + (usable.isEmpty() ? "(none)" : usable.toList()) + " (online and in this process's affinity mask)");
        }
    }
}
