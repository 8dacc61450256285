package dev.corescope.bench.timerbase;

import dev.corescope.bench.Measured;
import dev.corescope.bench.timerbase.TimerbaseSampler.Kind;
import dev.corescope.report.Histogram;
import dev.corescope.report.Result;
import dev.corescope.report.TextTable;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What {@code bench timerbase} measured, and {@link #text()}, the one method that renders it:
 * per-call figures, the seed-style histogram table beside the seed's own, what the histogram
 * can and cannot show, and notes (the machine code is printed by bench from the results file).
 */
record TimerbaseReport(String pinning, String cpusWithBases, Map<Integer, Integer> firstTouchedOn, String javaSettings,
                       int samplesPerKind, int nativeBatches, List<PerOp> perOp,
                       Map<String, Map<Kind, org.HdrHistogram.Histogram>> histograms, List<Histogram> contractHistograms,
                       List<CodeSize> sizes, List<String> familyNotes, String load) {

    /** The seed's table (counts per 20 ns bucket, [0-19] .. [300-319]). */
    static final long[] SEED_BEFORE = {0, 6, 41, 93, 814, 5262, 4510, 2202, 81, 15, 3, 2, 2, 0, 0, 0};
    static final long[] SEED_AFTER = {0, 1014, 2198, 2073, 3081, 3268, 671, 468, 158, 160, 54, 7, 3, 0, 1, 0};

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
            return new Result("timerbase", variant, "native", "codeSize", "bytes", bytes, 0.0, 1, "", Map.of());
        }
    }

    /** Mean of a seed column from the bucket midpoints: only a rough figure. */
    static double seedMean(long[] counts) {
        double sum = 0;
        long n = 0;
        for (int i = 0; i < counts.length; i++) {
            sum += counts[i] * (i * 20 + 9.5);
            n += counts[i];
        }
        return sum / n;
    }

    List<String> notes() {
        List<String> notes = new ArrayList<>();
        long elsewhere = firstTouchedOn.entrySet().stream().filter(e -> !e.getKey().equals(e.getValue())).count();
        notes.add("timer bases on " + cpuWord() + cpusWithBases + ", each CPU's per-CPU area allocated and first touched by a thread pinned "
                + "to it (" + (elsewhere == 0 ? "sched_getcpu() agreed for every CPU"
                : elsewhere + " touched elsewhere: " + firstTouchedOn) + "); " + TimerbaseBenchmark.TIMERS + " timers, a quarter each plain, "
                + "TIMER_PINNED, TIMER_DEFERRABLE and both, CPUs uniform over those CPUs, in shuffled order.");
        notes.add("lock_timer_base() is modelled without its raw_spin_lock_irqsave(): the lock's atomic and the interrupt toggle "
                + "would cost more than the difference being measured. All data is hot in cache.");
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
        double shift = seedMean(SEED_BEFORE) - seedMean(SEED_AFTER);
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

    String text() {
        StringBuilder sb = new StringBuilder();
        sb.append("# bench timerbase: seed 001, get_timer_cpu_base() with two per_cpu_ptr() for a deferrable timer (before: "
                + "as the compiler makes it; before_two_loads: both __per_cpu_offset[cpu] loads kept) or one (after), "
                + "in a lock_timer_base()-like loop\n");
        sb.append(String.format(Locale.ROOT, "# the seed: x86 KVM guest, each call timed alone, %d and %d samples: before mostly "
                + "100-159 ns, after mostly 20-119 ns\n", sum(SEED_BEFORE), sum(SEED_AFTER)));
        sb.append("# here: timer bases on ").append(cpuWord()).append(cpusWithBases).append(", ").append(TimerbaseBenchmark.TIMERS)
                .append(" timers; ").append(pinning).append('\n');
        if (load != null) sb.append("# at start: ").append(load).append('\n');
        sb.append("# java: ").append(javaSettings).append('\n');
        if (perOp.stream().anyMatch(p -> p.implementation().equals("native"))) {
            sb.append("# native: ").append(nativeBatches).append(" undisturbed C batches of ").append(TimerbaseFamily.BATCH_CALLS)
                    .append(" calls wanted per variant (clock_gettime around each batch)\n");
        }
        sb.append("# histograms: ").append(samplesPerKind).append(" samples per column, columns interleaved in rounds\n\n");

        sb.append("Per call, ns/op (± half-width of the 99.9% confidence interval; no clock read per call)\n");
        TextTable t = new TextTable("impl", ">before", ">before_two_loads", ">after", "change", ">difference", "significant");
        for (PerOp p : perOp) {
            boolean first = true;
            for (Change c : p.changes()) {
                t.row(first ? p.implementation() : "", first ? perOpCell(p.before()) : "", first ? perOpCell(p.twoLoads()) : "",
                        first ? perOpCell(p.after()) : "", c.label(),
                        String.format(Locale.ROOT, "%+.3f (%+.2f%%)", c.difference(), c.percent()), c.significant() ? "yes" : "no");
                first = false;
            }
        }
        sb.append(t.render("  "));
        if (perOp.stream().anyMatch(p -> p.before().includesPreemptions() || p.twoLoads().includesPreemptions()
                || p.after().includesPreemptions())) {
            sb.append("  * fewer than 3 samples ran undisturbed, so all were kept: this figure includes time the thread was descheduled\n");
        }
        sb.append('\n');

        sb.append("Per-call latency as the seed measured it (clock read, one call, clock read), counts per 20 ns bucket;\n")
                .append("'empty' has nothing between the two clock reads: it is the clock's own cost. [300-319] includes everything above.\n");
        List<String> headers = new ArrayList<>(List.of("bucket", ">seed before", ">seed after"));
        for (String impl : histograms.keySet()) {
            String label = impl.equals("java") ? "java" : "C";
            for (Kind k : Kind.values()) headers.add(">" + label + " " + k.variant());
        }
        TextTable h = new TextTable(headers.toArray(String[]::new));
        for (int i = 0; i < TimerbaseSampler.BUCKETS; i++) {
            List<Object> row = new ArrayList<>();
            row.add("[" + i * 20 + "-" + (i * 20 + 19) + "]:");
            row.add(SEED_BEFORE[i]);
            row.add(SEED_AFTER[i]);
            for (String impl : histograms.keySet()) {
                for (Kind k : Kind.values()) row.add(contract(impl, k).counts()[i]);
            }
            h.row(row.toArray());
        }
        summaryRow(h, "total", sum(SEED_BEFORE), sum(SEED_AFTER), (impl, k) -> Long.toString(contract(impl, k).total()));
        summaryRow(h, "above 319", "0", "0", (impl, k) -> Long.toString(contract(impl, k).overflow()));
        summaryRow(h, "mean <320 ns", String.format(Locale.ROOT, "~%.0f", seedMean(SEED_BEFORE)),
                String.format(Locale.ROOT, "~%.0f", seedMean(SEED_AFTER)),
                (impl, k) -> String.format(Locale.ROOT, "%.1f", TimerbaseSampler.meanInTable(histograms.get(impl).get(k))));
        summaryRow(h, "p50 ns", "", "", (impl, k) -> fmt(contract(impl, k).p50()));
        summaryRow(h, "p99 ns", "", "", (impl, k) -> fmt(contract(impl, k).p99()));
        summaryRow(h, "max ns", "", "", (impl, k) -> fmt(contract(impl, k).max()));
        sb.append(h.render("  ")).append('\n');

        sb.append("Notes\n");
        for (String n : notes()) sb.append("  - ").append(n).append('\n');
        return sb.toString();
    }

    private String cpuWord() {
        return firstTouchedOn.size() == 1 ? "CPU " : "CPUs ";
    }

    private interface Cell {
        String of(String impl, Kind kind);
    }

    private void summaryRow(TextTable t, String label, Object seedBefore, Object seedAfter, Cell cell) {
        List<Object> row = new ArrayList<>(List.of(label, seedBefore, seedAfter));
        for (String impl : histograms.keySet()) {
            for (Kind k : Kind.values()) row.add(cell.of(impl, k));
        }
        t.row(row.toArray());
    }

    private Histogram contract(String impl, Kind kind) {
        return contractHistograms.stream()
                .filter(h -> h.implementation().equals(impl) && h.variant().equals(kind.variant()))
                .findFirst().orElseThrow();
    }

    private static long sum(long[] a) {
        long s = 0;
        for (long v : a) s += v;
        return s;
    }

    private static String fmt(Double v) {
        return v == null ? "" : String.format(Locale.ROOT, "%.0f", v);
    }

    private static String perOpCell(Measured m) {
        Result r = m.result();
        String mark = m.includesPreemptions() ? " *" : "";
        return (r.error() == null ? String.format(Locale.ROOT, "%.3f", r.score())
                : String.format(Locale.ROOT, "%.3f ± %.3f", r.score(), r.error())) + mark;
    }
}
