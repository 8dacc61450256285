package dev.corescope.report;

import java.util.List;
import java.util.Locale;

import static dev.corescope.text.Markup.escape;

/**
 * The verdicts as a forest plot: one row per claim, grouped by seed. Each row has its own scale
 * in the claim's unit (claims differ in unit) with zero as a grey line, the claimed size as a
 * purple tick inside its band of a factor of two either way ({@code C/2 .. 2C}, where a finding
 * is "supports"), the measured 99.9% interval as a bar in the finding's colour and the measured
 * effect as a dot. A claim with no interval says why in words instead of a bar; an exact figure is
 * a dot without a bar. The page draws it above the verdicts' table; {@code report --format svg}
 * prints it alone.
 */
public final class VerdictsSvg {

    private static final int WIDTH = 820, LABEL = 300, PLOT_LEFT = LABEL + 20, PLOT_RIGHT = WIDTH - 70, ROW = 40, HEAD = 26;

    private VerdictsSvg() {
    }

    /** The forest plot of {@code verdicts}, one group per seed; empty when there are none. */
    public static String of(List<SeedVerdicts.Verdict> verdicts) {
        if (verdicts.isEmpty()) return "";
        int rows = verdicts.stream().mapToInt(v -> v.claims().size()).sum();
        int height = 34 + verdicts.size() * HEAD + rows * ROW + 8;
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"forest\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                        + "font-family=\"sans-serif\" font-size=\"12\">\n<title>The seeds' claims: measured effect and 99.9%% interval "
                        + "against the claimed size</title>\n<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n",
                WIDTH, height, WIDTH, height, WIDTH, height));
        s.append(String.format(Locale.ROOT, "<text x=\"8\" y=\"16\" font-weight=\"bold\">Each claim: the measured effect (dot) and its "
                + "99.9%% interval (bar), zero (grey), the claimed size (purple tick) and its band C/2..2C</text>\n"));
        int y = 34;
        for (SeedVerdicts.Verdict v : verdicts) {
            s.append(String.format(Locale.ROOT, "<text x=\"8\" y=\"%d\" font-weight=\"bold\">%s</text>\n", y + 16,
                    escape(v.family() + " (" + v.seed() + "): " + v.summary())));
            y += HEAD;
            for (ClaimResult r : v.claims()) {
                row(s, r, y);
                y += ROW;
            }
        }
        return s.append("</svg>\n").toString();
    }

    /** The colour of a finding: green for support, light green for the direction, red against, amber undecided, grey not testable. */
    static String colour(Finding f) {
        return switch (f) {
            case SUPPORTS -> "#2e7d32";
            case SUPPORTS_SMALLER, SUPPORTS_LARGER -> "#7cb342";
            case CONTRADICTS -> "#c62828";
            case INCONCLUSIVE -> "#e0a800";
            case NOT_TESTABLE -> "#999999";
        };
    }

    private static void row(StringBuilder s, ClaimResult r, int y) {
        String colour = colour(r.finding());
        int mid = y + ROW / 2;
        s.append(String.format(Locale.ROOT, "<g class=\"claim\"><title>%s</title>\n", escape(r.id() + ": " + r.finding().words()
                + (r.effect() == null ? "" : "; measured " + VerdictsText.measuredShort(r)) + "; claimed " + r.claimed())));
        s.append(String.format(Locale.ROOT, "<rect x=\"8\" y=\"%d\" width=\"5\" height=\"%d\" fill=\"%s\"/>\n", y + 4, ROW - 8, colour));
        s.append(String.format(Locale.ROOT, "<text x=\"20\" y=\"%d\">%s</text>\n", mid - 3, escape(r.id())));
        s.append(String.format(Locale.ROOT, "<text x=\"20\" y=\"%d\" fill=\"%s\" font-size=\"11\">%s</text>\n", mid + 11, colour,
                escape(r.finding().words())));
        boolean abs = r.scale() == Claim.Scale.ABSOLUTE;
        String unit = abs ? " " + r.unit() : "%";
        Double claim = r.claimedSize() == null || r.direction() == null ? null : r.claimedSize() * r.direction().sign();
        boolean exact = !r.rows().isEmpty() && r.rows().stream().allMatch(x -> x.bound() == ClaimResult.Bound.EXACT);
        boolean bar = r.measured() && r.low() != null && r.high() != null && !exact;
        if (r.effect() == null && !bar) {
            String why = r.finding() == Finding.NOT_TESTABLE ? "not testable here" : "no counted row measured (one run per side)";
            s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" fill=\"#666\">%s (claimed %s)</text>\n</g>\n", PLOT_LEFT, mid + 4,
                    escape(why), escape(r.claimed())));
            return;
        }
        double m = 0;
        for (Double v : new Double[]{r.effect(), bar ? r.low() : null, bar ? r.high() : null}) if (v != null) m = Math.max(m, Math.abs(v));
        if (claim != null) m = Math.max(m, Math.abs(claim) * SeedVerdicts.BAND);
        if (!(m > 0) || !Double.isFinite(m)) m = 1;
        m *= 1.1;
        double zero = (PLOT_LEFT + PLOT_RIGHT) / 2.0, k = (PLOT_RIGHT - PLOT_LEFT) / 2.0 / m;
        s.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#ddd\"/>\n", PLOT_LEFT, mid, PLOT_RIGHT, mid));
        if (claim != null) {
            double a = zero + claim / SeedVerdicts.BAND * k, b = zero + claim * SeedVerdicts.BAND * k;
            s.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"#6a3d9a\" fill-opacity=\"0.12\"/>\n",
                    Math.min(a, b), y + 6, Math.abs(b - a), ROW - 16));
            double c = zero + claim * k;
            s.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#6a3d9a\" stroke-width=\"2\"/>\n",
                    c, y + 5, c, y + ROW - 9));
        }
        s.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#888\"/>\n", zero, y + 3, zero, y + ROW - 7));
        if (bar) {
            s.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" stroke-width=\"5\" "
                    + "stroke-linecap=\"round\"/>\n", zero + r.low() * k, mid, zero + r.high() * k, mid, colour));
        }
        if (r.effect() != null) {
            s.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%d\" r=\"4\" fill=\"#1b1b1b\"/>\n", zero + r.effect() * k, mid));
        }
        String scale = VerdictsText.number(m) + unit;
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"10\" fill=\"#666\">-%s</text>\n", PLOT_LEFT, y + ROW - 1,
                escape(scale)));
        s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" font-size=\"10\" fill=\"#666\" text-anchor=\"middle\">0</text>\n", zero,
                y + ROW - 1));
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"10\" fill=\"#666\" text-anchor=\"end\">+%s</text>\n", PLOT_RIGHT,
                y + ROW - 1, escape(scale)));
        String words = exact ? "exact" : bar ? "" : "not measured";
        if (!words.isEmpty()) {
            s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"10\" fill=\"#666\">%s</text>\n", PLOT_RIGHT + 6, mid + 4,
                    escape(words)));
        }
        s.append("</g>\n");
    }
}
