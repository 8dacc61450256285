package dev.corescope.bench.timerbase;

import dev.corescope.bench.Figure;
import dev.corescope.bench.Measured;
import dev.corescope.bench.timerbase.TimerbaseSampler.Kind;
import dev.corescope.report.Histogram;
import dev.corescope.report.Result;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What {@code bench timerbase} measured, live: the run's figures and histograms, the notes
 * that read them ({@link #notes()}), and the {@link #model()} that is saved and that
 * {@link TimerbaseView} renders (the machine code is printed by bench from the results file).
 */
record TimerbaseReport(String pinning, String cpusWithBases, Map<Integer, Integer> firstTouchedOn, String javaSettings,
                       int samplesPerKind, int nativeBatches, List<PerOp> perOp,
                       Map<String, Map<Kind, org.HdrHistogram.Histogram>> histograms, List<Histogram> contractHistograms,
                       List<CodeSize> sizes, List<TimerbaseModel.PathRow> paths, List<String> familyNotes, String load) {

    /** before (as compiled), before with both table loads kept, and after, of one implementation. */
    record PerOp(String implementation, Measured before, Measured twoLoads, Measured after) {

        /** after against before, and after against before_two_loads. */
        List<Change> changes() {
            return List.of(new Change("after vs before", before, after), new Change("after vs before_two_loads", twoLoads, after));
        }
    }

    /** The difference between two rows, with Welch's test at the 99.9% level. */
    record Change(String label, Measured from, Measured to) {

        double difference() {
            return to.result().score() - from.result().score();
        }

        double percent() {
            return 100.0 * difference() / from.result().score();
        }

        boolean significant() {
            return from.stats().getN() > 1 && to.stats().getN() > 1 && from.stats().isDifferent(to.stats(), 0.999);
        }
    }

    /** One C function's size. */
    record CodeSize(String variant, String symbol, long bytes, String table) {

        Result result() {
            return Result.builder().benchmark("timerbase").variant(variant).implementation("native").metric("codeSize").unit("bytes")
                    .score(bytes).error(0.0).samples(1).cpus("").params(Map.of()).build();
        }
    }

    /** The counted paths as results rows: metric {@code pathInstructions}, unit {@code instructions}, params {@code path}, exact. */
    static List<Result> pathResults(List<TimerbaseModel.PathRow> paths) {
        List<Result> out = new ArrayList<>();
        for (TimerbaseModel.PathRow p : paths) {
            if (p.instructions() == null) continue;
            out.add(Result.builder().benchmark("timerbase").variant(p.variant()).implementation("native").metric("pathInstructions")
                    .unit("instructions").score(p.instructions()).error(0.0).samples(1).cpus("").params(Map.of("path", p.path())).build());
        }
        return out;
    }

    List<String> notes() {
        List<String> notes = new ArrayList<>();
        long elsewhere = firstTouchedOn.entrySet().stream().filter(e -> !e.getKey().equals(e.getValue())).count();
        notes.add("timer bases on " + cpuWord() + cpusWithBases + ", each CPU's per-CPU area allocated and first touched by a thread pinned "
                + "to it (" + (elsewhere == 0 ? "sched_getcpu() agreed for every CPU"
                : elsewhere + " touched elsewhere: " + firstTouchedOn) + "); " + TimerbaseBenchmark.TIMERS + " timers, a quarter each plain, "
                + "TIMER_PINNED, TIMER_DEFERRABLE and both, CPUs uniform over those CPUs, in shuffled order.");
        notes.add("lock_timer_base() takes the timer base's lock as the kernel does: raw_spin_lock_irqsave() and "
                + "raw_spin_unlock_irqrestore() are out-of-line calls in another translation unit (native/src/timerbase_lock.c: "
                + "pushf; pop, then one lock cmpxchg; a release store, then a test of the saved IF bit; cli and sti fault in ring 3 "
                + "and are left out), so the compiler must find the base before the call and keeps the table load in the loop. "
                + "Every C figure includes the lock and the unlock; the Java model has no lock. All data is hot in cache.");
        notes.addAll(histogramMeaning());
        notes.addAll(familyNotes);
        return notes;
    }

    /** What the histograms say, from the numbers: how much of each sample is the clock. */
    private List<String> histogramMeaning() {
        List<String> out = new ArrayList<>();
        for (var e : histograms.entrySet()) {
            org.HdrHistogram.Histogram empty = e.getValue().get(Kind.EMPTY);
            double emptyMean = TimerbaseSampler.meanInTable(empty);
            double beforeMean = TimerbaseSampler.meanInTable(e.getValue().get(Kind.BEFORE));
            double afterMean = TimerbaseSampler.meanInTable(e.getValue().get(Kind.AFTER));
            PerOp op = perOp.stream().filter(p -> p.implementation().equals(e.getKey())).findFirst().orElse(null);
            double twoLoadsMean = TimerbaseSampler.meanInTable(e.getValue().get(Kind.BEFORE_TWO_LOADS));
            out.add(String.format(Locale.ROOT, "%s histograms: an empty sample (two clock reads, nothing between) is mostly %s; "
                            + "below 320 ns it averages %.1f ns, a sample with the call %.1f ns (before), %.1f ns (before_two_loads) "
                            + "and %.1f ns (after): %+.1f, %+.1f and %+.1f ns over the empty one%s. These histograms are mostly the clock: the empty "
                            + "samples already fill the same buckets, and the CPU overlaps a call this short with the clock reads, "
                            + "so a sample moves by less than the call costs. The per-call figure above (%s) is the call's cost.",
                    e.getKey(), TimerbaseSampler.commonValues(empty, 3), emptyMean, beforeMean, twoLoadsMean, afterMean,
                    beforeMean - emptyMean, twoLoadsMean - emptyMean, afterMean - emptyMean,
                    op == null ? "" : String.format(Locale.ROOT, ", while the call alone costs %.2f, %.2f and %.2f ns",
                            op.before().result().score(), op.twoLoads().result().score(), op.after().result().score()),
                    e.getKey().equals("java") ? "JMH, no clock read per call" : "timed C batches, no clock read per call"));
        }
        out.add("What the histograms beside the seed's can say: where this machine's samples of the same modelled call fall "
                + "with the seed's way of timing (a clock read on each side), and how much of a sample is the clock (the empty "
                + "column). What they cannot say: whether the seed's shift came from the patch. The seed's samples are whole "
                + "kernel calls on another machine, with the kernel's own work and its timing around them; these are a user-space "
                + "model of a few ns. The per-call figures and the instruction counts are this run's evidence about the patch.");
        double shift = TimerbaseView.seedMean(TimerbaseView.SEED_BEFORE) - TimerbaseView.seedMean(TimerbaseView.SEED_AFTER);
        double biggestCall = perOp.stream().flatMap(p -> java.util.stream.Stream.of(p.before(), p.twoLoads(), p.after()))
                .mapToDouble(m -> m.result().score()).max().orElse(Double.NaN);
        String seed = String.format(Locale.ROOT, "The seed's histograms (x86 KVM guest, in the kernel) have no sample under 20 ns and "
                + "means (from bucket midpoints) %.0f ns apart. A KVM guest's clock read (kvm-clock or TSC through the "
                + "vDSO) costs tens of ns, as the empty column shows here, so the seed's samples are mostly clock too. ", shift);
        if (!Double.isNaN(biggestCall) && shift >= 2 * biggestCall) {
            out.add(seed + String.format(Locale.ROOT, "A %.0f ns shift is %.0f times what the whole call costs here (at most %.2f ns "
                    + "per call), so one per_cpu_ptr() cannot explain it; the mail does not say what else differed between its "
                    + "two runs.", shift, shift / biggestCall, biggestCall));
        } else {
            out.add(seed + String.format(Locale.ROOT, "This run cannot weigh that %.0f ns shift against the call: its per-call "
                    + "figures (up to %.2f ns) are not far enough below it (a disturbed run: see the * marks and the notes).",
                    shift, biggestCall));
        }
        return out;
    }

    /** The model saved in the results file, from which {@link TimerbaseView} renders the report. */
    TimerbaseModel model() {
        return new TimerbaseModel(pinning, cpusWithBases, firstTouchedOn, javaSettings, samplesPerKind, nativeBatches, load,
                perOp.stream().map(p -> new TimerbaseModel.PerOp(p.implementation(), Figure.of(p.before()), Figure.of(p.twoLoads()),
                        Figure.of(p.after()), p.changes().stream().map(c -> new TimerbaseModel.Change(c.label(), c.difference(),
                        c.percent(), c.significant())).toList())).toList(),
                contractHistograms.stream().map(h -> new TimerbaseModel.Column(h, meanBelowTable(h))).toList(),
                paths, notes());
    }

    private Double meanBelowTable(Histogram h) {
        double mean = TimerbaseSampler.meanInTable(histograms.get(h.implementation()).get(Kind.valueOf(h.variant().toUpperCase(Locale.ROOT))));
        return Double.isNaN(mean) ? null : mean;
    }

    private String cpuWord() {
        return firstTouchedOn.size() == 1 ? "CPU " : "CPUs ";
    }
}
