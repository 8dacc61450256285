package dev.corescope.bench.timerbase;

import dev.corescope.report.Histogram;
import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.HistogramIterationValue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The seed's way of measuring: a clock read, one call, a clock read, and the difference into a
 * histogram (HdrHistogram, 3 significant digits: exact to the nanosecond below 2048 ns). In
 * Java the clock is {@code System.nanoTime()}, in C {@code clock_gettime(CLOCK_MONOTONIC)}:
 * the same vDSO clock. {@link Kind#EMPTY} samples nothing between the reads, so its histogram
 * is the clock's own cost; a call of about a nanosecond cannot move a sample by much more.
 *
 * <p>The kinds are interleaved in rounds, each round in a rotated order, so a burst of noise
 * from another process lands on all kinds alike.
 *
 * <p><b>Note:</b> runs on the calling thread; pin it first if the run is pinned.
 */
final class TimerbaseSampler {

    static final int BUCKET_NS = 20;
    /** {@code [0-19]} to {@code [300-319]}, as the seed's table. */
    static final int BUCKETS = 16;
    private static final int ROUNDS = 20;

    /** Where the loops' results go, so the JIT cannot drop the calls. */
    @SuppressWarnings("unused")
    private static volatile long consumed;

    /** What sits between the two clock reads. */
    enum Kind {
        EMPTY, BEFORE, BEFORE_TWO_LOADS, AFTER;

        String variant() {
            return name().toLowerCase(Locale.ROOT);
        }

        TimerbaseTwins.Variant twin() {
            return TimerbaseTwins.Variant.valueOf(name());
        }
    }

    private TimerbaseSampler() {
    }

    /** {@code samples} per kind from Java, after a warm-up that lets C2 compile the loops. */
    static Map<Kind, org.HdrHistogram.Histogram> java(TimerBases tb, int samples) {
        long sink = 0;
        for (int w = 0; w < 3; w++) {
            for (Kind k : Kind.values()) sink += javaChunk(k, tb, new org.HdrHistogram.Histogram(3), 20_000);
        }
        Map<Kind, org.HdrHistogram.Histogram> out = newHistograms();
        int chunk = Math.max(1, samples / ROUNDS);
        for (int r = 0; r < ROUNDS; r++) {
            for (int i = 0; i < Kind.values().length; i++) {
                Kind k = Kind.values()[(r + i) % Kind.values().length];
                sink += javaChunk(k, tb, out.get(k), chunk);
            }
        }
        consumed = sink;
        return out;
    }

    private static long javaChunk(Kind k, TimerBases tb, org.HdrHistogram.Histogram h, int n) {
        long timers = tb.timerAddress(0);
        int mask = tb.ntimers() - 1;
        long offsets = tb.perCpuOffset().address();
        return switch (k) {
            case EMPTY -> sampleEmpty(h, n);
            case BEFORE -> sampleBefore(h, timers, mask, offsets, n);
            case BEFORE_TWO_LOADS -> sampleBeforeTwoLoads(h, timers, mask, offsets, n);
            case AFTER -> sampleAfter(h, timers, mask, offsets, n);
        };
    }

    private static long sampleEmpty(org.HdrHistogram.Histogram h, int n) {
        long sink = 0;
        for (int i = 0; i < n; i++) {
            long t0 = System.nanoTime();
            long t1 = System.nanoTime();
            h.recordValue(t1 - t0);
            sink += t1;
        }
        return sink;
    }

    private static long sampleBefore(org.HdrHistogram.Histogram h, long timers, int mask, long offsets, int n) {
        long sink = 0;
        for (int i = 0; i < n; i++) {
            long timer = timers + (long) (i & mask) * TimerBases.TIMER_LIST_SIZE;
            long t0 = System.nanoTime();
            long base = TimerBases.lockUnlockBefore(timer, offsets);
            long t1 = System.nanoTime();
            h.recordValue(t1 - t0);
            sink += base;
        }
        return sink;
    }

    private static long sampleBeforeTwoLoads(org.HdrHistogram.Histogram h, long timers, int mask, long offsets, int n) {
        long sink = 0;
        for (int i = 0; i < n; i++) {
            long timer = timers + (long) (i & mask) * TimerBases.TIMER_LIST_SIZE;
            long t0 = System.nanoTime();
            long base = TimerBases.lockUnlockBeforeTwoLoads(timer, offsets);
            long t1 = System.nanoTime();
            h.recordValue(t1 - t0);
            sink += base;
        }
        return sink;
    }

    private static long sampleAfter(org.HdrHistogram.Histogram h, long timers, int mask, long offsets, int n) {
        long sink = 0;
        for (int i = 0; i < n; i++) {
            long timer = timers + (long) (i & mask) * TimerBases.TIMER_LIST_SIZE;
            long t0 = System.nanoTime();
            long base = TimerBases.lockUnlockAfter(timer, offsets);
            long t1 = System.nanoTime();
            h.recordValue(t1 - t0);
            sink += base;
        }
        return sink;
    }

    /**
     * {@code samples} per kind from the C twin, in the same rounds. Checks that C found every
     * base where Java put it (the sum of {@code base->cpu}).
     */
    static Map<Kind, org.HdrHistogram.Histogram> nativeC(TimerBases tb, int samples) {
        Map<Kind, org.HdrHistogram.Histogram> out = newHistograms();
        int chunk = Math.max(1, samples / ROUNDS);
        long expectedCpus = 0;
        for (int i = 0; i < chunk; i++) expectedCpus += tb.flags(i) & TimerBases.TIMER_CPUMASK;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment ns = arena.allocate(ValueLayout.JAVA_INT, chunk);
            for (Kind k : Kind.values()) TimerbaseTwins.samples(k.twin(), tb.perCpuOffset(), tb.timers(), tb.ntimers(), ns, chunk);
            for (int r = 0; r < ROUNDS; r++) {
                for (int i = 0; i < Kind.values().length; i++) {
                    Kind k = Kind.values()[(r + i) % Kind.values().length];
                    long cpus = TimerbaseTwins.samples(k.twin(), tb.perCpuOffset(), tb.timers(), tb.ntimers(), ns, chunk);
                    if (k != Kind.EMPTY && cpus != expectedCpus) {
                        throw new IllegalStateException("the C twin found bases whose cpus add up to " + cpus + ", not "
                                + expectedCpus + ": its struct layout differs from TimerBases'");
                    }
                    org.HdrHistogram.Histogram h = out.get(k);
                    for (int s = 0; s < chunk; s++) h.recordValue(Integer.toUnsignedLong(ns.getAtIndex(ValueLayout.JAVA_INT, s)));
                }
            }
        }
        return out;
    }

    private static Map<Kind, org.HdrHistogram.Histogram> newHistograms() {
        Map<Kind, org.HdrHistogram.Histogram> m = new EnumMap<>(Kind.class);
        for (Kind k : Kind.values()) m.put(k, new org.HdrHistogram.Histogram(3));
        return m;
    }

    /** The table's upper end: samples at or above it are preemptions and interrupts, not the call. */
    static final long TABLE_END_NS = (long) BUCKETS * BUCKET_NS;

    /** The mean of the samples below {@link #TABLE_END_NS}: robust to the rare multi-millisecond preemption. */
    static double meanInTable(AbstractHistogram h) {
        double sum = 0;
        long n = 0;
        for (HistogramIterationValue v : h.recordedValues()) {
            if (v.getValueIteratedTo() >= TABLE_END_NS) break;
            sum += (double) v.getValueIteratedTo() * v.getCountAtValueIteratedTo();
            n += v.getCountAtValueIteratedTo();
        }
        return n == 0 ? Double.NaN : sum / n;
    }

    /** The {@code k} most frequent values with their shares, e.g. {@code 20 ns (76%), 30 ns (21%)}. */
    static List<TimerbaseModel.ClockValue> commonValues(AbstractHistogram h, int k) {
        List<long[]> values = new ArrayList<>();
        for (HistogramIterationValue v : h.recordedValues()) {
            values.add(new long[]{v.getValueIteratedTo(), v.getCountAtValueIteratedTo()});
        }
        values.sort((a, b) -> Long.compare(b[1], a[1]));
        List<TimerbaseModel.ClockValue> out = new ArrayList<>();
        for (long[] v : values.subList(0, Math.min(k, values.size()))) {
            out.add(new TimerbaseModel.ClockValue(v[0], 100.0 * v[1] / h.getTotalCount()));
        }
        return out;
    }

    /** The CONTRACT's histogram: 20 ns buckets {@code [0-19]} .. {@code [300-319]}, the last holding everything above. */
    static Histogram toReport(String implementation, Kind kind, AbstractHistogram h) {
        long[] counts = new long[BUCKETS];
        for (int i = 0; i < BUCKETS - 1; i++) counts[i] = h.getCountBetweenValues(i * BUCKET_NS, (i + 1) * BUCKET_NS - 1L);
        long last = (BUCKETS - 1) * BUCKET_NS;
        long total = h.getTotalCount();
        counts[BUCKETS - 1] = total - h.getCountBetweenValues(0, last - 1);
        long overflow = total - h.getCountBetweenValues(0, TABLE_END_NS - 1);
        return new Histogram("timerbase", kind.variant(), implementation, BUCKET_NS, counts, total, overflow,
                (double) h.getValueAtPercentile(50), (double) h.getValueAtPercentile(99), (double) h.getMaxValue());
    }
}
