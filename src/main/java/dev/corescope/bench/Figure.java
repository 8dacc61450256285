package dev.corescope.bench;

import com.fasterxml.jackson.annotation.JsonAlias;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import dev.corescope.report.Pointers;
import dev.corescope.report.Result;
import dev.corescope.text.Num;
import java.util.stream.Stream;

/**
 * One measured row as a family's model saves it: the row, and whether its samples include time
 * the thread was descheduled (fewer than 3 undisturbed ones, so all were kept). The file holds the
 * row in {@code results[]}; the model points at it by its key ({@link Pointers}).
 */
public record Figure(@JsonProperty("row") @JsonAlias("result") @JsonSerialize(using = Pointers.RowOut.class)
                     @JsonDeserialize(using = Pointers.RowIn.class) Result result,
                     boolean includesPreemptions) {

    public static Figure of(Measured m) {
        return new Figure(m.result(), m.includesPreemptions());
    }

    /**
     * {@code 8.62 [8.36, 8.88]}: the score and its 99.9% interval at three significant figures
     * ({@link Num}), with {@code " *"} when the samples include preemptions.
     */
    public String cell() {
        Result r = result;
        return Num.withInterval(r.score(), r.error()) + (includesPreemptions ? " *" : "");
    }

    /** {@code to} minus {@code from} and that as a share of {@code from}: {@code -0.0500 (-0.58%)}. */
    public static String change(Figure from, Figure to) {
        double d = to.result().score() - from.result().score();
        return Num.signed(d) + " (" + Num.signed(100.0 * d / from.result().score()) + "%)";
    }

    /** Whether any of {@code figures} includes preemptions (then a table needs {@link #PREEMPTIONS_NOTE}). */
    public static boolean anyPreempted(Stream<Figure> figures) {
        return figures.anyMatch(Figure::includesPreemptions);
    }

    /** The note a table with a {@code *} cell needs. */
    public static final String PREEMPTIONS_NOTE =
            "* fewer than 3 samples ran undisturbed, so all were kept: this figure includes time the thread was descheduled.";
}
