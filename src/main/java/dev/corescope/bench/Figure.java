package dev.corescope.bench;

import dev.corescope.report.Result;

import java.util.Locale;

/**
 * One measured row as a family's model saves it: the row, and whether its samples include time
 * the thread was descheduled (fewer than 3 undisturbed ones, so all were kept).
 */
public record Figure(Result result, boolean includesPreemptions) {

    public static Figure of(Measured m) {
        return new Figure(m.result(), m.includesPreemptions());
    }

    /** {@code 1.234 ± 0.005}, with {@code " *"} when the samples include preemptions. */
    public String cell() {
        Result r = result;
        String mark = includesPreemptions ? " *" : "";
        return (r.error() == null ? String.format(Locale.ROOT, "%.3f", r.score())
                : String.format(Locale.ROOT, "%.3f ± %.3f", r.score(), r.error())) + mark;
    }

    /** The footnote a table with a {@code *} cell needs. */
    public static final String PREEMPTIONS_NOTE =
            "  * fewer than 3 samples ran undisturbed, so all were kept: this figure includes time the thread was descheduled\n";
}
