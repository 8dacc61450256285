package dev.corescope.report;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * One claim of a seed, as data its family declares ({@code BenchFamily.claims()}): what the
 * kernel patch's mail says, about which quantity, in which direction and by how much under the
 * seed's conditions, which rows of a results file measure it here and which do not count (and
 * why), and whether it can be tested on a machine like this at all. {@link SeedVerdicts} tests
 * it against a results file with rules that name no seed; the finding is a {@link Finding}.
 *
 * @param id          stable id, {@code family.name}, e.g. {@code cpumask.time-per-call}
 * @param family      the family that re-runs the seed (the results' {@code benchmark})
 * @param seed        the seed in a few words, e.g. {@code cpumask_first_but(), June 2025}
 * @param words       the seed's own words, quoted or closely paraphrased
 * @param quantity    what the claim is about, e.g. {@code time per cpumask_any_but() call}
 * @param unit        the claim's unit as people read it: {@code ns per call}, {@code bytes}, {@code %};
 *                    for an {@linkplain Scale#ABSOLUTE absolute} claim the rows' unit must measure it
 *                    ({@code ns/op} for ns per call, {@code bytes} for bytes)
 * @param direction   which way the seed says the approach moves the quantity against the baseline
 * @param size        the claimed size, a magnitude in {@code unit} (absolute) or in percent of the
 *                    baseline (relative); null when the seed claims a direction only
 * @param scale       whether {@code size} is absolute or relative
 * @param conditions  the seed's conditions: CPU, CPU count, kernel, how it measured
 * @param rows        which rows measure it here
 * @param notTestable null when the claim can be tested with the right rows; else why it cannot be
 *                    tested on this kind of machine at all (e.g. {@code runs in kernel context})
 */
public record Claim(String id, String family, String seed, String words, String quantity, String unit,
                    Direction direction, Double size, Scale scale, String conditions, Rows rows, String notTestable) {

    public Claim {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(family, "family");
        Objects.requireNonNull(direction, "direction");
        Objects.requireNonNull(scale, "scale");
        if (size != null && !(size > 0)) throw new IllegalArgumentException(id + ": a claimed size is a positive magnitude: " + size);
        if (rows == null && notTestable == null) throw new IllegalArgumentException(id + ": a claim needs rows or a reason it is not testable");
    }

    /** The claimed direction of the approach against the baseline. */
    public enum Direction {
        /** The approach's figure is lower (faster, smaller). */
        LESS("less"),
        /** The approach's figure is higher (costs more). */
        MORE("more"),
        /**
         * No net change: a net that is small against its own gross (parts that grew and parts that
         * shrank cancelling), tested over a build matrix ({@link Rows#matrix}) within a tolerance
         * taken from that gross.
         */
        NONE("no net change");

        private final String words;

        Direction(String words) {
            this.words = words;
        }

        @JsonValue
        public String words() {
            return words;
        }

        /** +1 for MORE, -1 for LESS, 0 for NONE: the sign of a change in the claimed direction. */
        public int sign() {
            return this == MORE ? 1 : this == LESS ? -1 : 0;
        }
    }

    /** Whether a claimed size is in the claim's unit or in percent of the baseline. */
    public enum Scale {
        ABSOLUTE, RELATIVE;

        @JsonValue
        public String words() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * Which rows measure a claim: pairs of a baseline and an approach row of one benchmark and
     * metric, matched on their params.
     *
     * @param benchmark       the results' {@code benchmark}
     * @param metric          the results' {@code metric}
     * @param baseline        the variant before the patch
     * @param approach        the variant after it
     * @param implementations which implementations vote ({@code java}, {@code native})
     * @param where           params every row must have, each with the values that count (as strings;
     *                        {@code ""} for "absent"); empty: any
     * @param approachOnly    params only the approach rows carry (e.g. which stand-in a variant uses),
     *                        with the values that count; left out when pairing with the baseline
     * @param excluded        rows that do not count, and why (kept in the verdict as "not counted")
     * @param disowned        rows the family's own diagnostics disown in a given file (e.g. a split
     *                        that puts the gap in code shape, not in the patch's change); none by default
     * @param matrix          for exact figures measured once per build of a matrix (code size): the
     *                        param summed into one total per build and the param naming the build;
     *                        null for measured rows ({@link BuildMatrixFindings} tests these)
     */
    public record Rows(String benchmark, String metric, String baseline, String approach, List<String> implementations,
                       Map<String, List<String>> where, Map<String, List<String>> approachOnly, List<Excluded> excluded,
                       Disowned disowned, Matrix matrix) {

        public Rows {
            implementations = List.copyOf(implementations);
            where = where == null ? Map.of() : Map.copyOf(where);
            approachOnly = approachOnly == null ? Map.of() : Map.copyOf(approachOnly);
            excluded = excluded == null ? List.of() : List.copyOf(excluded);
            disowned = disowned == null ? Disowned.NONE : disowned;
        }

        /** Rows of both variants of {@code benchmark}/{@code metric}, in every implementation given, no other condition. */
        public static Rows of(String benchmark, String metric, String baseline, String approach, String... implementations) {
            return new Rows(benchmark, metric, baseline, approach, List.of(implementations), null, null, null, null, null);
        }

        public Rows where(String param, String... values) {
            Map<String, List<String>> w = new LinkedHashMap<>(where);
            w.put(param, List.of(values));
            return new Rows(benchmark, metric, baseline, approach, implementations, w, approachOnly, excluded, disowned, matrix);
        }

        public Rows approachOnly(String param, String... values) {
            Map<String, List<String>> w = new LinkedHashMap<>(approachOnly);
            w.put(param, List.of(values));
            return new Rows(benchmark, metric, baseline, approach, implementations, where, w, excluded, disowned, matrix);
        }

        /** Rows (of {@code implementation}, or any when null) whose params hold {@code where} do not count, for {@code reason}. */
        public Rows excluding(String implementation, Map<String, List<String>> where, String reason) {
            List<Excluded> e = new ArrayList<>(excluded);
            e.add(new Excluded(implementation, where, reason));
            return new Rows(benchmark, metric, baseline, approach, implementations, this.where, approachOnly, e, disowned, matrix);
        }

        /**
         * The rows are exact figures, one per build of a matrix and per {@code summedParam} value: each
         * build's figure is their sum, and a finding holds only where every build gives it.
         * {@code netShareOfGross} is the tolerance of a {@link Direction#NONE} claim: the net may be
         * at most this share of the gross (the sum of the parts' absolute changes); null otherwise.
         */
        public Rows matrix(String summedParam, String buildParam, Double netShareOfGross) {
            return new Rows(benchmark, metric, baseline, approach, implementations, where, approachOnly, excluded,
                    disowned, new Matrix(summedParam, buildParam, netShareOfGross));
        }

        public Rows disowned(Disowned d) {
            return new Rows(benchmark, metric, baseline, approach, implementations, where, approachOnly, excluded, d, matrix);
        }
    }

    /**
     * How exact figures over a build matrix add up: {@code summedParam} names the parts summed into
     * one figure per build, {@code buildParam} the build; {@code netShareOfGross} is the tolerance of
     * a "no net change" claim as a share of the gross, or null.
     */
    public record Matrix(String summedParam, String buildParam, Double netShareOfGross) {
        public Matrix {
            Objects.requireNonNull(summedParam, "summedParam");
            Objects.requireNonNull(buildParam, "buildParam");
            if (netShareOfGross != null && !(netShareOfGross > 0 && netShareOfGross < 1)) {
                throw new IllegalArgumentException("a share of the gross is between 0 and 1: " + netShareOfGross);
            }
        }
    }

    /**
     * Rows that do not count.
     *
     * @param implementation the implementation it applies to, or null for any
     * @param where          params with the values that select the rows (as strings; {@code ""} for absent)
     * @param reason         why they do not count, in words
     */
    public record Excluded(String implementation, Map<String, List<String>> where, String reason) {
        public Excluded {
            where = where == null ? Map.of() : Map.copyOf(where);
            Objects.requireNonNull(reason, "reason");
        }

        /** Whether {@code r} is one of these rows. */
        public boolean matches(Result r) {
            return (implementation == null || implementation.equals(r.implementation())) && holds(where, r.params());
        }
    }

    /** The rows a family's own diagnostics disown in one results file, each with the reason. */
    @FunctionalInterface
    public interface Disowned {
        Disowned NONE = file -> List.of();

        /** Rows of {@code file} that do not count, as {@link Excluded} entries naming their params exactly. */
        List<Excluded> of(ResultsFile file);
    }

    /**
     * Whether any of {@code claims} counts a row of {@code benchmark}'s {@code variant} in
     * {@code implementation} with {@code params} and {@code metric} (null: any): it names the variant as baseline
     * or approach and does not set such rows aside. A family asks before it measures, to spend its
     * repeated runs where the claims are.
     */
    public static boolean counts(List<Claim> claims, String benchmark, String variant, String implementation, String metric,
                                 Map<String, Object> params) {
        for (Claim c : claims) {
            Rows r = c.rows();
            if (c.notTestable() != null || r == null || r.matrix() != null || !r.benchmark().equals(benchmark)
                    || !r.implementations().contains(implementation) || metric != null && !metric.equals(r.metric())) continue;
            if (!variant.equals(r.baseline()) && !variant.equals(r.approach())) continue;
            if (!holds(r.where(), params)) continue;
            boolean excluded = r.excluded().stream().anyMatch(e -> (e.implementation() == null || e.implementation().equals(implementation))
                    && (variant.equals(r.baseline()) ? e.where().keySet().stream().allMatch(k -> !r.approachOnly().containsKey(k)) : true)
                    && holds(e.where(), params));
            if (!excluded) return true;
        }
        return false;
    }

    /** Whether {@code params} has, for every key of {@code where}, one of its values ({@code ""} meaning absent). */
    static boolean holds(Map<String, List<String>> where, Map<String, Object> params) {
        for (var e : where.entrySet()) {
            Object v = params.get(e.getKey());
            String s = v == null ? "" : String.valueOf(v);
            if (!e.getValue().contains(s)) return false;
        }
        return true;
    }

    /** The claimed change as signed text, e.g. {@code -78 bytes}, {@code +8.3 ns per call}, {@code lower}. */
    public String claimedText() {
        if (direction == Direction.NONE) return "no net change";
        if (size == null) return direction == Direction.LESS ? "lower" : "higher";
        String n = size == Math.rint(size) ? String.format(Locale.ROOT, "%.0f", size)
                : String.format(Locale.ROOT, "%s", trim(size));
        return (direction == Direction.LESS ? "-" : "+") + n + (scale == Scale.RELATIVE ? "%" : " " + unit);
    }

    private static String trim(double v) {
        String s = String.format(Locale.ROOT, "%.3f", v);
        return s.replaceAll("0+$", "").replaceAll("\\.$", "");
    }
}
