package dev.corescope.report;

import dev.corescope.text.Shorten;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

import static dev.corescope.text.Markup.escape;

/**
 * The before/after view of two results files ({@code report before.json after.json},
 * {@code compare --format html}): per row the two figures, the effect with its 99.9% interval
 * drawn to scale, and the finding; then each latency histogram of the one file laid over the
 * other's, not two reports stacked.
 */
final class BeforeAfterHtml {

    static final String CSS = """
            div.doc[data-family=compare] tr.not-resolvable-here td{color:#888}
            svg.ci{vertical-align:middle}
            """;

    /** The interval picture spans this change either side of 0, in percent; beyond it, an arrow. */
    static final double CI_SCALE_PERCENT = ComparisonText.SCALE_PERCENT;

    /** Average width of a digit of the 11 px sans-serif labels, in px, with room to spare. */
    static final double CHAR_PX = Histogram.CHAR_PX;

    private BeforeAfterHtml() {
    }

    /**
     * The section: compare's document ({@link ComparisonText#document}, the parts {@code compare}
     * lays out as text) through {@link DocHtml}, so text and page come from one document; then
     * the histogram overlays.
     */
    static void section(PrintWriter h, Comparison c, ResultsFile before, ResultsFile after) {
        h.append("<section id=\"compare\">\n<h2>Before and after: ").append(escape(c.before())).append(" &rarr; ").append(escape(c.after())).append("</h2>\n");
        h.append("<p class=\"summaryline\">").append(escape(c.summaryLine())).append("</p>\n");
        h.append("<p class=\"note\">Each bar is the 99.9% interval of a row's change, drawn between ")
                .append(String.valueOf((int) -CI_SCALE_PERCENT)).append("% and +").append(String.valueOf((int) CI_SCALE_PERCENT)).append("% (an arrow beyond), the dot the change.</p>\n");
        DocHtml.render(h, ComparisonText.document(c), "compare", List.of());
        List<String> overlays = new ArrayList<>();
        for (Histogram a : before.histograms()) {
            for (Histogram b : after.histograms()) {
                if (Objects.equals(a.benchmark(), b.benchmark()) && Objects.equals(a.variant(), b.variant())
                        && Objects.equals(a.implementation(), b.implementation()) && a.bucketNs() == b.bucketNs()) {
                    overlays.add(overlaySvg(a, b, c.before(), c.after()));
                }
            }
        }
        if (!overlays.isEmpty()) {
            h.append("<h3>Histograms, before over after</h3>\n<div class=\"histograms\">\n");
            for (String s : overlays) h.append("<figure class=\"histogram overlay\">").append(s).append("</figure>\n");
            h.append("</div>\n");
        }
        h.append("</section>\n");
    }

    /**
     * The two histograms as outlines on one log-scaled chart. The x labels are spaced by their
     * own width (digits at {@link #CHAR_PX}) so that they cannot overlap, and each legend and
     * percentile label has its own line.
     */
    static String overlaySvg(Histogram a, Histogram b, String beforeName, String afterName) {
        int n = Math.max(lastNonZero(a.counts()), lastNonZero(b.counts())) + 1;
        int k = Histogram.factorFor(n);
        if (k > 1) {  // more buckets than pixels: both drawn coarser by the same factor
            a = a.coarser(k);
            b = b.coarser(k);
            n = (n + k - 1) / k;
        }
        int left = 44, right = 16, top = 78, bottom = 40, plotW = 320, plotH = 140;
        int width = left + plotW + right, height = top + plotH + bottom;
        long max = 1;
        for (int i = 0; i < n; i++) max = Math.max(max, Math.max(at(a.counts(), i), at(b.counts(), i)));
        double logMax = Math.log10(max + 1), bw = (double) plotW / n;
        String title = a.benchmark() + " " + a.variant() + (a.implementation() == null ? "" : " (" + a.implementation() + ")");
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"histogram overlay\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                        + "font-family=\"sans-serif\" font-size=\"11\">%n", width, height, width, height));
        s.append("<title>").append(escape(title + ": before and after")).append("</title>\n");
        s.append(String.format(Locale.ROOT, "<text x=\"4\" y=\"15\" font-size=\"13\" font-weight=\"bold\">%s</text>%n", escape(title)));
        String[][] legend = {{"#4a78b5", "before: " + beforeName + stats(a)}, {"#e67e22", "after: " + afterName + stats(b)}};
        for (int i = 0; i < legend.length; i++) {
            int y = 32 + 14 * i;
            s.append(String.format(Locale.ROOT, "<rect x=\"4\" y=\"%d\" width=\"12\" height=\"4\" fill=\"%s\"/>", y - 5, legend[i][0]));
            s.append(String.format(Locale.ROOT, "<text class=\"legend\" x=\"20\" y=\"%d\" fill=\"#333\">%s</text>%n", y, escape(Shorten.start(legend[i][1], 50))));
        }
        for (int d = 0; d <= (int) Math.floor(logMax); d++) {
            double y = top + plotH - plotH * Math.log10(Math.pow(10, d) + 1) / logMax;
            s.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#e4e4e4\"/>%n", left, y, left + plotW, y));
            s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" fill=\"#555\">%s</text>%n", left - 4, y + 4,
                    d == 0 ? "1" : "1e" + d));
        }
        for (Histogram x : List.of(a, b)) {
            StringBuilder pts = new StringBuilder();
            for (int i = 0; i < n; i++) {
                long c = at(x.counts(), i);
                double y = top + plotH - (c == 0 ? 0 : plotH * Math.log10(c + 1) / logMax);
                pts.append(String.format(Locale.ROOT, "%.1f,%.1f %.1f,%.1f ", left + i * bw, y, left + (i + 1) * bw, y));
            }
            s.append(String.format(Locale.ROOT, "<polyline class=\"series\" points=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\" stroke-opacity=\"0.85\"/>%n",
                    pts.toString().strip(), x == a ? "#4a78b5" : "#e67e22"));
        }
        s.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>%n", left, top + plotH, left + plotW, top + plotH));
        int step = Histogram.labelStep(n, bw, (long) n * a.bucketNs());
        for (int i = 0; i <= n; i += step) {
            s.append(String.format(Locale.ROOT, "<text class=\"xlabel\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#555\">%d</text>%n",
                    left + i * bw, top + plotH + 14, (long) i * a.bucketNs()));
        }
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" fill=\"#333\">ns (buckets of %d ns; count on a log scale)</text>%n",
                left + plotW / 2, top + plotH + 32, a.bucketNs()));
        return s.append("</svg>").toString();
    }

    private static String stats(Histogram x) {
        return (x.p50() == null ? "" : ", p50 " + ResultsText.number(x.p50()) + " ns") + (x.p99() == null ? "" : ", p99 " + ResultsText.number(x.p99()) + " ns");
    }

    private static int lastNonZero(long[] c) {
        int last = c.length - 1;
        while (last > 0 && c[last] == 0) last--;
        return Math.max(0, last);
    }

    private static long at(long[] c, int i) {
        return i < c.length ? c[i] : 0;
    }
}
