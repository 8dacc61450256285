package dev.corescope.bench.locks;

import dev.corescope.sys.Pinning;
import dev.corescope.sys.internal.Os;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The uncontended lock benchmarks run on one thread pinned to {@link #cpu}, as time_bench ran its
 * loop on one CPU; the thread gets its old mask back at the end of the trial.
 */
@State(Scope.Thread)
public abstract class PinnedBenchmark {

    /** The CPU to pin the benchmark thread to; -1 leaves it unpinned. */
    @Param("-1")
    public int cpu;

    private Pinning pinning;

    @Setup(Level.Trial)
    public void pin() {
        if (cpu >= 0) pinning = Os.live().pin(cpu);
    }

    @TearDown(Level.Trial)
    public void unpin() {
        if (pinning != null) pinning.close();
        pinning = null;
    }
}
