package dev.corescope.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/**
 * The 1-minute load average from {@code proc/loadavg} under a root. Benchmarks that pin two
 * threads and make them wait for each other suffer most when other processes want the same
 * CPUs: a preempted thread stalls its partner for a whole time slice.
 */
public final class MachineLoad {

    private MachineLoad() {
    }

    public static Optional<Double> oneMinute(Path root) {
        try {
            String first = Files.readString(root.resolve("proc/loadavg")).strip().split("\\s+")[0];
            return Optional.of(Double.parseDouble(first));
        } catch (IOException | NumberFormatException | ArrayIndexOutOfBoundsException e) {
            return Optional.empty();
        }
    }

    /**
     * A note for the report when the load average, before the run, is above half the CPUs the
     * benchmark uses; empty when the machine looks quiet or the load cannot be read.
     */
    public static Optional<String> busyNote(Path root, int cpus) {
        return oneMinute(root).filter(l -> l > cpus / 2.0).map(l -> String.format(Locale.ROOT,
                "the machine was busy before this run (1-minute load average %.1f for %d CPUs): other processes "
                        + "preempt the pinned threads, which inflates the figures and their errors; re-run on a quiet machine",
                l, cpus));
    }
}
