package dev.corescope.bench.timerbase;

import dev.corescope.bench.Figure;
import dev.corescope.report.Histogram;
import dev.corescope.text.Num;
import dev.corescope.text.TextDoc;
import dev.corescope.text.TextTable;
import dev.corescope.text.TextTable.Column;
import dev.corescope.report.Xml;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * The one view of a {@link TimerbaseModel}: the text report {@code bench timerbase} prints
 * (per-call figures, the seed-style histogram table beside the seed's own, the notes) and its
 * picture (the histograms as small bar charts beside the seed's), the same from a live run or a
 * saved file.
 */
final class TimerbaseView {

    /** The seed's table (counts per 20 ns bucket, [0-19] .. [300-319]). */
    static final long[] SEED_BEFORE = {0, 6, 41, 93, 814, 5262, 4510, 2202, 81, 15, 3, 2, 2, 0, 0, 0};
    static final long[] SEED_AFTER = {0, 1014, 2198, 2073, 3081, 3268, 671, 468, 158, 160, 54, 7, 3, 0, 1, 0};

    private TimerbaseView() {
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

    /** The report as a document: the run, per-call figures, instructions on the path, the seed-style histograms, notes. */
    static TextDoc document(TimerbaseModel m) {
        TextDoc d = new TextDoc();
        d.title("bench timerbase: seed 001, get_timer_cpu_base() with two per_cpu_ptr() for a deferrable timer (before: "
                + "as the compiler makes it; before_two_loads: both __per_cpu_offset[cpu] loads kept) or one (after), "
                + "in a lock_timer_base()-like loop");
        d.paragraph("  ", "the seed: x86 KVM guest, each call timed alone, " + sum(SEED_BEFORE) + " and " + sum(SEED_AFTER)
                + " samples: before mostly 100-159 ns, after mostly 20-119 ns");
        d.paragraph("  ", "here: timer bases on " + cpuWord(m) + m.cpusWithBases() + ", " + TimerbaseBenchmark.TIMERS + " timers; " + m.pinning());
        if (m.load() != null) d.paragraph("  ", "at start: " + m.load());
        d.paragraph("  ", "java: " + m.javaSettings());
        if (m.perOp().stream().anyMatch(p -> p.implementation().equals("native"))) {
            d.paragraph("  ", "native: " + m.nativeBatches() + " undisturbed C batches of " + TimerbaseFamily.BATCH_CALLS
                    + " calls wanted per variant (clock_gettime around each batch)");
        }
        d.paragraph("  ", "histograms: " + m.samplesPerKind() + " samples per column, columns interleaved in rounds");
        d.blank();

        d.heading("Per call, ns/op [99.9% confidence interval] (no clock read per call)");
        TextTable t = new TextTable(Column.key("impl"), Column.number("before", "ns/op"), Column.number("before_two_loads", "ns/op"),
                Column.number("after", "ns/op")).named("timerbase");
        TextTable changes = new TextTable(Column.key("impl"), Column.key("change"), Column.number("difference", "ns/op"),
                Column.text("significant")).named("timerbase");
        for (TimerbaseModel.PerOp p : m.perOp()) {
            t.row(p.implementation(), p.before().cell(), p.twoLoads().cell(), p.after().cell());
            for (TimerbaseModel.Change c : p.changes()) {
                changes.row(p.implementation(), c.label(), Num.signed(c.difference()) + " (" + Num.signed(c.percent()) + "%)",
                        c.significant() ? "yes" : "no");
            }
        }
        d.table(t).blank().table(changes);
        List<String> legend = new ArrayList<>();
        legend.add("significant: the two variants differ by Welch's t-test at 99.9% (JMH iterations; C batches).");
        if (m.perOp().stream().anyMatch(p -> p.before().includesPreemptions() || p.twoLoads().includesPreemptions()
                || p.after().includesPreemptions())) {
            legend.add(Figure.PREEMPTIONS_NOTE);
        }
        d.notes("  ", "", legend).blank();

        if (!m.paths().isEmpty()) {
            d.heading("Instructions on the path, per pass of lock_timer_base()'s retry loop: from the loop's header (the read of "
                    + "timer->flags) up to and including the call of raw_spin_lock_irqsave(), followed through the C twins' "
                    + "machine code (objdump) for a timer with the flags shown");
            List<String> variants = m.paths().stream().map(TimerbaseModel.PathRow::variant).distinct().toList();
            List<Column> cols = new ArrayList<>(List.of(Column.key("path"), Column.text("timer flags")));
            for (String v : variants) cols.add(Column.number(v, "instructions"));
            cols.add(Column.number("after vs before"));
            TextTable pt = new TextTable(cols).named("timerbase");
            List<String> reasons = new ArrayList<>();
            for (String path : m.paths().stream().map(TimerbaseModel.PathRow::path).distinct().toList()) {
                List<Object> row = new ArrayList<>();
                Map<String, TimerbaseModel.PathRow> byVariant = new LinkedHashMap<>();
                for (TimerbaseModel.PathRow p : m.paths()) if (p.path().equals(path)) byVariant.put(p.variant(), p);
                row.add(path);
                row.add(byVariant.values().iterator().next().flags());
                for (String v : variants) {
                    TimerbaseModel.PathRow p = byVariant.get(v);
                    row.add(p == null || p.instructions() == null ? "n/a" : p.instructions());
                    if (p != null && p.reason() != null) reasons.add("not counted: " + v + " " + path + ": " + p.reason());
                }
                TimerbaseModel.PathRow b = byVariant.get(TimerbaseFamily.BEFORE), a = byVariant.get(TimerbaseFamily.AFTER);
                row.add(b == null || a == null || b.instructions() == null || a.instructions() == null ? "n/a"
                        : b.instructions() + " -> " + a.instructions() + " (" + signed(a.instructions() - b.instructions()) + ")");
                pt.row(row.toArray());
            }
            d.table(pt).notes(reasons).blank();
        }

        d.heading("Per-call latency as the seed measured it (clock read, one call, clock read), counts per 20 ns bucket; "
                + "'empty' has nothing between the two clock reads: it is the clock's own cost. [300-319] includes everything above.");
        List<TimerbaseModel.Column> cols = m.columns();
        List<Column> headers = new ArrayList<>(List.of(Column.key("bucket ns"), Column.number("seed before"), Column.number("seed after")));
        for (TimerbaseModel.Column c : cols) headers.add(Column.number(label(c.histogram())));
        TextTable h = new TextTable(headers).named("timerbase");
        for (int i = 0; i < TimerbaseSampler.BUCKETS; i++) {
            List<Object> row = new ArrayList<>();
            row.add("[" + i * 20 + "-" + (i * 20 + 19) + "]");
            row.add(SEED_BEFORE[i]);
            row.add(SEED_AFTER[i]);
            for (TimerbaseModel.Column c : cols) row.add(c.histogram().counts()[i]);
            h.row(row.toArray());
        }
        summaryRow(h, cols, "total", sum(SEED_BEFORE), sum(SEED_AFTER), c -> Long.toString(c.histogram().total()));
        summaryRow(h, cols, "above 319", "0", "0", c -> Long.toString(c.histogram().overflow()));
        summaryRow(h, cols, "mean <320 ns", "~" + Math.round(seedMean(SEED_BEFORE)), "~" + Math.round(seedMean(SEED_AFTER)),
                c -> c.meanBelowTable() == null ? "NaN" : Num.of(c.meanBelowTable()));
        summaryRow(h, cols, "p50 ns", "", "", c -> fmt(c.histogram().p50()));
        summaryRow(h, cols, "p99 ns", "", "", c -> fmt(c.histogram().p99()));
        summaryRow(h, cols, "max ns", "", "", c -> fmt(c.histogram().max()));
        d.table(h).figure("histograms", "the histograms as bar charts beside the seed's (bench timerbase --format svg)", null).blank();

        d.heading("Notes").notes(notes(m));
        return d;
    }

    /**
     * The notes, worded from the model's fields; a file written before they were fields carries
     * them as sentences, shown as saved.
     */
    static List<String> notes(TimerbaseModel m) {
        if (m.notesAsSentences()) return m.notes();
        List<String> notes = new ArrayList<>();
        long elsewhere = m.firstTouchedOn().entrySet().stream().filter(e -> !e.getKey().equals(e.getValue())).count();
        notes.add("timer bases on " + cpuWord(m) + m.cpusWithBases() + ", each CPU's per-CPU area allocated and first touched by a thread "
                + "pinned to it (" + (elsewhere == 0 ? "sched_getcpu() agreed for every CPU"
                : elsewhere + " touched elsewhere: " + new TreeMap<>(m.firstTouchedOn())) + "); " + TimerbaseBenchmark.TIMERS
                + " timers, a quarter each plain, TIMER_PINNED, TIMER_DEFERRABLE and both, CPUs uniform over those CPUs, in shuffled order.");
        notes.add("lock_timer_base() takes the timer base's lock as the kernel does: raw_spin_lock_irqsave() and "
                + "raw_spin_unlock_irqrestore() are out-of-line calls in another translation unit (native/src/timerbase_lock.c: "
                + "pushf; pop, then one lock cmpxchg; a release store, then a test of the saved IF bit; cli and sti fault in ring 3 "
                + "and are left out), so the compiler must find the base before the call and keeps the table load in the loop. "
                + "The Java lookups take the same lock: TimerBases.rawSpinLockIrqsave()/rawSpinUnlockIrqrestore(), kept out of "
                + "line (@CompilerControl DONT_INLINE, as JMH's forks run them): an acquiring compare-and-exchange of the base's "
                + "lock word (lock cmpxchg) and a release store; Java cannot run pushf, so only the C twin has it. "
                + "Every figure, C and Java, includes the lock and the unlock. All data is hot in cache.");
        notes.addAll(histogramMeaning(m));
        notes.add("java iterations: " + m.javaIterations().words("runs", "iteration", "") + ".");
        if (m.nativeMain() != null && m.nativeTwoLoads() != null) {
            notes.add("native batches, before and after: " + m.nativeMain().words("rows", "batch", " per variant")
                    + "; before_two_loads and after: " + m.nativeTwoLoads().words("rows", "batch", " per variant") + ".");
        }
        if (m.codeSizeMissing() != null) notes.add("code size left out: " + m.codeSizeMissing());
        if (m.nativeUnavailable() != null) notes.add("native rows and histograms left out: " + m.nativeUnavailable());
        return notes;
    }

    /** What the histograms say, from the numbers: how much of each sample is the clock. */
    private static List<String> histogramMeaning(TimerbaseModel m) {
        List<String> out = new ArrayList<>();
        for (var e : m.clockValues().entrySet()) {
            String impl = e.getKey();
            double emptyMean = meanBelow(m, impl, "empty");
            double beforeMean = meanBelow(m, impl, TimerbaseFamily.BEFORE);
            double twoLoadsMean = meanBelow(m, impl, TimerbaseFamily.BEFORE_TWO_LOADS);
            double afterMean = meanBelow(m, impl, TimerbaseFamily.AFTER);
            TimerbaseModel.PerOp op = m.perOp().stream().filter(p -> p.implementation().equals(impl)).findFirst().orElse(null);
            String common = String.join(", ", e.getValue().stream()
                    .map(v -> String.format(Locale.ROOT, "%d ns (%.0f%%)", v.ns(), v.percent())).toList());
            out.add(String.format(Locale.ROOT, "%s histograms: an empty sample (two clock reads, nothing between) is mostly %s; "
                            + "below 320 ns it averages %.1f ns, a sample with the call %.1f ns (before), %.1f ns (before_two_loads) "
                            + "and %.1f ns (after): %+.1f, %+.1f and %+.1f ns over the empty one%s. These histograms are mostly the clock: the empty "
                            + "samples already fill the same buckets, and the CPU overlaps a call this short with the clock reads, "
                            + "so a sample moves by less than the call costs. The per-call figure above (%s) is the call's cost.",
                    impl, common, emptyMean, beforeMean, twoLoadsMean, afterMean,
                    beforeMean - emptyMean, twoLoadsMean - emptyMean, afterMean - emptyMean,
                    op == null ? "" : String.format(Locale.ROOT, ", while the call alone costs %.2f, %.2f and %.2f ns",
                            op.before().result().score(), op.twoLoads().result().score(), op.after().result().score()),
                    impl.equals("java") ? "JMH, no clock read per call" : "timed C batches, no clock read per call"));
        }
        out.add("What the histograms beside the seed's can say: where this machine's samples of the same modelled call fall "
                + "with the seed's way of timing (a clock read on each side), and how much of a sample is the clock (the empty "
                + "column). What they cannot say: whether the seed's shift came from the patch. The seed's samples are whole "
                + "kernel calls on another machine, with the kernel's own work and its timing around them; these are a user-space "
                + "model of a few ns. The per-call figures and the instruction counts are this run's evidence about the patch.");
        double shift = seedMean(SEED_BEFORE) - seedMean(SEED_AFTER);
        double biggestCall = m.perOp().stream().flatMap(p -> Stream.of(p.before(), p.twoLoads(), p.after()))
                .mapToDouble(f -> f.result().score()).max().orElse(Double.NaN);
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

    /** The saved mean below the table's end of one column, NaN when none fell there or the column is missing. */
    private static double meanBelow(TimerbaseModel m, String implementation, String variant) {
        return m.columns().stream().filter(c -> c.histogram().implementation().equals(implementation)
                        && c.histogram().variant().equals(variant) && c.meanBelowTable() != null)
                .mapToDouble(TimerbaseModel.Column::meanBelowTable).findFirst().orElse(Double.NaN);
    }

    private static String signed(long v) {
        return v > 0 ? "+" + v : Long.toString(v);
    }

    /**
     * The histograms as small bar charts, one panel per implementation (the seed's first), one
     * colour per column, each bar the share of that column's samples in a 20 ns bucket: the
     * seed's shift from 100-159 ns to 20-119 ns beside where this machine's samples fall.
     */
    static String svg(TimerbaseModel m) {
        Map<String, List<Series>> panels = new LinkedHashMap<>();
        panels.put("seed (x86 KVM guest, in the kernel)", List.of(new Series("before", SEED_BEFORE), new Series("after", SEED_AFTER)));
        for (TimerbaseModel.Column c : m.columns()) {
            String impl = c.histogram().implementation();
            panels.computeIfAbsent(impl.equals("java") ? "java (System.nanoTime)" : "C (clock_gettime)", k -> new ArrayList<>())
                    .add(new Series(c.histogram().variant(), c.histogram().counts()));
        }
        int buckets = TimerbaseSampler.BUCKETS;
        int left = 46, right = 150, plotW = 16 * 26, plotH = 110, panelGap = 46, top = 34;
        int width = left + plotW + right;
        int height = top + panels.size() * (plotH + panelGap) + 10;
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"timerbase\" width=\"%d\" height=\"%d\" "
                + "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"11\">%n", width, height, width, height));
        s.append("<title>timerbase: per-call latency histograms, share of samples per 20 ns bucket</title>\n");
        s.append("<text x=\"4\" y=\"16\" font-size=\"13\" font-weight=\"bold\">get_timer_cpu_base(): clock read, one call, "
                + "clock read (share of samples per 20 ns bucket)</text>\n");
        int y0 = top;
        for (var panel : panels.entrySet()) {
            List<Series> series = panel.getValue();
            double max = 0;
            for (Series x : series) for (int i = 0; i < buckets; i++) max = Math.max(max, x.share(i));
            max = Math.max(max, 1e-9);
            s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">%s</text>%n", left, y0 + 10, Xml.escape(panel.getKey())));
            int base = y0 + 16 + plotH;
            double bw = (double) plotW / buckets;
            double sw = (bw - 4) / series.size();
            for (int k = 0; k < series.size(); k++) {
                Series x = series.get(k);
                String colour = colour(x.variant());
                for (int i = 0; i < buckets; i++) {
                    double share = x.share(i);
                    if (share <= 0) continue;
                    double bh = plotH * share / max;
                    s.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\">"
                                    + "<title>%s [%d-%d] ns: %d (%.1f%%)</title></rect>%n",
                            left + i * bw + 2 + k * sw, base - bh, Math.max(0.5, sw), bh, colour, Xml.escape(x.variant()),
                            i * 20, i * 20 + 19, x.counts()[i], 100 * share));
                }
                s.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>"
                                + "<text x=\"%d\" y=\"%d\">%s</text>%n",
                        left + plotW + 12, y0 + 20 + 16 * k, colour, left + plotW + 26, y0 + 29 + 16 * k, Xml.escape(x.variant())));
            }
            s.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>%n", left, base, left + plotW, base));
            s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" fill=\"#555\">%.0f%%</text>%n",
                    left - 4, base - plotH + 4, 100 * max));
            s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" fill=\"#555\">0</text>%n", left - 4, base + 4));
            for (int i = 0; i <= buckets; i += 2) {
                s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#555\">%s</text>%n",
                        left + i * bw, base + 13, i == buckets ? "ns" : Integer.toString(i * 20)));
            }
            y0 += plotH + panelGap;
        }
        s.append("</svg>\n");
        return s.toString();
    }

    private record Series(String variant, long[] counts) {
        double share(int i) {
            long total = 0;
            for (long c : counts) total += c;
            return total == 0 ? 0 : (double) counts[i] / total;
        }
    }

    private static String colour(String variant) {
        return switch (variant) {
            case "empty" -> "#9e9e9e";
            case "before" -> "#c0392b";
            case "before_two_loads" -> "#e67e22";
            default -> "#2e86c1";
        };
    }


    private static String label(Histogram h) {
        return (h.implementation().equals("java") ? "java" : "C") + " " + h.variant();
    }

    private static String cpuWord(TimerbaseModel m) {
        return m.firstTouchedOn().size() == 1 ? "CPU " : "CPUs ";
    }

    private static void summaryRow(TextTable t, List<TimerbaseModel.Column> cols, String label, Object seedBefore, Object seedAfter,
                                   Function<TimerbaseModel.Column, String> cell) {
        List<Object> row = new ArrayList<>(List.of(label, seedBefore, seedAfter));
        for (TimerbaseModel.Column c : cols) row.add(cell.apply(c));
        t.row(row.toArray());
    }

    static long sum(long[] a) {
        long s = 0;
        for (long v : a) s += v;
        return s;
    }

    private static String fmt(Double v) {
        return v == null ? "" : Long.toString(Math.round(v));
    }
}
