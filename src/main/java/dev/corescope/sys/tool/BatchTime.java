package dev.corescope.sys.tool;

/**
 * How long one timed C batch took: {@code wallNs} by {@code CLOCK_MONOTONIC}, {@code cpuNs} by
 * {@code CLOCK_THREAD_CPUTIME_ID} over the same span. When the wall clock runs ahead of the
 * thread's CPU time, the thread was descheduled (another process, or the hypervisor stealing
 * the vCPU) and the batch timed someone else's work too.
 */
public record BatchTime(long wallNs, long cpuNs) {

    /** Slack for the two clocks' reads and a timer tick: 2% of the batch, at least 2 µs. */
    public boolean undisturbed() {
        return wallNs - cpuNs <= Math.max(wallNs / 50, 2_000);
    }
}
