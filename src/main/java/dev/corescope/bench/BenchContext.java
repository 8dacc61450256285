package dev.corescope.bench;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.sys.Os;
import dev.corescope.topology.Topology;

import java.util.Optional;

/**
 * How a family should run, and on what.
 *
 * @param cpus     the CPUs the user named with {@code --cpus}; empty: the family chooses
 *                 (from the topology) or runs unpinned, and says which
 * @param quick    {@code --quick}: each family well under 20 s on 2 cores
 * @param progress where to report progress (stderr bar in the CLI, nothing in tests)
 * @param smoke    the smallest run that proves the code works (tests): a handful of
 *                 iterations, no forks; its numbers mean nothing
 * @param os       the kernel's CPU calls the family makes on its own thread ({@link Os#live()};
 *                 tests give a larger machine)
 * @param topology the machine's topology, read once by the caller; null: read this machine's
 *                 when a family first asks
 */
public record BenchContext(Optional<CpuMask> cpus, boolean quick, Progress progress, boolean smoke, Os os, Topology topology) {

    /** This machine through FFM, its topology read when a family asks. */
    public BenchContext(Optional<CpuMask> cpus, boolean quick, Progress progress, boolean smoke) {
        this(cpus, quick, progress, smoke, Os.live(), null);
    }

    public static BenchContext smokeTest() {
        return new BenchContext(Optional.empty(), true, Progress.NONE, true);
    }

    /**
     * The topology the caller read, else this machine's (read now; {@link Topology#live()}
     * throws when sysfs is missing, which fails the family that needed it).
     */
    @Override
    public Topology topology() {
        return topology != null ? topology : Topology.live();
    }

    /** This context with another OS seam and topology (tests). */
    public BenchContext on(Os os, Topology topology) {
        return new BenchContext(cpus, quick, progress, smoke, os, topology);
    }

    /** The JMH settings for this mode. */
    public Jmh.Settings jmhSettings() {
        return smoke ? Jmh.Settings.SMOKE : quick ? Jmh.Settings.QUICK : Jmh.Settings.FULL;
    }
}
