package dev.corescope.bench;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.sys.internal.Os;
import dev.corescope.topology.Topology;

import java.util.Optional;

/**
 * How a family should run, and on what.
 *
 * @param cpus     the CPUs the user named with {@code --cpus}; empty: the family chooses
 *                 (from the topology) or runs unpinned, and says which
 * @param size     how long the run takes: full, {@code --quick}, or a smoke test's
 * @param progress where to report progress (stderr bar in the CLI, nothing in tests)
 * @param os       the kernel's CPU calls the family makes, on its own thread and on the threads
 *                 it starts ({@link Os#live()}; tests give a larger machine); a forked JMH JVM,
 *                 which has no context, uses {@link Os#live()}
 * @param topology the machine's topology, read once by the caller; null: read this machine's
 *                 when a family first asks
 */
public record BenchContext(Optional<CpuMask> cpus, RunSize size, Progress progress, Os os, Topology topology) {

    /** This machine through FFM, its topology read when a family asks. */
    public BenchContext(Optional<CpuMask> cpus, RunSize size, Progress progress) {
        this(cpus, size, progress, Os.live(), null);
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
        return new BenchContext(cpus, size, progress, os, topology);
    }

    /** The JMH settings for this mode. */
    public Jmh.Settings jmhSettings() {
        return size.pick(Jmh.Settings.SMOKE, Jmh.Settings.QUICK, Jmh.Settings.FULL);
    }
}
