package dev.corescope.cli;

import dev.corescope.bench.BenchSession;
import dev.corescope.report.EnvironmentProbe;
import dev.corescope.report.MachineSummary;
import dev.corescope.report.MachineTopology;
import dev.corescope.topology.HwlocXmlWriter;
import dev.corescope.topology.Topology;
import dev.corescope.topology.TopologyText;

/**
 * This machine's topology, read once per command and handed to whoever needs it: the
 * environment probe, the results file, the tour's header.
 *
 * @param topology the topology, or null when it could not be read
 * @param error    why it could not be read, or null
 */
record LiveMachine(Topology topology, String error) {

    /** Reads {@code /}; never throws (a failure is kept as {@link #error}). */
    static LiveMachine read() {
        try {
            return new LiveMachine(Topology.live(), null);
        } catch (RuntimeException e) {
            return new LiveMachine(null, BenchSession.describe(e));
        }
    }

    EnvironmentProbe probe() {
        return EnvironmentProbe.live(topology);
    }

    /**
     * The topology as the results file keeps it: the summary line, the counts and the model
     * (hwloc XML), from which the page draws the picture.
     */
    MachineTopology forResults() {
        if (topology == null) return MachineTopology.unreadable(error);
        return MachineTopology.of(TopologyText.summaryLine(topology), counts(topology), HwlocXmlWriter.write(topology));
    }

    /** The summary counts, SMT and the number of last-level caches, for comparing machines. */
    static MachineSummary.TopologyCounts counts(Topology t) {
        Topology.Summary s = t.summary();
        return new MachineSummary.TopologyCounts(s.packages(), s.dies(), s.clusters(), s.cores(), s.pus(),
                s.numaNodes(), t.lastLevelCaches().size(), t.smt().orElse(null));
    }
}
