package dev.corescope.text;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Locale;

/**
 * Numbers for people, at a consistent count of significant figures ({@link #SIG}, 3): 8.62,
 * 40.9, 0.0123; whole digits are never dropped (1235, 123456); beyond a billion or below 0.0001
 * in scientific form. An interval is {@code [low, high]}, its ends at the decimals of the value
 * they bound.
 */
public final class Num {

    /** The significant figures every figure in corescope's text is shown at. */
    public static final int SIG = 3;

    private Num() {
    }

    /** {@return {@code v} at {@link #SIG} significant figures: {@code 8.62}, {@code 1235}, {@code 1.23e+09}, {@code NaN}, {@code -inf}} */
    public static String of(double v) {
        if (Double.isNaN(v)) return "NaN";
        if (Double.isInfinite(v)) return v > 0 ? "inf" : "-inf";
        if (v == 0) return "0";
        double a = Math.abs(v);
        if (a >= 1e9 || a < 1e-4) return String.format(Locale.ROOT, "%." + (SIG - 1) + "e", v);
        return plain(v, decimals(v));
    }

    /** {@return a change with its sign: {@code +1.23}, {@code -1.23}, {@code 0}} */
    public static String signed(double v) {
        String s = of(v);
        return v > 0 ? "+" + s : s;
    }

    /** {@return how many decimals {@code v} is shown with: 0 for 100 and more (and for 0, NaN, infinities)} */
    public static int decimals(double v) {
        double a = Math.abs(v);
        if (a == 0 || Double.isNaN(a) || Double.isInfinite(a)) return 0;
        int magnitude = (int) Math.floor(Math.log10(new BigDecimal(a).round(new MathContext(SIG, RoundingMode.HALF_EVEN)).doubleValue()));
        return Math.max(0, SIG - 1 - magnitude);
    }

    /** {@return finite {@code v} with {@code decimals} decimals, rounded half-even, never in scientific form} */
    public static String plain(double v, int decimals) {
        return new BigDecimal(v).setScale(decimals, RoundingMode.HALF_EVEN).toPlainString();
    }

    /** {@return {@code [low, high]} of {@code mean ± halfWidth} at the mean's decimals, e.g. {@code [8.36, 8.88]}} */
    public static String interval(double mean, double halfWidth) {
        int d = decimals(mean);
        if (Math.abs(mean) >= 1e9 || mean != 0 && Math.abs(mean) < 1e-4) return "[" + of(mean - halfWidth) + ", " + of(mean + halfWidth) + "]";
        return "[" + plain(mean - halfWidth, d) + ", " + plain(mean + halfWidth, d) + "]";
    }

    /** {@return {@code 8.62 [8.36, 8.88]}, or the value alone when {@code halfWidth} is null or NaN} */
    public static String withInterval(double mean, Double halfWidth) {
        if (halfWidth == null || Double.isNaN(halfWidth)) return of(mean);
        return of(mean) + " " + interval(mean, halfWidth);
    }
}
