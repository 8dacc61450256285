package dev.corescope.bench.timerbase;

import dev.corescope.report.Histogram;
import dev.corescope.report.ResultsFile;
import dev.corescope.report.ResultsText;
import dev.corescope.text.Markup;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The latency histograms a timerbase run saved ({@code histograms} in the results file, one per
 * variant and implementation) as bar charts on a log scale, for the page: they are the family's
 * pictures after the histograms beside the seed's ({@code TimerbaseFamily.pictures}).
 */
public final class TimerbaseHistograms {

    private TimerbaseHistograms() {
    }

    /** Each of {@code file}'s timerbase histograms as a chart, in the file's order; none when it has none. */
    public static List<String> svgs(ResultsFile file) {
        return file.histograms().stream().filter(x -> "timerbase".equals(x.benchmark())).map(TimerbaseHistograms::svg).toList();
    }

    /**
     * Bars per bucket on a log scale (latency tails span orders of magnitude), the last bucket
     * marked as holding everything above it; p50 and p99 as dashed lines.
     */
    public static String svg(Histogram x) {
        long[] counts = x.counts();
        int last = counts.length - 1;
        while (last > 0 && counts[last] == 0) last--;
        int k = Histogram.factorFor(last + 1);
        if (k > 1) {  // more buckets than pixels: drawn coarser, so the page stays near the file's size
            x = x.coarser(k);
            counts = x.counts();
            last = (last + 1 + k - 1) / k - 1;
        }
        int n = Math.max(1, last + 1);
        int left = 44, right = 12, top = 54, bottom = 40, plotW = 300, plotH = 140;
        int width = left + plotW + right;
        int height = top + plotH + bottom;
        long maxCount = 1;
        for (int i = 0; i < n; i++) maxCount = Math.max(maxCount, counts[i]);
        double logMax = Math.log10(maxCount + 1);
        double bw = (double) plotW / n;

        StringBuilder s = new StringBuilder();
        String title = x.benchmark() + " " + x.variant() + (x.implementation() == null ? "" : " (" + x.implementation() + ")");
        s.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"histogram\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"11\">%n",
                width, height, width, height));
        s.append("<title>").append(Markup.escape(title)).append("</title>\n");
        s.append(String.format(Locale.ROOT, "<text x=\"4\" y=\"15\" font-size=\"13\" font-weight=\"bold\">%s</text>%n", Markup.escape(title)));
        // two caption lines: one line of a million samples, a max in ms and the overflow did not fit the chart's width
        List<String> stats = stats(x);
        for (int i = 0; i < stats.size(); i++) {
            s.append(String.format(Locale.ROOT, "<text x=\"4\" y=\"%d\" fill=\"#444\">%s</text>%n", 30 + 13 * i, Markup.escape(stats.get(i))));
        }
        for (int d = 0; d <= (int) Math.floor(logMax); d++) {
            double y = top + plotH - plotH * Math.log10(Math.pow(10, d) + 1) / logMax;
            s.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#e4e4e4\"/>%n", left, y, left + plotW, y));
            s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" fill=\"#555\">%s</text>%n", left - 4, y + 4, tick(d)));
        }
        for (int i = 0; i < n; i++) {
            if (counts[i] == 0) continue;
            double bh = plotH * Math.log10(counts[i] + 1) / logMax;
            boolean overflowBucket = i == counts.length - 1 && x.overflow() > 0;
            long from = (long) i * x.bucketNs();
            String tip = overflowBucket ? "≥ " + from + " ns: " + counts[i] : from + "-" + (from + x.bucketNs() - 1) + " ns: " + counts[i];
            s.append(String.format(Locale.ROOT, "<rect class=\"bucket\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"><title>%s</title></rect>%n",
                    left + i * bw + 0.5, top + plotH - bh, Math.max(1, bw - 1), bh, overflowBucket ? "#c0392b" : "#4a78b5", Markup.escape(tip)));
        }
        int labelRow = 0;
        for (double[] mark : new double[][] {{x.p50() == null ? -1 : x.p50(), 50}, {x.p99() == null ? -1 : x.p99(), 99}}) {
            if (mark[0] < 0) continue;
            double px = left + Math.min(plotW, mark[0] / x.bucketNs() * bw);
            s.append(String.format(Locale.ROOT, "<line class=\"percentile\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#e67e22\" stroke-dasharray=\"4 3\"/>%n", px, top, px, top + plotH));
            s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" fill=\"#e67e22\" font-size=\"10\">p%d</text>%n", px + 2, top + 10 + 11 * labelRow++, (int) mark[1]));
        }
        s.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>%n", left, top + plotH, left + plotW, top + plotH));
        int step = Histogram.labelStep(n, bw, (long) n * x.bucketNs());
        for (int i = 0; i <= n; i += step) {
            double px = left + i * bw;
            s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#555\">%d</text>%n", px, top + plotH + 14, (long) i * x.bucketNs()));
        }
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" fill=\"#333\">ns (buckets of %d ns; count on a log scale%s)</text>%n",
                left + plotW / 2, top + plotH + 32, x.bucketNs(), x.overflow() > 0 ? "; red: the rest" : ""));
        s.append("</svg>");
        return s.toString();
    }

    private static List<String> stats(Histogram x) {
        List<String> first = new ArrayList<>();
        first.add(String.format(Locale.ROOT, "%,d samples", x.total()));
        if (x.p50() != null) first.add("p50 " + ResultsText.number(x.p50()) + " ns");
        if (x.p99() != null) first.add("p99 " + ResultsText.number(x.p99()) + " ns");
        List<String> second = new ArrayList<>();
        if (x.max() != null) second.add("max " + ResultsText.number(x.max()) + " ns");
        if (x.overflow() > 0) second.add(String.format(Locale.ROOT, "%,d beyond the last bucket", x.overflow()));
        List<String> lines = new ArrayList<>();
        lines.add(String.join(", ", first));
        if (!second.isEmpty()) lines.add(String.join(", ", second));
        return lines;
    }

    private static String tick(int decade) {
        return switch (decade) {
            case 0 -> "1";
            case 1 -> "10";
            case 2 -> "100";
            case 3 -> "1k";
            case 4 -> "10k";
            case 5 -> "100k";
            case 6 -> "1M";
            default -> "1e" + decade;
        };
    }
}
