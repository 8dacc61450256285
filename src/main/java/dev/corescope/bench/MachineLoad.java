package dev.corescope.bench;

import dev.corescope.topology.proc.LoadAvg;
import dev.corescope.topology.proc.SysfsReader;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The load average ({@code proc/loadavg} under a root) for a report: on a shared machine it
 * tells the reader how many other runnable threads competed for the CPUs while measuring.
 * Benchmarks that pin two threads and make them wait for each other suffer most: a preempted
 * thread stalls its partner for a whole time slice.
 */
public final class MachineLoad {

    private MachineLoad() {
    }

    /** The 1-minute load average, or empty where it cannot be read. */
    public static Optional<Double> oneMinute(Path root) {
        return fields(root).map(f -> Double.parseDouble(f[0]));
    }

    /** The 1, 5 and 15 minute load averages under {@code root}; empty where there are none ({@link RunSetup#load} words them). */
    public static Optional<List<Double>> averages(Path root) {
        return fields(root).map(f -> List.of(Double.parseDouble(f[0]), Double.parseDouble(f[1]), Double.parseDouble(f[2])));
    }

    /**
     * A note for the report when the load average, before the run, is above half the CPUs the
     * benchmark uses; empty when the machine looks quiet or the load cannot be read.
     */
    public static Optional<String> busyNote(Path root, int cpus) {
        return oneMinute(root).flatMap(l -> busyNote(l, cpus));
    }

    /**
     * The busy note of a saved load figure: present when the 1-minute load average was above half
     * the CPUs.
     *
     * @param oneMinute the 1-minute load average before the run
     * @param cpus      the CPUs it is measured against
     * @return the note, or empty when the machine was not busy
     */
    public static Optional<String> busyNote(double oneMinute, int cpus) {
        if (!(oneMinute > cpus / 2.0)) return Optional.empty();
        return Optional.of(String.format(Locale.ROOT,
                "the machine was busy before this run (1-minute load average %.1f for %d CPUs): other processes "
                        + "preempt the pinned threads, which inflates the figures and their errors; re-run on a quiet machine",
                oneMinute, cpus));
    }

    private static Optional<String[]> fields(Path root) {
        return LoadAvg.read(new SysfsReader(root)).map(LoadAvg::text);
    }
}
