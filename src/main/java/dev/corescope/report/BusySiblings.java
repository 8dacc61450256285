package dev.corescope.report;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.topology.Topology;
import dev.corescope.topology.TopologyNode;
import dev.corescope.topology.proc.CpuTimes;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.TreeSet;

/**
 * The environment's busy SMT siblings: an SMT sibling of a pinned CPU (same core in the topology),
 * itself not pinned, that was busier than {@link #BUSY_PERCENT} between two {@code /proc/stat}
 * snapshots shared the core's execution units with the measurement.
 */
final class BusySiblings {

    /** An SMT sibling busier than this during the run gets a warning. */
    static final double BUSY_PERCENT = 10.0;

    private BusySiblings() {
    }

    /**
     * Each busy sibling, in the order of the pinned CPUs; none when {@code topology},
     * {@code before} or {@code after} is null.
     */
    static List<Environment.BusySibling> of(Topology topology, CpuMask pinned, CpuTimes before, CpuTimes after) {
        List<Environment.BusySibling> out = new ArrayList<>();
        if (topology == null || before == null || after == null) return out;
        TreeSet<Integer> seen = new TreeSet<>();
        for (int cpu : pinned.toArray()) {
            CpuMask siblings = topology.nodeOf(TopologyNode.Kind.CORE, cpu).map(TopologyNode::cpus).orElse(null);
            if (siblings == null) continue;
            for (int sib : siblings.toArray()) {
                if (sib == cpu || pinned.test(sib) || !seen.add(sib)) continue;
                OptionalDouble busy = after.busyPercentSince(before, sib);
                if (busy.isPresent() && busy.getAsDouble() > BUSY_PERCENT) out.add(new Environment.BusySibling(cpu, sib, busy.getAsDouble()));
            }
        }
        return out;
    }
}
