package dev.corescope.bench;

import dev.corescope.cpumask.CpuMask;

import java.util.Optional;

/**
 * How a family should run.
 *
 * @param cpus     the CPUs the user named with {@code --cpus}; empty: the family chooses
 *                 (from the topology) or runs unpinned, and says which
 * @param quick    {@code --quick}: each family well under 20 s on 2 cores
 * @param progress where to report progress (stderr bar in the CLI, nothing in tests)
 * @param smoke    the smallest run that proves the code works (tests): a handful of
 *                 iterations, no forks; its numbers mean nothing
 */
public record BenchContext(Optional<CpuMask> cpus, boolean quick, Progress progress, boolean smoke) {

    public static BenchContext smokeTest() {
        return new BenchContext(Optional.empty(), true, Progress.NONE, true);
    }

    /** The JMH settings for this mode. */
    public Jmh.Settings jmhSettings() {
        return smoke ? Jmh.Settings.SMOKE : quick ? Jmh.Settings.QUICK : Jmh.Settings.FULL;
    }
}
