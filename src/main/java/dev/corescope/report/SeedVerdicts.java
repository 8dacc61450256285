package dev.corescope.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The rules that turn a results file and the seeds' {@link Claim}s into one {@link Finding} per
 * claim and one summary per seed (docs/verdicts.md gives them in full). Nothing here names a seed,
 * a variant or a family's threshold: the families declare their claims, this class only tests them.
 *
 * <p>Per pair of rows, the change and its 99.9% interval as {@code compare} computes it
 * ({@link Comparison#row}: runs as the unit), with the run-to-run noise pooled over the rows of the
 * pair's shape the claim does not set aside; a pair with one run per side gets the between-run
 * allowance ({@link BetweenRunNoise#allowance}) as a fallback, never zero between-run noise. Oriented so the
 * claimed direction is positive, with claimed size {@code C}, the interval {@code [L, H]} gives
 * {@code supports} ({@code L > 0}, reaching {@code [C/2, 2C]}), {@code smaller/larger than claimed},
 * {@code contradicts} ({@code H < 0}, or no effect of {@code C/2}) or {@code inconclusive}
 * ({@link #classify}). Per claim only pairs with an interval decide and headline, and a finding
 * holds only where they agree ({@link #combine}).
 */
public final class SeedVerdicts {

    /**
     * Runs a side from which a row of a claim is judged on its own between-run variance alone (8+
     * degrees of freedom: a full run's C twins). Fewer runs (JMH's 2-3 forks, whose JIT can land
     * alike by chance) borrow strength from the pool of their shape. Across files ({@code compare})
     * the pool stays: runs of one process share its lot, runs of two files do not.
     */
    public static final int OWN_RUNS = 5;
    /** How far either way an interval may reach (as a ratio of after to before) and still bound a row. */
    static final double UNBOUNDED_FACTOR = 10;

    /** The band around the claimed size within which an effect supports it: a factor of two either way. */
    static final double BAND = 2.0;

    /**
     * A seed's verdict: its claims' results and the summary that follows from them.
     *
     * @param family  the family that re-runs it
     * @param seed    the seed, in a few words
     * @param summary the summary in words, e.g. {@code partly supported: 1 of 3 claims supported, 2 not testable here}
     * @param claims  each claim's result, in the family's order
     */
    public record Verdict(String family, String seed, String summary, List<ClaimResult> claims) {

        /** The summary word alone, e.g. {@code partly supported}. */
        public String word() {
            int colon = summary.indexOf(':');
            return colon < 0 ? summary : summary.substring(0, colon);
        }

        /** The verdict's first line: {@code family (seed): summary}. */
        public String line() {
            return family + " (" + seed + "): " + summary;
        }
    }

    private SeedVerdicts() {
    }

    /** The verdicts of {@code claims} on {@code file}, one per seed; with no claims, the file's saved ones, grouped. */
    public static List<Verdict> of(ResultsFile file, List<Claim> claims) {
        return group(claims.isEmpty() ? file.claims() : evaluate(file, claims, List.of()));
    }

    /**
     * The verdicts of a file as the report shows them: each claim judged from the file's rows with
     * today's rules (never the saved word alone: a file whose rows were edited, or saved by older
     * rules, would show a verdict its rows no longer back). Where the file saved another finding,
     * the reason says both, first. With no claims given (a caller without the families) the saved
     * ones, grouped. The text, the tour and the page all use this, so one file reads the same everywhere.
     */
    public static List<Verdict> recorded(ResultsFile file, List<Claim> claims, List<NoiseAllowance> allowances) {
        if (claims.isEmpty()) return of(file, claims);
        Map<String, ClaimResult> saved = new LinkedHashMap<>();
        for (ClaimResult r : file.claims()) saved.putIfAbsent(r.id(), r);
        Set<String> families = new HashSet<>();
        for (Claim c : claims) families.add(c.family());
        List<ClaimResult> out = new ArrayList<>();
        for (ClaimResult now : evaluate(file, claims, allowances)) {
            ClaimResult was = saved.get(now.id());
            out.add(was == null || was.finding() == now.finding() ? now : now.withReason("saved: " + was.finding().words()
                    + "; from the rows with today's rules: " + now.finding().words() + ", because " + now.reason()));
        }
        // claims of a family this build does not know stay as the file saved them
        for (ClaimResult was : file.claims()) if (!families.contains(was.family())) out.add(was);
        return group(out);
    }

    /** Claims' results grouped into one verdict per seed, in their order. */
    private static List<Verdict> group(List<ClaimResult> results) {
        Map<List<String>, List<ClaimResult>> bySeed = new LinkedHashMap<>();
        // Arrays.asList: a saved claim may lack its seed
        for (ClaimResult r : results) bySeed.computeIfAbsent(Arrays.asList(r.family(), r.seed()), k -> new ArrayList<>()).add(r);
        return bySeed.entrySet().stream().map(e -> new Verdict(e.getKey().get(0), e.getKey().get(1), summary(e.getValue()), e.getValue())).toList();
    }

    /** Each claim whose family has rows in {@code file}, tested against it. */
    public static List<ClaimResult> evaluate(ResultsFile file, List<Claim> claims) {
        return evaluate(file, claims, List.of());
    }

    /** {@link #evaluate(ResultsFile, List)} with the families' own between-run allowances for rows nothing measured. */
    public static List<ClaimResult> evaluate(ResultsFile file, List<Claim> claims, List<NoiseAllowance> allowances) {
        List<ClaimResult> out = new ArrayList<>();
        for (Claim c : claims) {
            if (file.results().stream().noneMatch(r -> r.benchmark().equals(c.family()))) continue;
            out.add(test(file, c, allowances));
        }
        return out;
    }

    /** The seed's summary from its claims' findings, by the rule in the class comment. */
    public static String summary(List<ClaimResult> claims) {
        int s = 0, d = 0, c = 0, i = 0, n = 0;
        for (ClaimResult r : claims) {
            switch (r.finding()) {
                case SUPPORTS -> s++;
                case SUPPORTS_SMALLER, SUPPORTS_LARGER -> d++;
                case CONTRADICTS -> c++;
                case INCONCLUSIVE -> i++;
                case NOT_TESTABLE -> n++;
            }
        }
        int total = claims.size();
        String word;
        if (s + d + c + i == 0) word = "not testable here";
        else if (c > 0 && s + d > 0) word = "mixed";
        else if (c > 0) word = c == total ? "contradicted" : "partly contradicted";
        else if (s == total) word = "supported";
        else if (s + d > 0) word = "partly supported";
        else word = "inconclusive";
        List<String> parts = new ArrayList<>();
        if (s > 0) parts.add(s + " of " + total + (total == 1 ? " claim" : " claims") + " supported");
        if (d > 0) parts.add(d + " supported in direction only (size off)");
        if (c > 0) parts.add(c + " contradicted");
        if (i > 0) parts.add(i + " inconclusive");
        if (n > 0) parts.add(n + " not testable here");
        if (s == 0 && !parts.isEmpty()) parts.set(0, parts.getFirst().replaceFirst("^(\\d+) ", "$1 of " + total + (total == 1 ? " claim " : " claims ")));
        return word + ": " + String.join(", ", parts);
    }

    private record Pair(Result before, Result after) {
    }

    private static ClaimResult test(ResultsFile file, Claim c, List<NoiseAllowance> allowances) {
        if (c.notTestable() != null) return result(c, Finding.NOT_TESTABLE, List.of(), notCounted(file, c), c.notTestable(), null, null);
        Claim.Rows sel = c.rows();
        if (sel.matrix() != null) return BuildMatrixFindings.test(file, c);
        List<Claim.Excluded> excluded = new ArrayList<>(sel.excluded());
        excluded.addAll(sel.disowned().of(file));
        List<Pair> pairs = pairs(file, sel);
        List<Pair> counted = new ArrayList<>();
        List<ClaimResult.NotCounted> notCounted = new ArrayList<>();
        for (Pair p : pairs) {
            Claim.Excluded why = excluded.stream().filter(e -> e.matches(p.after())).findFirst().orElse(null);
            if (why == null) counted.add(p);
            else notCounted.add(new ClaimResult.NotCounted(p.after().implementation(), p.after().params(), why.reason()));
        }
        if (counted.isEmpty()) {
            String reason = pairs.isEmpty() ? "no rows in this file measure it (" + sel.metric() + " of " + sel.approach()
                    + " against " + sel.baseline() + ")" : "no row here counts: " + VerdictsText.distinctReasons(notCounted);
            return result(c, Finding.NOT_TESTABLE, List.of(), notCounted, reason, null, null);
        }
        // the run-to-run noise of a counted row is pooled over the rows of its shape the claim does
        // not set aside: a row it excludes or its family disowns never widens (or narrows) it
        Set<Result> countedRows = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Pair p : counted) {
            countedRows.add(p.before());
            countedRows.add(p.after());
        }
        Set<Result> inPairs = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Pair p : pairs) {
            inPairs.add(p.before());
            inPairs.add(p.after());
        }
        List<Result> poolRows = file.results().stream().filter(r -> countedRows.contains(r) || !inPairs.contains(r)).toList();
        Map<String, BetweenRunNoise> pools = BetweenRunNoise.pools(List.of(poolRows), BetweenRunNoise::shapeKey);
        List<ClaimResult.RowFinding> rows = new ArrayList<>();
        double widest = 0;
        Integer runsNeeded = null;
        String runsUnit = null;
        for (Pair p : counted) {
            Result b = p.before(), a = p.after();
            boolean repeated = b.runs().size() >= 2 || a.runs().size() >= 2;
            // a row measured as OWN_RUNS+ runs a side (a C twin's interleaved runs) is judged on its own runs:
            // in a pool of its shape an erratic kind of row (an empty loop timed at 0.4 ns) would set its floor
            boolean own = b.runs().size() >= OWN_RUNS && a.runs().size() >= OWN_RUNS;
            BetweenRunNoise noise = own ? null : pools.get(BetweenRunNoise.shapeKey(b));
            if (noise == null) noise = BetweenRunNoise.ofRow(b, a);
            // one run per side (a C twin's interleaved batches in an older file included): the between-run
            // allowance is the fallback, never zero between-run noise; measured runs are judged on themselves
            if (noise == null && !repeated) noise = BetweenRunNoise.allowance(BetweenRunNoise.poolKey(b), allowances);
            Comparison.Row row = Comparison.row(b, a, noise);
            if (row.deltaPercent() == null) {
                notCounted.add(new ClaimResult.NotCounted(a.implementation(), a.params(), row.reason()));
                continue;
            }
            boolean exact = row.noiseFloorPercent() != null && row.noiseFloorPercent() == 0;
            boolean assumed = !exact && noise != null && noise.assumed();
            double scaleBy = c.scale() == Claim.Scale.ABSOLUTE ? Math.abs(b.score()) / 100 : 1;
            // an absolute claim's effect is the difference itself (exact for exact figures), not a percentage scaled back
            double effect = c.scale() == Claim.Scale.ABSOLUTE ? a.score() - b.score() : row.deltaPercent();
            Double lo = row.ciLowPercent() == null ? null : row.ciLowPercent() * scaleBy;
            Double hi = row.ciHighPercent() == null ? null : row.ciHighPercent() * scaleBy;
            Finding f = lo == null ? Finding.INCONCLUSIVE : classify(c, lo, hi);
            // a row has an interval when its runs were measured, its figures are exact, or (one run per side)
            // its change lies so far beyond the between-run allowance that the allowance's interval decides
            // an interval past a factor of ten either way (a side left with one run, pooled over few) bounds nothing
            boolean unbounded = lo != null && !assumed
                    && (1 + row.ciHighPercent() / 100 > UNBOUNDED_FACTOR || 1 + row.ciLowPercent() / 100 < 1 / UNBOUNDED_FACTOR);
            boolean measured = lo != null && !unbounded && !(assumed && f == Finding.INCONCLUSIVE);
            ClaimResult.Bound bound = unbounded ? ClaimResult.Bound.UNBOUNDED : exact ? ClaimResult.Bound.EXACT
                    : assumed ? ClaimResult.Bound.ALLOWANCE : ClaimResult.Bound.RUNS;
            rows.add(new ClaimResult.RowFinding(a.implementation(), a.params(), b.score(), a.score(), b.unit(), effect,
                    measured ? lo : null, measured ? hi : null, measured ? row.ciLowPercent() : null, measured ? row.ciHighPercent() : null,
                    measured, f, bound.words != null ? bound.words : noise == null ? row.reason() : noise.source(), bound));
            if (row.noiseFloorPercent() != null && measured && !assumed) widest = Math.max(widest, row.noiseFloorPercent() * scaleBy);
            if (measured && !assumed && f == Finding.INCONCLUSIVE && c.size() != null && !exact) {
                Integer k = runsNeeded(c, b, row);
                if (k != null && (runsNeeded == null || k > runsNeeded)) {
                    runsNeeded = k;
                    runsUnit = VerdictsText.runUnit(a.implementation(), true);
                }
            }
        }
        if (rows.isEmpty()) {
            return result(c, Finding.NOT_TESTABLE, List.of(), notCounted, "no row here counts: " + VerdictsText.distinctReasons(notCounted), null, null);
        }
        // the allowance is a fallback for a file with one run per side: where any counted row has
        // measured runs, rows bounded only by the allowance are listed, not counted in the finding
        if (rows.stream().anyMatch(r -> r.measured() && r.bound() != ClaimResult.Bound.ALLOWANCE)) {
            rows.replaceAll(r -> r.bound() == ClaimResult.Bound.ALLOWANCE ? r.withoutInterval() : r);
        }
        // a row without an interval never decides: the finding combines the rows that have one
        List<ClaimResult.RowFinding> deciding = rows.stream().filter(ClaimResult.RowFinding::measured).toList();
        Finding finding = deciding.isEmpty() ? Finding.INCONCLUSIVE : combine(c, deciding);
        StringBuilder why = new StringBuilder(deciding.isEmpty() ? (rows.size() == 1 ? "its one counted row has no interval"
                : "none of its " + rows.size() + " counted rows has an interval")
                + (rows.stream().allMatch(r -> r.bound() == ClaimResult.Bound.UNBOUNDED) ? " (" + ClaimResult.Bound.UNBOUNDED.words + ")"
                : " (one run per side)")
                : VerdictsText.because(c, finding, deciding));
        if (deciding.size() < rows.size()) why.append(VerdictsText.unmeasured(rows));
        if (finding == Finding.INCONCLUSIVE && !deciding.isEmpty()) {
            String unit = c.scale() == Claim.Scale.RELATIVE ? "%" : c.unit();
            if (runsNeeded != null) {
                why.append(String.format(Locale.ROOT, "; the smallest change these runs could see is %s %s; about %d %s per side would "
                        + "resolve the claimed %s at the variance measured", VerdictsText.number(widest), unit, runsNeeded, runsUnit, c.claimedText()));
            } else if (widest > 0) {
                why.append(String.format(Locale.ROOT, "; the smallest change these runs could see is %s %s", VerdictsText.number(widest), unit));
            }
        }
        if (!notCounted.isEmpty()) why.append("; not counted: ").append(VerdictsText.distinctReasons(notCounted));
        return result(c, finding, rows, notCounted, why.toString(), widest > 0 ? widest : null,
                finding == Finding.INCONCLUSIVE ? runsNeeded : null);
    }

    /** The pairs of baseline and approach rows the selector names, matched on params (without the approach's own). */
    private static List<Pair> pairs(ResultsFile file, Claim.Rows sel) {
        Map<String, Result> base = new LinkedHashMap<>();
        for (Result r : file.results()) {
            if (selected(r, sel, sel.baseline())) base.put(r.implementation() + pairKey(r, sel), r);
        }
        List<Pair> out = new ArrayList<>();
        for (Result r : file.results()) {
            if (!selected(r, sel, sel.approach()) || !Claim.holds(sel.approachOnly(), r.params())) continue;
            Result b = base.get(r.implementation() + pairKey(r, sel));
            if (b != null) out.add(new Pair(b, r));
        }
        return out;
    }

    private static boolean selected(Result r, Claim.Rows sel, String variant) {
        return r.benchmark().equals(sel.benchmark()) && r.metric().equals(sel.metric()) && r.variant().equals(variant)
                && sel.implementations().contains(r.implementation()) && Claim.holds(sel.where(), r.params());
    }

    private static String pairKey(Result r, Claim.Rows sel) {
        TreeMap<String, Object> p = new TreeMap<>();
        r.params().forEach((k, v) -> {
            if (!sel.approachOnly().containsKey(k)) p.put(k, String.valueOf(v));
        });
        return p.toString();
    }

    /** An interval turned so that the claimed direction is positive: {@code [lo, hi]}. */
    record Oriented(double lo, double hi) {
        static Oriented of(Claim c, double low, double high) {
            double s = c.direction().sign();
            return new Oriented(Math.min(low * s, high * s), Math.max(low * s, high * s));
        }
    }

    /** The finding of one interval, oriented so the claimed direction is positive. */
    static Finding classify(Claim c, double low, double high) {
        Oriented o = Oriented.of(c, low, high);
        double lo = o.lo(), hi = o.hi();
        if (c.size() == null) return lo > 0 ? Finding.SUPPORTS : hi < 0 ? Finding.CONTRADICTS : Finding.INCONCLUSIVE;
        double size = c.size();
        if (hi < 0) return Finding.CONTRADICTS;
        if (lo > 0) {
            if (hi < size / BAND) return Finding.SUPPORTS_SMALLER;
            if (lo > size * BAND) return Finding.SUPPORTS_LARGER;
            // the claimed size needs the whole interval inside its band: one that crosses an edge of
            // the band holds both "as claimed" and "smaller" (or "larger"), and the run has not told them apart
            return lo >= size / BAND && hi <= size * BAND ? Finding.SUPPORTS : Finding.INCONCLUSIVE;
        }
        return hi < size / BAND ? Finding.CONTRADICTS : Finding.INCONCLUSIVE;
    }

    /**
     * A finding holds only where every counted pair that decides agrees (class comment): a pair whose
     * interval holds both zero and the claim neither decides nor vetoes; of the others, one finding for all,
     * or all in the claimed direction and on one side of the band; otherwise the span of the
     * pairs' intervals decides between contradicts (no pair reaches half the claimed size) and
     * inconclusive. Only pairs with an interval are given (the others never decide).
     */
    static Finding combine(Claim c, List<ClaimResult.RowFinding> rows) {
        EnumSet<Finding> seen = EnumSet.noneOf(Finding.class);
        // a row whose interval holds both zero and the claim is consistent with every finding: it
        // neither decides nor vetoes the rows that do (a tight C row is not outvoted by a wide Java one)
        for (ClaimResult.RowFinding r : rows) if (!undecided(c, r)) seen.add(r.finding());
        if (seen.isEmpty()) return Finding.INCONCLUSIVE;
        if (seen.size() == 1) return seen.iterator().next();
        EnumSet<Finding> direction = EnumSet.of(Finding.SUPPORTS, Finding.SUPPORTS_SMALLER, Finding.SUPPORTS_LARGER);
        if (direction.containsAll(seen)) {
            if (!seen.contains(Finding.SUPPORTS_LARGER)) return Finding.SUPPORTS_SMALLER;
            if (!seen.contains(Finding.SUPPORTS_SMALLER)) return Finding.SUPPORTS_LARGER;
            return Finding.INCONCLUSIVE;
        }
        double lo = Double.POSITIVE_INFINITY, hi = Double.NEGATIVE_INFINITY;
        for (ClaimResult.RowFinding r : rows) {
            if (r.low() == null) continue;
            lo = Math.min(lo, r.low());
            hi = Math.max(hi, r.high());
        }
        Finding span = classify(c, lo, hi);
        return span == Finding.CONTRADICTS ? span : Finding.INCONCLUSIVE;
    }

    /** Whether a row's interval holds both zero and the claim (half its size, or either direction of a direction-only claim). */
    static boolean undecided(Claim c, ClaimResult.RowFinding r) {
        Oriented o = Oriented.of(c, r.low(), r.high());
        return o.lo() <= 0 && o.hi() >= (c.size() == null ? 0 : c.size() / BAND);
    }

    /**
     * About how many runs per side would bring the interval's half-width to half the claimed size
     * (then an interval cannot hold both zero and the claim's band), if the variance stays as
     * measured and falls as {@code 1/runs}.
     */
    private static Integer runsNeeded(Claim c, Result b, Comparison.Row row) {
        if (row.noiseFloorPercent() == null || row.noiseFloorPercent() <= 0) return null;
        double rel = c.scale() == Claim.Scale.ABSOLUTE ? c.size() / Math.abs(b.score()) : c.size() / 100;
        if (!(rel > 0)) return null;
        double now = Math.log1p(row.noiseFloorPercent() / 100), target = Math.log1p(rel / BAND);
        int k = Math.max(1, Math.max(row.runsBefore() == null ? 1 : row.runsBefore(), row.runsAfter() == null ? 1 : row.runsAfter()));
        double need = k * (now / target) * (now / target);
        return need > 1e6 ? 1_000_000 : (int) Math.ceil(need);
    }

    private static List<ClaimResult.NotCounted> notCounted(ResultsFile file, Claim c) {
        if (c.rows() == null) return List.of();
        List<ClaimResult.NotCounted> out = new ArrayList<>();
        for (Pair p : pairs(file, c.rows())) out.add(new ClaimResult.NotCounted(p.after().implementation(), p.after().params(), c.notTestable()));
        return out;
    }

    /** The runs per side that {@code bench} (quick included) gives each row a claim counts. */
    public static final int RUNS_PER_SIDE = 3;
    /** The separately started runs per side of a C twin's rows in a full run (they share its batches). */
    public static final int TWIN_RUNS_FULL = 8;

    private static ClaimResult result(Claim c, Finding f, List<ClaimResult.RowFinding> rows, List<ClaimResult.NotCounted> notCounted,
                                      String reason, Double smallest, Integer runsNeeded) {
        Double effect = null, lo = null, hi = null, effectPct = null, loPct = null, hiPct = null;
        boolean measured = false;
        // the headline is a measured row's: the one farthest from zero, and the span of the intervals,
        // over the rows whose finding is the claim's where there are any (a row that could not tell is listed, not drawn)
        boolean anyAgree = rows.stream().anyMatch(r -> r.measured() && r.finding() == f);
        for (ClaimResult.RowFinding r : rows) {
            if (!r.measured() || anyAgree && r.finding() != f) continue;
            measured = true;
            double pct = r.before() == 0 ? Double.NaN : (r.after() - r.before()) / Math.abs(r.before()) * 100;
            if (effect == null || Math.abs(r.effect()) > Math.abs(effect)) {
                effect = r.effect();
                effectPct = pct;
            }
            lo = lo == null ? r.low() : Math.min(lo, r.low());
            hi = hi == null ? r.high() : Math.max(hi, r.high());
            loPct = loPct == null ? r.lowPercent() : Math.min(loPct, r.lowPercent());
            hiPct = hiPct == null ? r.highPercent() : Math.max(hiPct, r.highPercent());
        }
        return new ClaimResult(c.id(), c.family(), c.seed(), c.words(), c.quantity(), c.unit(), c.direction(), c.scale(), c.size(),
                c.claimedText(), c.conditions(), f, effect, lo, hi, effectPct, loPct, hiPct, measured, smallest, runsNeeded, reason,
                rows, notCounted);
    }
}
