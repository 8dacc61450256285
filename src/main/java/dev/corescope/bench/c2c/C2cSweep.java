package dev.corescope.bench.c2c;

import dev.corescope.bench.Progress;
import dev.corescope.bench.SampleStats;
import dev.corescope.sys.internal.Os;
import dev.corescope.topology.Placement;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Runs a {@link C2cPlan}: each class's representatives first (the first one both ways, to learn
 * whether the class's two directions agree), then, for {@code --full}, every other pair of the
 * matrix in Java, one way where its class agreed. Each measurement takes samples in batches
 * until its interval is tight ({@link C2cPlan.Sampling#tight}).
 */
final class C2cSweep {

    /** Where samples come from: the live ping-pongs, or a test's fake. */
    interface Sampler {
        /** {@code samples} one-way latencies (ns) of {@code roundTrips} round trips each, ping on {@code from}. */
        double[] sample(boolean nativeTwin, int from, int to, int roundTrips, int samples) throws InterruptedException;
    }

    /**
     * The live sampler: {@link PingPong} in Java, its threads pinned through {@code os} (the
     * family's {@code ctx.os()}), and {@link C2cTwins} in C, whose threads are created and pinned
     * inside C (no JVM in that figure, so no seam either).
     */
    static Sampler live(Os os) {
        return (nativeTwin, from, to, roundTrips, samples) -> nativeTwin
                ? C2cTwins.pingPong(from, to, roundTrips, samples)
                : PingPong.run(os, from, to, roundTrips, samples);
    }

    /** One measured ordered pair; {@code nativeTwin} null where C did not run. */
    record Measured(int from, int to, Placement relation, SampleStats java, SampleStats nativeTwin) {
    }

    private final C2cPlan plan;
    private final PairClasses index;
    private final Sampler sampler;
    private final Progress progress;
    /** Samples taken, dropped ones included: the work done, for tests. */
    long samplesTaken;
    /** Classes whose first pair disagreed both ways: measured in both directions. */
    final Set<Placement> asymmetric = new HashSet<>();

    C2cSweep(C2cPlan plan, PairClasses index, Sampler sampler, Progress progress) {
        this.plan = plan;
        this.index = index;
        this.sampler = sampler;
        this.progress = progress;
    }

    List<Measured> run() throws InterruptedException {
        List<Measured> out = new ArrayList<>();
        Set<Long> done = new HashSet<>();
        for (Map.Entry<Placement, List<int[]>> e : plan.representatives().entrySet()) {
            Placement r = e.getKey();
            boolean first = true;
            for (int[] p : e.getValue()) {
                Measured there = measure(p[0], p[1], r, plan.nativeTwin());
                out.add(there);
                done.add(key(p[0], p[1]));
                if (first) {
                    Measured back = measure(p[1], p[0], r, plan.nativeTwin());
                    out.add(back);
                    if (!agree(there.java(), back.java()) || (there.nativeTwin() != null && !agree(there.nativeTwin(), back.nativeTwin()))) {
                        asymmetric.add(r);
                    }
                } else if (asymmetric.contains(r)) {
                    out.add(measure(p[1], p[0], r, plan.nativeTwin()));
                }
                first = false;
            }
        }
        if (plan.full()) {
            int[] cpus = plan.cpus();
            for (int i = 0; i < cpus.length; i++) {
                for (int j = i + 1; j < cpus.length; j++) {
                    if (done.contains(key(cpus[i], cpus[j]))) continue;
                    Placement r = index.of(cpus[i], cpus[j]);
                    out.add(measure(cpus[i], cpus[j], r, false));
                    if (asymmetric.contains(r)) out.add(measure(cpus[j], cpus[i], r, false));
                }
            }
        }
        return out;
    }

    /**
     * Whether two directions agree: their medians within the sum of their errors, or within 5%
     * of each other (two tight intervals a fraction of a ns apart are the same latency here).
     */
    static boolean agree(SampleStats a, SampleStats b) {
        double gap = Math.abs(a.median() - b.median());
        double errors = (Double.isNaN(a.error()) ? 0 : a.error()) + (Double.isNaN(b.error()) ? 0 : b.error());
        return gap <= errors || gap <= 0.05 * Math.min(a.median(), b.median());
    }

    private Measured measure(int from, int to, Placement r, boolean withTwin) throws InterruptedException {
        if (Thread.interrupted()) throw new InterruptedException("c2c stopped at CPU " + from + " \u2192 " + to);
        SampleStats java = adaptive(false, from, to);
        SampleStats c = withTwin ? adaptive(true, from, to) : null;
        progress.step("CPU " + from + " \u2192 " + to + " (" + r.words() + ")");
        return new Measured(from, to, r, java, c);
    }

    /** Batches of samples until the interval is tight; the first sample of each batch (thread start-up) dropped, as nviennot does. */
    private SampleStats adaptive(boolean nativeTwin, int from, int to) throws InterruptedException {
        C2cPlan.Sampling s = plan.sampling();
        double[] all = new double[0];
        int want = s.min();
        while (true) {
            double[] batch = sampler.sample(nativeTwin, from, to, C2cPlan.ROUND_TRIPS, want + 1);
            samplesTaken += batch.length;
            int n = all.length;
            all = Arrays.copyOf(all, n + batch.length - 1);
            System.arraycopy(batch, 1, all, n, batch.length - 1);
            SampleStats stats = SampleStats.of(all);
            if (s.tight(all.length, stats.median(), stats.error())) return stats;
            want = Math.min(s.batch(), s.max() - all.length);
        }
    }

    private static long key(int a, int b) {
        return ((long) Math.min(a, b) << 32) | Math.max(a, b);
    }
}
