package dev.corescope.report;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonValue;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What one results file says of one {@link Claim}: its finding and the figures behind it, as
 * {@code claims[]} in the results file (CONTRACT.md, "Findings"). Figures are in the claim's
 * unit ({@code unit}); for an absolute claim the relative figures ({@code ...Percent}) say the
 * same change as a share of the baseline, so both readings are there. Intervals are 99.9%, with
 * runs (JMH forks) as the unit ({@link Comparison}); they are null where nothing measured them
 * ({@code measured} false: one run per side, the between-run noise unknown).
 *
 * @param id              the claim's id, e.g. {@code cpumask.time-per-call}
 * @param family          the family that re-runs the seed
 * @param seed            the seed in a few words
 * @param claim           the seed's words
 * @param quantity        what the claim is about
 * @param unit            the claim's unit
 * @param direction       {@code less} or {@code more}: the claimed direction of the approach against the baseline
 * @param scale           {@code absolute} (size in {@code unit}) or {@code relative} (size in percent)
 * @param claimedSize     the claimed size, a magnitude in {@code unit} or percent; null for a direction only
 * @param claimed         the claimed change as text, e.g. {@code -78 bytes}
 * @param conditions      the seed's conditions
 * @param finding         the finding, as {@link Finding#words()}
 * @param effect          the measured change (approach minus baseline) in {@code unit}; with several
 *                        rows, the measured one farthest from zero (see {@code rows}); null when no row was measured
 * @param low             the low end of the claim's interval (the span of the counted rows' intervals), in {@code unit}
 * @param high            its high end
 * @param effectPercent   {@code effect} as a change in percent of the baseline
 * @param lowPercent      {@code low} in percent of the baseline
 * @param highPercent     {@code high} in percent of the baseline
 * @param measured        whether any counted row has an interval (measured runs, exact figures, or a change beyond the
 *                        between-run allowance of one run per side); only such rows decide and give {@code effect}
 * @param smallestEffect  the smallest change this run could have told from zero, in {@code unit}
 *                        (the interval's half-width at no change, the widest counted row's)
 * @param runsNeeded      for {@code inconclusive}: about how many runs (forks) per side would resolve the
 *                        claimed size at the variance measured; null when it cannot be said
 * @param reason          why this finding, in words (the rule, the band, what is missing)
 * @param rows            the rows that count, each with its own figures and finding
 * @param notCounted      the rows that measure the quantity but do not count, each with the reason
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ClaimResult(String id, String family, String seed, String claim, String quantity, String unit,
                          Claim.Direction direction, Claim.Scale scale, Double claimedSize, String claimed, String conditions,
                          Finding finding, Double effect, Double low, Double high,
                          Double effectPercent, Double lowPercent, Double highPercent, boolean measured,
                          Double smallestEffect, Integer runsNeeded, String reason,
                          @JsonInclude(JsonInclude.Include.NON_EMPTY) List<RowFinding> rows,
                          @JsonInclude(JsonInclude.Include.NON_EMPTY) List<NotCounted> notCounted) {

    public ClaimResult {
        rows = rows == null ? List.of() : List.copyOf(rows);
        notCounted = notCounted == null ? List.of() : List.copyOf(notCounted);
    }

    /** Whether it was judged over a build matrix: exact figures per build, which no longer run changes. */
    @JsonIgnore
    public boolean overBuilds() {
        return !rows.isEmpty() && rows.stream().allMatch(x -> x.bound() == Bound.BUILD);
    }

    /** The same result with another {@code reason}. */
    public ClaimResult withReason(String reason) {
        return new ClaimResult(id, family, seed, claim, quantity, unit, direction, scale, claimedSize, claimed, conditions, finding,
                effect, low, high, effectPercent, lowPercent, highPercent, measured, smallestEffect, runsNeeded, reason, rows, notCounted);
    }

    /**
     * The one reason that decided the finding: the reason's first clause (the saved finding and
     * today's, where they differ, then the rule); the rest of {@link #reason} explains it.
     */
    public String decidingReason() {
        if (reason == null) return "";
        int because = reason.startsWith("saved: ") ? reason.indexOf(", because ") : -1;
        int from = because < 0 ? 0 : because + ", because ".length();
        int end = reason.indexOf("; ", from);
        return reason.substring(from, end < 0 ? reason.length() : end);
    }

    /**
     * One pair of rows (baseline and approach of the same params) that counts for a claim.
     *
     * @param implementation {@code java} or {@code native}
     * @param params         the rows' params
     * @param before         the baseline's score, in the rows' unit
     * @param after          the approach's score
     * @param rowUnit        the rows' unit, e.g. {@code ns/op}
     * @param effect         after minus before in the claim's unit (absolute) or percent (relative)
     * @param low            its interval's low end, same unit; null when not measured
     * @param high           its high end
     * @param lowPercent     the interval as a change in percent
     * @param highPercent    its high end in percent
     * @param measured       false when the between-run noise was not measured
     * @param finding        this pair's finding alone
     * @param noise          where the run-to-run noise came from, in words ({@code bound}'s, or its source's)
     * @param bound          what bounds its interval; read from {@code noise} in files written before it was saved
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record RowFinding(String implementation, Map<String, Object> params, double before, double after, String rowUnit,
                             double effect, Double low, Double high, Double lowPercent, Double highPercent, boolean measured,
                             Finding finding, String noise, Bound bound) {

        public RowFinding {
            if (bound == null) bound = Bound.ofWords(noise);
        }

        /** The same row, listed beside the finding without its interval. */
        RowFinding withoutInterval() {
            return new RowFinding(implementation, params, before, after, rowUnit, effect, null, null, null, null, false, finding, noise, bound);
        }
    }

    /** What bounds a row's interval, which decides whether and how the row counts. */
    public enum Bound {
        /** Its measured runs (JMH forks, a C twin's runs), or rows of its shape pooled. */
        RUNS(null),
        /** One run per side: the between-run allowance ({@link BetweenRunNoise#allowance}), a fallback. */
        ALLOWANCE(null),
        /** Exact figures (code sizes): no run-to-run noise. */
        EXACT("exact figures"),
        /** One build of a matrix ({@link BuildMatrixFindings}): exact for that build, moving with the build. */
        BUILD("one build of a matrix"),
        /** Runs too few for an interval within a factor of {@link SeedVerdicts#UNBOUNDED_FACTOR} either way: never deciding. */
        UNBOUNDED("runs too few to bound it");

        /** The noise words of this bound, or null where they name the source ({@link BetweenRunNoise#source}). */
        final String words;

        Bound(String words) {
            this.words = words;
        }

        /** {@code runs}, {@code allowance}, ...: as saved. */
        @JsonValue
        public String key() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** An older file's noise words as the bound they name. */
        static Bound ofWords(String noise) {
            for (Bound b : values()) if (b.words != null && b.words.equals(noise)) return b;
            return noise != null && noise.startsWith(BetweenRunNoise.ALLOWANCE_WORDS) ? ALLOWANCE : RUNS;
        }
    }

    /** Rows that measure the quantity but do not count, and why. */
    public record NotCounted(String implementation, Map<String, Object> params, String reason) {
    }
}
