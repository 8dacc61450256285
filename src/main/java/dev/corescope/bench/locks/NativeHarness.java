package dev.corescope.bench.locks;

import dev.corescope.report.RunFigures;
import dev.corescope.sys.Pinning;
import dev.corescope.sys.internal.Os;
import dev.corescope.sys.internal.Threads;
import org.openjdk.jmh.util.ListStatistics;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The time_bench side of {@code bench locks}: runs the C twin's loops and turns their batches into
 * {@link LocksModel.Row}s and {@link LocksModel.Contended}s, with the same statistics JMH uses
 * (mean, 99.9% confidence interval over batches).
 *
 * <p>As time_bench_loop() does, a batch is one loop of N elements timed as a whole, and N is at
 * least 1000 and below 2^32; N is sized from a probe so each batch takes about
 * {@link Plan#batchNs()}. One batch is run first and thrown away, as a warm-up.
 */
final class NativeHarness {

    /**
     * How much to measure.
     *
     * @param batches       measured batches (the samples)
     * @param batchNs       target duration of one batch
     * @param rounds        contended rounds
     * @param roundNs       duration of one contended round
     */
    record Plan(int batches, long batchNs, int rounds, long roundNs) {
        static final Plan SMOKE = new Plan(2, 200_000, 1, 2_000_000);
        static final Plan QUICK = new Plan(5, 10_000_000, 3, 100_000_000);
        static final Plan FULL = new Plan(20, 50_000_000, 10, 200_000_000);

        /** The uncontended loops' plan: {@code runs} separately started runs, interleaved loop by loop. */
        LocksModel.NativeRuns runs(int runs) {
            return new LocksModel.NativeRuns(runs, batchesPerRun(this, runs), Math.max(1, batchNs / 1_000_000));
        }
    }

    /** time_bench_calc_stats() refuses fewer loops: the timer's granularity would show. */
    static final long MIN_LOOPS = 1000;
    /** time_bench divides with div_u64_rem(), a 32-bit divisor. */
    static final long MAX_LOOPS = (1L << 32) - 1;

    private NativeHarness() {
    }

    /** Loop count for one batch of about {@code batchNs}, from a probe of {@link #MIN_LOOPS}. */
    static long loopsFor(double nsPerElement, long batchNs) {
        if (!(nsPerElement > 0)) return MIN_LOOPS;
        double n = batchNs / nsPerElement;
        return (long) Math.max(MIN_LOOPS, Math.min(MAX_LOOPS, n));
    }

    /**
     * One separately started run of a loop: its own probe sizes the loop, its own warm-up batch is
     * thrown away, then {@code batches} batches are timed.
     */
    record LoopRun(double[] ns, double[] cycles, int migrated, boolean rdtsc) {
        RunFigures run() {
            ListStatistics s = new ListStatistics(ns);
            return new RunFigures(s.getMean(), ns.length, ns.length > 1 ? s.getStandardDeviation() : null);
        }
    }

    /** The batches of one run: at least 3, and the plan's batches shared between its runs. */
    static int batchesPerRun(Plan plan, int runs) {
        return Math.max(3, (plan.batches() + runs - 1) / runs);
    }

    /** Runs one loop once on the calling (pinned) thread. */
    static LoopRun run(LocksTwins.State state, LocksTwins.Loop loop, int batches, long batchNs) {
        LocksTwins.Batch probe = state.run(loop, MIN_LOOPS);
        long loops = loopsFor(probe.nsPerElement(), batchNs);
        state.run(loop, loops);
        double[] ns = new double[batches];
        double[] cycles = new double[batches];
        int migrated = 0;
        boolean rdtsc = true;
        for (int i = 0; i < batches; i++) {
            LocksTwins.Batch b = state.run(loop, loops);
            ns[i] = b.nsPerElement();
            cycles[i] = b.cyclesPerElement();
            rdtsc &= b.tsc() > 0;
            if (b.migrated()) migrated++;
        }
        return new LoopRun(ns, cycles, migrated, rdtsc);
    }

    /** A row of the list from its runs: the mean and 99.9% half-width over all their batches (each run is one of the row's runs[]). */
    static LocksModel.Row of(Line line, List<LoopRun> runs, TscRate tsc) {
        int n = runs.stream().mapToInt(r -> r.ns().length).sum();
        double[] ns = new double[n];
        double[] cycles = new double[n];
        int at = 0, migrated = 0;
        boolean rdtsc = true;
        for (LoopRun r : runs) {
            System.arraycopy(r.ns(), 0, ns, at, r.ns().length);
            System.arraycopy(r.cycles(), 0, cycles, at, r.cycles().length);
            at += r.ns().length;
            migrated += r.migrated();
            rdtsc &= r.rdtsc();
        }
        ListStatistics nsStats = new ListStatistics(ns);
        double nsErr = ns.length > 1 ? nsStats.getMeanErrorAt(0.999) : Double.NaN;
        if (rdtsc) {
            ListStatistics cyc = new ListStatistics(cycles);
            double cycErr = cycles.length > 1 ? cyc.getMeanErrorAt(0.999) : Double.NaN;
            return LocksModel.row(line, "native", nsStats.getMean(), nsErr, ns.length, cyc.getMean(), cycErr,
                    LocksModel.CyclesFrom.RDTSC, migrated);
        }
        return LocksModel.row(line, "native", nsStats.getMean(), nsErr, ns.length, tsc.cycles(nsStats.getMean()), tsc.cycles(nsErr),
                tsc.known() ? LocksModel.CyclesFrom.TSC_RATE : LocksModel.CyclesFrom.NONE, migrated);
    }

    /**
     * Waits for every thread even when interrupted: they are inside C using the state, which is
     * freed right after, and each returns by itself within one round. The interrupt is passed on.
     */
    private static void joinAll(List<Thread> threads) throws InterruptedException {
        if (Threads.joinIgnoringInterrupts(threads)) throw new InterruptedException("contended round interrupted (its threads have finished)");
    }

    /**
     * Contended mode in C: one Java thread per CPU of {@code placement}, each pinned through
     * {@code os} (the family's {@code ctx.os()}), each making one downcall per round that loops
     * inside C until the first thread's {@code roundNs} is up.
     * C checks with {@code sched_getcpu()} that each thread runs on its CPU at the start and the
     * end of the round; a round where one did not is counted in {@code migratedRounds} and left
     * out of the figure while clean rounds remain (with none left, all are kept, and counted).
     */
    static LocksModel.Contended contend(Os os, LocksTwins.Contended kind, Variant variant, String label, ThreadPlacement placement,
                                        Plan plan) throws InterruptedException {
        int n = placement.threads();
        int[] cpus = placement.cpus().stream().mapToInt(Integer::intValue).toArray();
        double[] nsPerOp = new double[plan.rounds()];
        boolean[] migrated = new boolean[plan.rounds()];
        long[] ops = new long[n];
        long[] busyNs = new long[n];
        try (LocksTwins.State state = LocksTwins.newState()) {
            for (int r = 0; r < plan.rounds(); r++) {
                state.resetContention();
                LocksTwins.Batch[] batches = new LocksTwins.Batch[n];
                AtomicReference<Throwable> failure = new AtomicReference<>();
                // C's starting line waits for all n threads: enter it only once every thread is
                // pinned, or a thread that failed to pin would leave the others spinning there.
                CountDownLatch pinned = new CountDownLatch(n);
                List<Thread> threads = new ArrayList<>();
                for (int t = 0; t < n; t++) {
                    int index = t;
                    threads.add(Thread.ofPlatform().name("locks-contend-" + t).start(() -> {
                        Pinning pin = null;
                        try {
                            pin = os.pin(cpus[index]);
                        } catch (Throwable e) {
                            failure.compareAndSet(null, e);
                        }
                        pinned.countDown();
                        try (Pinning ignored = pin) {
                            pinned.await();
                            if (failure.get() == null) batches[index] = state.contend(kind, n, cpus[index], plan.roundNs());
                        } catch (Throwable e) {
                            failure.compareAndSet(null, e);
                        }
                    }));
                }
                joinAll(threads);
                if (failure.get() != null) {
                    throw new IllegalStateException("contended " + kind + " on " + placement + " failed: " + failure.get().getMessage(), failure.get());
                }
                long total = 0;
                long wall = 0;
                for (int t = 0; t < n; t++) {
                    total += batches[t].invoked();
                    wall = Math.max(wall, batches[t].ns());
                    ops[t] += batches[t].invoked();
                    busyNs[t] += batches[t].ns();
                    if (batches[t].migrated()) migrated[r] = true;
                }
                nsPerOp[r] = total == 0 ? Double.NaN : (double) wall / total;
            }
        }
        int migratedRounds = 0;
        for (boolean m : migrated) if (m) migratedRounds++;
        // A round where a thread ran off its CPU measured something else: left out while clean rounds remain.
        double[] kept = nsPerOp;
        if (migratedRounds > 0 && migratedRounds < nsPerOp.length) {
            kept = new double[nsPerOp.length - migratedRounds];
            for (int r = 0, k = 0; r < nsPerOp.length; r++) if (!migrated[r]) kept[k++] = nsPerOp[r];
        }
        nsPerOp = kept;
        ListStatistics stats = new ListStatistics(nsPerOp);
        List<LocksModel.Share> shares = new ArrayList<>();
        for (int t = 0; t < n; t++) shares.add(new LocksModel.Share(t, cpus[t], busyNs[t] == 0 ? 0 : ops[t] * 1000.0 / busyNs[t]));
        return LocksModel.contended(variant, "native", label, placement, stats.getMean(),
                nsPerOp.length > 1 ? stats.getMeanErrorAt(0.999) : Double.NaN, nsPerOp.length, shares, migratedRounds);
    }
}
