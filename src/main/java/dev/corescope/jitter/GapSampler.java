package dev.corescope.jitter;

import org.HdrHistogram.Histogram;

/**
 * The spin loop: read the clock, and whenever two consecutive readings are further apart than
 * a threshold ({@link #THRESHOLD_FACTOR} loop turns, at least {@link #MIN_THRESHOLD_NS}, above
 * the clock's own variation), record the gap: time the CPU was taken from this thread (an
 * interrupt, another task, the hypervisor, a safepoint). The loop allocates nothing and calls
 * only {@code System.nanoTime()} (vDSO) and, on a gap, {@code Histogram.recordValue}. Runs on
 * the calling thread, which the caller has pinned.
 */
public final class GapSampler {

    /** A gap is recorded when it exceeds this many loop turns. */
    public static final int THRESHOLD_FACTOR = 8;
    public static final long MIN_THRESHOLD_NS = 200;
    /** Largest gap the histogram keeps exactly; longer ones are clamped to it (and said in {@code maxNs}). */
    static final long HIGHEST_NS = 60_000_000_000L;

    /** What one window measured. */
    public record Gaps(Histogram histogram, long turns, long elapsedNs, long lostNs, long clockCostNs, long thresholdNs) {
    }

    private GapSampler() {
    }

    /** The histogram every window records into: 1 ns to 60 s, 3 significant digits. */
    public static Histogram newHistogram() {
        return new Histogram(1, HIGHEST_NS, 3);
    }

    /**
     * Warms the loop up so the JIT has compiled it and {@code recordValue} before anything is
     * measured, then returns the cost of one loop turn in ns (the median of 20 ms of turns, at least 1).
     */
    public static long warmUpAndCalibrate() {
        Histogram turns = newHistogram();
        long[] out = new long[2];
        for (int i = 0; i < 300; i++) spin(turns, i % 2 == 0 ? 0 : Long.MAX_VALUE, 200_000, out);
        turns.reset();
        spin(turns, 0, 20_000_000, out);
        // the median turn: preemptions during calibration are rare turns and do not move it
        return Math.max(1, turns.getValueAtPercentile(50.0));
    }

    public static long thresholdFor(long clockCostNs) {
        return Math.max(MIN_THRESHOLD_NS, THRESHOLD_FACTOR * clockCostNs);
    }

    /** Spins for {@code durationNs}, recording every gap above {@code thresholdNs}. */
    public static Gaps sample(long durationNs, long clockCostNs, long thresholdNs) {
        Histogram h = newHistogram();
        long[] out = new long[2];
        long lost = spin(h, thresholdNs, durationNs, out);
        return new Gaps(h, out[0], out[1], lost, clockCostNs, thresholdNs);
    }

    /**
     * The loop. Returns the sum of the recorded gaps; {@code out[0]} gets the turns,
     * {@code out[1]} the elapsed ns.
     */
    private static long spin(Histogram h, long thresholdNs, long durationNs, long[] out) {
        long start = System.nanoTime();
        long end = start + durationNs;
        long prev = start;
        long turns = 0;
        long lost = 0;
        long now;
        do {
            now = System.nanoTime();
            long gap = now - prev;
            if (gap > thresholdNs) {
                h.recordValue(Math.min(gap, HIGHEST_NS));
                lost += gap;
            }
            prev = now;
            turns++;
        } while (now < end);
        out[0] = turns;
        out[1] = now - start;
        return lost;
    }
}
