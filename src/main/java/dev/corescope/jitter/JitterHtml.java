package dev.corescope.jitter;

import dev.corescope.text.Markup;
import java.util.List;
import java.util.Locale;

/**
 * The picture of a {@link JitterReport} for the page: a chart of each CPU's gap rates (over 1, 10
 * and 100 µs per second, on a log scale) with the likely cause beside it, quietest first; the
 * page puts it after the run's document ({@link JitterText#document}). An SVG built from the
 * model's numbers, every text escaped; no script and no link.
 */
public final class JitterHtml {

    private static final int ROW = 26;
    private static final int LABEL = 96;
    private static final int CHART = 300;
    private static final int CAUSE = 560;
    /** The chart's scale: 0.1 to 100 000 gaps per second, four decades... and a half. */
    private static final double LOG_MIN = -1;
    private static final double LOG_MAX = 5;
    private static final String[] COLOURS = {"#9ecae1", "#4292c6", "#08306b"};
    private static final String[] SERIES = {"> 1 µs", "> 10 µs", "> 100 µs"};

    private JitterHtml() {
    }

    /** The chart: each CPU's gap rates as bars on a log scale, with the likely cause beside it (an SVG document). */
    public static String chart(JitterReport r) {
        int width = LABEL + CHART + 16 + CAUSE;
        int height = 34 + ROW * r.rows().size() + 8;
        StringBuilder s = new StringBuilder();
        s.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(width).append("\" height=\"").append(height)
                .append("\" viewBox=\"0 0 ").append(width).append(' ').append(height)
                .append("\" font-family=\"sans-serif\" font-size=\"12\" role=\"img\">\n");
        s.append("<title>Gaps per second on each CPU, quietest first</title>\n");
        for (int i = 0; i < SERIES.length; i++) {
            int x = LABEL + i * 90;
            s.append("<rect x=\"").append(x).append("\" y=\"4\" width=\"10\" height=\"10\" fill=\"").append(COLOURS[i]).append("\"/>")
                    .append("<text x=\"").append(x + 14).append("\" y=\"13\">").append(esc(SERIES[i])).append("</text>\n");
        }
        for (int d = (int) LOG_MIN; d <= LOG_MAX; d++) {
            double x = LABEL + CHART * (d - LOG_MIN) / (LOG_MAX - LOG_MIN);
            s.append("<line x1=\"").append(fmt(x)).append("\" y1=\"24\" x2=\"").append(fmt(x)).append("\" y2=\"").append(height - 6)
                    .append("\" stroke=\"#ddd\"/><text x=\"").append(fmt(x)).append("\" y=\"").append(30)
                    .append("\" font-size=\"9\" text-anchor=\"middle\" fill=\"#666\">").append(esc(tick(d))).append("</text>\n");
        }
        s.append("<text x=\"").append(LABEL + CHART + 16).append("\" y=\"30\" font-size=\"10\" fill=\"#666\">likely cause of the worst gaps</text>\n");
        int y = 34;
        for (CpuJitter c : r.rows()) {
            s.append("<text x=\"4\" y=\"").append(y + 16).append("\">").append(esc("#" + c.rank() + " CPU " + c.cpu())).append("</text>\n");
            double[] rates = {c.over1usPerSecond(), c.over10usPerSecond(), c.over100usPerSecond()};
            for (int i = 0; i < 3; i++) {
                double w = barWidth(rates[i]);
                s.append("<rect x=\"").append(LABEL).append("\" y=\"").append(y + 3 + i * 7).append("\" width=\"").append(fmt(w))
                        .append("\" height=\"6\" fill=\"").append(COLOURS[i]).append("\"><title>")
                        .append(esc("CPU " + c.cpu() + ": " + JitterText.num(rates[i]) + " gaps/s " + SERIES[i])).append("</title></rect>\n");
            }
            String cause = c.likelyCause();
            if (cause.length() > 90) cause = cause.substring(0, 87) + "...";
            s.append("<text x=\"").append(LABEL + CHART + 16).append("\" y=\"").append(y + 16).append("\">").append(esc(cause))
                    .append("<title>").append(esc(c.likelyCause())).append("</title></text>\n");
            y += ROW;
        }
        s.append("</svg>");
        return s.toString();
    }

    private static double barWidth(double rate) {
        if (rate <= 0) return 0;
        double l = Math.max(LOG_MIN, Math.min(LOG_MAX, Math.log10(rate)));
        return Math.max(1, CHART * (l - LOG_MIN) / (LOG_MAX - LOG_MIN));
    }

    private static String tick(int decade) {
        return List.of("0.1/s", "1/s", "10/s", "100/s", "1k/s", "10k/s", "100k/s").get(decade + 1);
    }

    private static String fmt(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    static String esc(String s) {
        return Markup.escape(s);
    }
}
