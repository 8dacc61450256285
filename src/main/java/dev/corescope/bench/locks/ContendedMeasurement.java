package dev.corescope.bench.locks;

import java.util.List;

/**
 * Several threads, each pinned to its own CPU of a {@link ThreadPlacement}, hammering one lock.
 *
 * @param variant        which lock
 * @param implementation {@code java} (JMH, one thread per CPU) or {@code native} (the C twin's
 *                       threads, started from Java, each looping inside C)
 * @param label          the words after the figures in the text list
 * @param placement      the CPUs
 * @param nsPerOp        wall time per operation, all threads together: how fast the lock is
 *                       handed out
 * @param nsError        half-width of its 99.9% confidence interval (NaN when unknown)
 * @param samples        iterations (Java) or rounds (native)
 * @param shares         the operations each thread got
 * @param migratedRounds native: rounds in which a thread ran on another CPU than it was pinned
 *                       to (C's {@code sched_getcpu()} at the start and the end); 0 for Java,
 *                       whose threads check their pinning once, at the start of the trial
 */
record ContendedMeasurement(Variant variant, String implementation, String label, ThreadPlacement placement,
                            double nsPerOp, double nsError, long samples, List<Share> shares, int migratedRounds) {

    /** A thread's share: its operations per microsecond over the measured time. */
    record Share(int thread, int cpu, double opsPerUs) {
    }

    ContendedMeasurement {
        shares = List.copyOf(shares);
    }
}
