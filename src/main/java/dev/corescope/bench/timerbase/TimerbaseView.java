package dev.corescope.bench.timerbase;

import dev.corescope.bench.Figure;
import dev.corescope.bench.SavedModel;
import dev.corescope.report.Histogram;
import dev.corescope.report.ResultsFile;
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
import java.util.function.Function;

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

    static java.util.Optional<TimerbaseModel> model(ResultsFile file) {
        return SavedModel.read(file, "timerbase", TimerbaseModel.class);
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

        d.heading("Notes").notes(m.notes());
        return d;
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
