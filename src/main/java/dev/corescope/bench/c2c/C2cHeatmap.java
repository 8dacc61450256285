package dev.corescope.bench.c2c;

import dev.corescope.report.Matrix;
import dev.corescope.report.Xml;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The core-to-core matrix as an SVG heatmap: rows are the ping CPU, columns the pong CPU,
 * colour the one-way latency from the fastest pair (light) to the slowest (dark). CPUs are
 * labelled by core, last-level cache and package, and lines separate CPUs of different caches
 * or packages, so the blocks of the topology show in the colours. Each cell's tooltip gives
 * the value with its error. Self-contained: no script, no external font or style.
 */
public final class C2cHeatmap {

    /** Viridis, reversed: short latencies light, long ones dark. */
    private static final int[][] PALETTE = {
            {253, 231, 37}, {94, 201, 98}, {33, 145, 140}, {59, 82, 139}, {68, 1, 84}};

    private C2cHeatmap() {
    }

    /**
     * @param places one per {@code matrix.cpus()} entry, in the same order
     */
    public static String svg(Matrix matrix, List<C2cModel.Cpu> places, String title) {
        int n = matrix.cpus().length;
        if (places.size() != n) throw new IllegalArgumentException("need one label per CPU: " + places.size() + " for " + n);
        int cell = n <= 8 ? 64 : n <= 16 ? 40 : Math.max(6, 640 / n);
        boolean numbers = cell >= 32;
        int labelW = 8 + 7 * places.stream().mapToInt(p -> p.shortLabel().length()).max().orElse(6);
        int top = 56 + labelW;
        int left = labelW + 8;
        int gridW = n * cell;
        int legendW = 18;
        int width = Math.max(left + gridW + 40 + legendW + 70, 470); // room for the caption below
        int height = top + gridW + 50;

        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (Double[] row : matrix.values()) {
            for (Double v : row) {
                if (v == null) continue;
                min = Math.min(min, v);
                max = Math.max(max, v);
            }
        }
        boolean any = min <= max;
        // Pairs within a few percent of each other are the same latency: the colours span at least
        // 10% of the slowest, or rounding noise would paint them the two extreme colours. The legend
        // still runs from the fastest cell to the slowest, so its ends are values cells have.
        double colourTop = any ? Math.max(max, min + 0.1 * max) : max;

        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                        + "font-family=\"sans-serif\" font-size=\"11\">%n", width, height, width, height));
        s.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>%n", width, height));
        s.append(String.format(Locale.ROOT, "<text x=\"8\" y=\"20\" font-size=\"15\" font-weight=\"bold\">%s</text>%n", Xml.escape(title)));
        s.append(String.format(Locale.ROOT, "<text x=\"8\" y=\"38\" fill=\"#444\">one-way latency in %s, row: ping CPU, column: pong CPU%s</text>%n",
                Xml.escape(matrix.unit()), any ? "" : " (nothing measured)"));

        for (int i = 0; i < n; i++) {
            String label = Xml.escape(places.get(i).shortLabel());
            String full = Xml.escape(places.get(i).longLabel());
            int y = top + i * cell + cell / 2 + 4;
            s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\"><title>%s</title>%s</text>%n",
                    left - 6, y, full, label));
            int x = left + i * cell + cell / 2 + 4;
            s.append(String.format(Locale.ROOT,
                    "<text x=\"%d\" y=\"%d\" transform=\"rotate(-90 %d %d)\"><title>%s</title>%s</text>%n",
                    x, top - 6, x, top - 6, full, label));
        }

        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                Double v = matrix.values()[i][j];
                Double e = matrix.errors() == null ? null : matrix.errors()[i][j];
                int x = left + j * cell;
                int y = top + i * cell;
                String tip = "CPU " + matrix.cpus()[i] + " \u2192 CPU " + matrix.cpus()[j] + ": "
                        + (v == null ? (i == j ? "same CPU" : "not measured")
                        : String.format(Locale.ROOT, "%.1f%s %s", v, e == null ? "" : String.format(Locale.ROOT, " \u00b1 %.1f", e), matrix.unit()));
                String fill = v == null ? (i == j ? "#f0f0f0" : "#dcdcdc") : color(v, min, colourTop);
                s.append(String.format(Locale.ROOT,
                        "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" stroke=\"#ffffff\" stroke-width=\"0.5\"><title>%s</title></rect>%n",
                        x, y, cell, cell, fill, Xml.escape(tip)));
                if (numbers && v != null) {
                    String ink = luminance(v, min, colourTop) > 0.5 ? "#000000" : "#ffffff";
                    s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" fill=\"%s\">%s</text>%n",
                            x + cell / 2, y + cell / 2 + 4, ink, v >= 100 ? String.format(Locale.ROOT, "%.0f", v)
                                    : String.format(Locale.ROOT, "%.1f", v)));
                }
            }
        }

        // Lines between CPUs of different last-level caches (thin) or packages (thick).
        for (int i = 1; i < n; i++) {
            C2cModel.Cpu a = places.get(i - 1);
            C2cModel.Cpu b = places.get(i);
            double w = !Objects.equals(a.pkg(), b.pkg()) ? 2.5 : !Objects.equals(a.cache(), b.cache()) ? 1.2 : 0;
            if (w == 0) continue;
            int p = i * cell;
            s.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#222\" stroke-width=\"%.1f\"/>%n",
                    left + p, top, left + p, top + gridW, w));
            s.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#222\" stroke-width=\"%.1f\"/>%n",
                    left, top + p, left + gridW, top + p, w));
        }
        s.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#222\"/>%n",
                left, top, gridW, gridW));

        if (any) {
            int lx = left + gridW + 40;
            int steps = 32;
            double h = (double) gridW / steps;
            for (int k = 0; k < steps; k++) {
                double v = min + (max - min) * k / (steps - 1);
                s.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" fill=\"%s\"/>%n",
                        lx, top + k * h, legendW, h + 0.5, color(v, min, colourTop)));
            }
            s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">%.1f %s</text>%n", lx + legendW + 4, top + 10, min, Xml.escape(matrix.unit())));
            s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">%.1f %s</text>%n", lx + legendW + 4, top + gridW, max, Xml.escape(matrix.unit())));
        }
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" fill=\"#444\">grey: not measured; "
                + "thin line: other last-level cache; thick line: other package</text>%n", 8, top + gridW + 30));
        s.append("</svg>\n");
        return s.toString();
    }

    private static double position(double v, double min, double max) {
        return max > min ? (v - min) / (max - min) : 0;
    }

    private static String color(double v, double min, double max) {
        double t = position(v, min, max) * (PALETTE.length - 1);
        int k = Math.min((int) Math.floor(t), PALETTE.length - 2);
        double f = t - k;
        int[] a = PALETTE[k];
        int[] b = PALETTE[k + 1];
        return String.format(Locale.ROOT, "#%02x%02x%02x",
                Math.round(a[0] + (b[0] - a[0]) * f), Math.round(a[1] + (b[1] - a[1]) * f), Math.round(a[2] + (b[2] - a[2]) * f));
    }

    private static double luminance(double v, double min, double max) {
        String c = color(v, min, max);
        int r = Integer.parseInt(c.substring(1, 3), 16);
        int g = Integer.parseInt(c.substring(3, 5), 16);
        int b = Integer.parseInt(c.substring(5, 7), 16);
        return (0.299 * r + 0.587 * g + 0.114 * b) / 255;
    }

}
