package dev.corescope.bench;

import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * A JMH state that reports, for every iteration, the benchmark thread's CPU time
 * ({@code CLOCK_THREAD_CPUTIME_ID} through {@link ThreadMXBean}) as the secondary result
 * {@value #COUNTER}. Add it as a parameter of a {@code @Benchmark} method; then
 * {@link UndisturbedIterations} can tell the iterations during which the thread was
 * descheduled (their wall time ran ahead of their CPU time) from those it ran through.
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.EVENTS)
public class ThreadCpuTime {

    /** The secondary result's name. */
    static final String COUNTER = "cpuNs";

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /** CPU time of the benchmark thread over the iteration, ns (read by JMH after the iteration). */
    public long cpuNs;

    private long start;

    @Setup(Level.Iteration)
    public void start() {
        cpuNs = 0;
        start = THREADS.getCurrentThreadCpuTime();
    }

    @TearDown(Level.Iteration)
    public void stop() {
        cpuNs = THREADS.getCurrentThreadCpuTime() - start;
    }
}
