package dev.corescope.report;

import dev.corescope.text.TextDoc;
import dev.corescope.text.TextTable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
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
 * claim and one summary per seed. Nothing here names a seed, a variant or a family's threshold:
 * the families declare their claims ({@code BenchFamily.claims()}), this class only tests them.
 *
 * <p><b>Per pair of rows</b> (the claim's baseline and approach with the same params): the change
 * and its 99.9% interval as {@code compare} computes it ({@link Comparison#row}: runs as the
 * unit), in the claim's unit: an absolute claim in the rows' own unit (after minus before, the
 * interval scaled by the baseline), a relative one in percent. The run-to-run noise is pooled over
 * the rows of the same shape (benchmark, implementation, metric and workload) that the claim does
 * not set aside, so a row it excludes or its family disowns never sets the noise of a row it
 * counts. Oriented so that the claimed direction is positive, with claimed size {@code C}, the
 * interval {@code [L, H]} gives:
 * <ul>
 *   <li>{@code supports}: {@code L > 0} and the interval reaches the band {@code [C/2, 2C]}:
 *       an effect within a factor of two of the claim, the closest a machine unlike the seed's
 *       can be asked to come (another CPU, another compiler, user space for kernel code);</li>
 *   <li>{@code smaller than claimed}: {@code L > 0} and {@code H < C/2};
 *       {@code larger than claimed}: {@code L > 2C};</li>
 *   <li>{@code contradicts}: {@code H < 0} (the opposite direction), or {@code L <= 0} and
 *       {@code H < C/2}: an equivalence test, no effect as large as half the claim;</li>
 *   <li>{@code inconclusive}: the interval holds zero and {@code C/2}; with it the smallest
 *       effect this run could see and about how many runs per side would resolve {@code C}.</li>
 * </ul>
 * A claim of a direction only ({@code size} null) is supported when {@code L > 0}, contradicted
 * when {@code H < 0}, inconclusive otherwise. A pair saved with one run per side and no pool gets
 * the wide interval of the between-run allowance ({@link RunNoise#allowance}) as a fallback: it
 * has an interval only where that decides, and only while no counted pair has measured runs.
 *
 * <p><b>Per claim</b>: only pairs with an interval decide, and the headline effect is theirs (the
 * one farthest from zero); the others are listed as not measured. A finding holds only where every
 * deciding pair agrees. All with one finding: that finding. All in the claimed direction but of
 * different sizes: smaller (or larger) than claimed when no pair is on the other side of the band,
 * else inconclusive. Anything else: inconclusive, saying how the pairs split, unless no interval
 * reaches half the claimed size (contradicts). No pair counts: not testable here, with the claim's
 * reason or the reasons the rows do not count. A C twin's rows saved as one run per side with both
 * variants interleaved in one process (an older file) are one run per side like any other: the
 * allowance, never zero between-run noise.
 */
public final class SeedVerdicts {

    /** The band around the claimed size within which an effect supports it: a factor of two either way. */
    static final double BAND = 2.0;

    /** The z of a two-sided 99.9% interval, for the runs-needed estimate. */
    private static final double Z = 3.2905;

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

    /**
     * The verdicts of {@code claims} on {@code file}, one per seed whose family has rows in it, in
     * the claims' order. With no claims given (a caller without the families), the file's own
     * saved {@code claims} are grouped into verdicts.
     */
    public static List<Verdict> of(ResultsFile file, List<Claim> claims) {
        return of(file, claims, List.of());
    }

    /**
     * The verdicts of a file as the report shows them: each claim judged from the file's rows with
     * today's rules (never the saved word alone: a file whose rows were edited, or saved by older
     * rules, would show a verdict its rows no longer back). Where the file saved another finding,
     * the reason says both, first. With no claims given (a caller without the families) the saved
     * ones, grouped. The text, the tour and the page all use this, so one file reads the same everywhere.
     */
    public static List<Verdict> recorded(ResultsFile file, List<Claim> claims, List<NoiseAllowance> allowances) {
        if (claims.isEmpty()) return of(file);
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

    /** {@link #of(ResultsFile, List)} with the families' own between-run allowances. */
    public static List<Verdict> of(ResultsFile file, List<Claim> claims, List<NoiseAllowance> allowances) {
        return group(claims.isEmpty() ? file.claims() : evaluate(file, claims, allowances));
    }

    /** Claims' results grouped into one verdict per seed, in their order. */
    private static List<Verdict> group(List<ClaimResult> results) {
        Map<String, List<ClaimResult>> bySeed = new LinkedHashMap<>();
        Map<String, String[]> names = new LinkedHashMap<>();
        for (ClaimResult r : results) {
            String key = r.family() + "\u0000" + r.seed();
            bySeed.computeIfAbsent(key, k -> new ArrayList<>()).add(r);
            names.putIfAbsent(key, new String[]{r.family(), r.seed()});
        }
        List<Verdict> out = new ArrayList<>();
        bySeed.forEach((k, list) -> out.add(new Verdict(names.get(k)[0], names.get(k)[1], summary(list), list)));
        return out;
    }

    /** The verdicts of the claims {@code file} holds ({@code claims[]}, saved by the run that made it). */
    public static List<Verdict> of(ResultsFile file) {
        return of(file, List.of());
    }

    /** Each claim whose family has rows in {@code file}, tested against it. */
    public static List<ClaimResult> evaluate(ResultsFile file, List<Claim> claims) {
        return evaluate(file, claims, List.of());
    }

    /**
     * Each claim whose family has rows in {@code file}, tested against it, with the families' own
     * between-run allowances for rows whose noise nothing measured.
     */
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

    // ---------------------------------------------------------------- one claim

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
                    + " against " + sel.baseline() + ")" : "no row here counts: " + distinctReasons(notCounted);
            return result(c, Finding.NOT_TESTABLE, List.of(), notCounted, reason, null, null);
        }
        // the run-to-run noise of a counted row is pooled over the rows of its shape the claim does
        // not set aside: a row it excludes or its family disowns never widens (or narrows) it
        Set<Result> countedRows = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Pair p : counted) {
            countedRows.add(p.before());
            countedRows.add(p.after());
        }
        Set<Result> setAside = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Pair p : pairs) {
            if (counted.contains(p)) continue;
            setAside.add(p.after());
            if (!countedRows.contains(p.before())) setAside.add(p.before());
        }
        List<Result> poolRows = file.results().stream().filter(r -> !setAside.contains(r)).toList();
        Map<String, RunNoise> pools = RunNoise.pools(List.of(poolRows), RunNoise::shapeKey);
        List<ClaimResult.RowFinding> rows = new ArrayList<>();
        double widest = 0;
        Integer runsNeeded = null;
        String runsUnit = null;
        for (Pair p : counted) {
            Result b = p.before(), a = p.after();
            boolean repeated = b.runs().size() >= 2 || a.runs().size() >= 2;
            RunNoise noise = pools.get(RunNoise.shapeKey(b));
            if (noise == null) noise = RunNoise.ofRow(b, a);
            // one run per side (a C twin's interleaved batches in an older file included): the between-run
            // allowance is the fallback, never zero between-run noise; measured runs are judged on themselves
            if (noise == null && !repeated) noise = RunNoise.allowance(RunNoise.poolKey(b), allowances);
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
            boolean measured = lo != null && !(assumed && f == Finding.INCONCLUSIVE);
            String noiseWords = exact ? "exact figures" : noise == null ? row.reason() : noise.source();
            rows.add(new ClaimResult.RowFinding(a.implementation(), a.params(), b.score(), a.score(), b.unit(), effect,
                    measured ? lo : null, measured ? hi : null, measured ? row.ciLowPercent() : null, measured ? row.ciHighPercent() : null,
                    measured, f, noiseWords));
            if (row.noiseFloorPercent() != null && measured && !assumed) widest = Math.max(widest, row.noiseFloorPercent() * scaleBy);
            if (measured && !assumed && f == Finding.INCONCLUSIVE && c.size() != null && !exact) {
                Integer k = runsNeeded(c, b, row);
                if (k != null && (runsNeeded == null || k > runsNeeded)) {
                    runsNeeded = k;
                    runsUnit = runUnit(a.implementation(), true);
                }
            }
        }
        if (rows.isEmpty()) {
            return result(c, Finding.NOT_TESTABLE, List.of(), notCounted, "no row here counts: " + distinctReasons(notCounted), null, null);
        }
        // the allowance is a fallback for a file with one run per side: where any counted row has
        // measured runs, rows bounded only by the allowance are listed, not counted in the finding
        if (rows.stream().anyMatch(r -> r.measured() && !allowance(r))) {
            rows.replaceAll(r -> allowance(r) && r.measured() ? new ClaimResult.RowFinding(r.implementation(), r.params(), r.before(),
                    r.after(), r.rowUnit(), r.effect(), null, null, null, null, false, r.finding(), r.noise()) : r);
        }
        // a row without an interval never decides: the finding combines the rows that have one
        List<ClaimResult.RowFinding> deciding = rows.stream().filter(ClaimResult.RowFinding::measured).toList();
        Finding finding = deciding.isEmpty() ? Finding.INCONCLUSIVE : combine(c, deciding);
        StringBuilder why = new StringBuilder(deciding.isEmpty() ? "no counted row has an interval (one run per side)" : because(c, finding, deciding));
        if (deciding.size() < rows.size()) why.append(unmeasured(rows));
        if (finding == Finding.INCONCLUSIVE && !deciding.isEmpty()) {
            String unit = c.scale() == Claim.Scale.RELATIVE ? "%" : c.unit();
            if (runsNeeded != null) {
                why.append(String.format(Locale.ROOT, "; the smallest change these runs could see is %s %s; about %d %s per side would "
                        + "resolve the claimed %s at the variance measured", number(widest), unit, runsNeeded, runsUnit, c.claimedText()));
            } else if (widest > 0) {
                why.append(String.format(Locale.ROOT, "; the smallest change these runs could see is %s %s", number(widest), unit));
            }
        }
        if (!notCounted.isEmpty()) why.append("; not counted: ").append(distinctReasons(notCounted));
        return result(c, finding, rows, notCounted, why.toString(), widest > 0 ? widest : null,
                finding == Finding.INCONCLUSIVE ? runsNeeded : null);
    }

    /** Whether a row's interval comes from the between-run allowance (one run per side), not from measured runs. */
    private static boolean allowance(ClaimResult.RowFinding r) {
        return r.noise() != null && r.noise().startsWith(RunNoise.ALLOWANCE_WORDS);
    }

    /** What one run of a row is, in words: a JMH fork (Java) or a separately started run of the C twin. */
    static String runUnit(String implementation, boolean plural) {
        return "java".equals(implementation) ? (plural ? "forks" : "fork") : plural ? "runs of the C twin" : "run of the C twin";
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

    /** The finding of one interval, oriented so the claimed direction is positive. */
    static Finding classify(Claim c, double low, double high) {
        double s = c.direction().sign();
        double lo = Math.min(low * s, high * s), hi = Math.max(low * s, high * s);
        if (c.size() == null) return lo > 0 ? Finding.SUPPORTS : hi < 0 ? Finding.CONTRADICTS : Finding.INCONCLUSIVE;
        double size = c.size();
        if (hi < 0) return Finding.CONTRADICTS;
        if (lo > 0) {
            if (hi < size / BAND) return Finding.SUPPORTS_SMALLER;
            if (lo > size * BAND) return Finding.SUPPORTS_LARGER;
            return Finding.SUPPORTS;
        }
        return hi < size / BAND ? Finding.CONTRADICTS : Finding.INCONCLUSIVE;
    }

    /**
     * A finding holds only where every counted pair agrees (class comment): one finding for all,
     * or all in the claimed direction and on one side of the band; otherwise the span of the
     * pairs' intervals decides between contradicts (no pair reaches half the claimed size) and
     * inconclusive. Only pairs with an interval are given (the others never decide).
     */
    static Finding combine(Claim c, List<ClaimResult.RowFinding> rows) {
        EnumSet<Finding> seen = EnumSet.noneOf(Finding.class);
        for (ClaimResult.RowFinding r : rows) seen.add(r.finding());
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

    /** The rule behind the finding, in words, with the measured and the claimed size side by side. */
    private static String because(Claim c, Finding f, List<ClaimResult.RowFinding> rows) {
        EnumMap<Finding, Integer> count = new EnumMap<>(Finding.class);
        for (ClaimResult.RowFinding r : rows) count.merge(r.finding(), 1, Integer::sum);
        String split = count.size() <= 1 ? "" : " (the rows split: " + count.entrySet().stream()
                .map(e -> e.getValue() + " " + e.getKey().words()).reduce((x, y) -> x + ", " + y).orElse("") + ")";
        return switch (f) {
            case SUPPORTS -> c.size() == null ? "every counted interval excludes zero in the claimed direction"
                    : "every counted interval excludes zero and reaches the claimed size (within a factor of 2)";
            case SUPPORTS_SMALLER -> "the intervals exclude zero in the claimed direction but stay below half the claimed size" + split;
            case SUPPORTS_LARGER -> "the intervals exclude zero in the claimed direction and lie beyond twice the claimed size" + split;
            case CONTRADICTS -> rows.stream().allMatch(r -> oppositeDirection(c, r))
                    ? "the intervals exclude zero in the opposite direction"
                    : "no effect as large as claimed: the intervals end below half of it (an equivalence test)" + split;
            case INCONCLUSIVE -> count.size() > 1 ? "the counted rows do not agree" + split
                    : "the interval holds both zero and the claimed " + (c.size() == null ? "direction" : "size");
            case NOT_TESTABLE -> "";
        };
    }

    private static boolean oppositeDirection(Claim c, ClaimResult.RowFinding r) {
        double s = c.direction().sign();
        Double lo = r.low(), hi = r.high();
        if (lo == null) return r.effect() * s < 0;
        return Math.max(lo * s, hi * s) < 0;
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

    private static String distinctReasons(List<ClaimResult.NotCounted> rows) {
        Map<String, Integer> n = new LinkedHashMap<>();
        for (ClaimResult.NotCounted r : rows) n.merge(r.reason(), 1, Integer::sum);
        List<String> parts = new ArrayList<>();
        n.forEach((reason, k) -> parts.add(k + (k == 1 ? " row: " : " rows: ") + reason));
        return String.join("; ", parts);
    }

    /**
     * The rows without an interval, listed beside the finding with why: a row saved with one run
     * per side (an older file, or a row no claim counted when it ran) whose change the between-run
     * allowance cannot bound; what gives it one is a run of today's bench, which runs every row a
     * claim counts as repeated runs per side (JMH forks; separately started runs of a C twin).
     */
    static String unmeasured(List<ClaimResult.RowFinding> rows) {
        List<ClaimResult.RowFinding> un = rows.stream().filter(r -> !r.measured()).toList();
        List<String> kinds = new ArrayList<>();
        if (un.stream().anyMatch(r -> "java".equals(r.implementation()))) kinds.add("Java");
        if (un.stream().anyMatch(r -> !"java".equals(r.implementation()))) kinds.add("C");
        return "; not measured (one run per side, " + un.size() + " of " + rows.size() + (rows.size() == 1 ? " row" : " rows")
                + ", " + String.join(" and ", kinds) + "; neither decides nor gives the measured figure): today's bench runs "
                + "each row a claim counts " + RUNS_PER_SIDE + " times per side (JMH forks; separately started runs of a C twin)";
    }

    /** The runs per side that {@code bench} (quick included) gives each row a claim counts. */
    public static final int RUNS_PER_SIDE = 3;

    private static ClaimResult result(Claim c, Finding f, List<ClaimResult.RowFinding> rows, List<ClaimResult.NotCounted> notCounted,
                                      String reason, Double smallest, Integer runsNeeded) {
        Double effect = null, lo = null, hi = null, effectPct = null, loPct = null, hiPct = null;
        boolean measured = false;
        // the headline is a measured row's: the one farthest from zero; the span of their intervals
        for (ClaimResult.RowFinding r : rows) {
            if (!r.measured()) continue;
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

    // ---------------------------------------------------------------- text

    /**
     * One entry of the legend: the words as the reports print them, what they mean, and the
     * findings they stand for (none for an entry about the tables).
     */
    public record Term(String words, String meaning, List<Finding> findings) {
        public Term {
            findings = List.copyOf(findings);
        }

        /** {@code words: meaning}, one legend line. */
        public String line() {
            return words + ": " + meaning;
        }
    }

    /** The legend of the finding words, as data (the page lists it; text prints {@link #LEGEND}). */
    public static final List<Term> TERMS = List.of(
            new Term(Finding.SUPPORTS.words(), "the 99.9% interval excludes zero in the claimed direction and reaches the claimed size "
                    + "(within a factor of 2)", List.of(Finding.SUPPORTS)),
            new Term(Finding.SUPPORTS_SMALLER.words() + " / larger than claimed", "the direction holds, the size is off by more than a factor of 2",
                    List.of(Finding.SUPPORTS_SMALLER, Finding.SUPPORTS_LARGER)),
            new Term(Finding.CONTRADICTS.words(), "the interval excludes zero in the opposite direction, or excludes every effect of half "
                    + "the claimed size", List.of(Finding.CONTRADICTS)),
            new Term(Finding.INCONCLUSIVE.words(), "the interval holds both zero and the claimed size (the runs needed are given)",
                    List.of(Finding.INCONCLUSIVE)),
            new Term(Finding.NOT_TESTABLE.words(), "the claim cannot be measured on this machine or in this file (the reason is given)",
                    List.of(Finding.NOT_TESTABLE)),
            new Term("tables below", "\"significant\" there is a row-level test of one row's iterations (run-to-run noise not in it); "
                    + "the findings above take runs as the unit and test the claim", List.of()));

    /** The legend of the finding words, one line each ({@link Term#line()}), for the first place they are used. */
    public static final List<String> LEGEND = TERMS.stream().map(Term::line).toList();

    /** What the verdicts are, the first words of their document. */
    static final String INTRO = "Verdicts (each seed's claims tested one by one against this run; 99.9% intervals, "
            + "runs as the unit; docs/verdicts.md):";

    /**
     * The verdicts as a document, the one source of their text ({@link #text}) and of the page's
     * verdicts (the page renders the same parts): what they are, the legend of the finding words,
     * a table of the seeds with their verdict (row status: the verdict's word), a table of the
     * claims keyed by the claim's id, each with what it is about, its finding (row status: the
     * finding's words), the claimed size, the measured effect and its 99.9% interval as an
     * interval cell (with the claimed size, for the page's bar), then per claim its conditions,
     * the measurement in full and why, as notes keyed by the same id.
     *
     * @param verdicts the verdicts, in order
     * @param legend   whether to open with what they are and the legend (a family's own verdict on the page goes without)
     * @return the document; empty when there are no verdicts
     */
    public static TextDoc document(List<Verdict> verdicts, boolean legend) {
        return document(verdicts, legend, false);
    }

    /**
     * {@link #document(List, boolean)}, each claim's note short (at most three lines at the
     * terminal: the finding, measured against claimed, the one reason that decided it) or, with
     * {@code explain}, in full: conditions, the seed's words, the measurement and every reason.
     */
    public static TextDoc document(List<Verdict> verdicts, boolean legend, boolean explain) {
        TextDoc d = new TextDoc();
        if (verdicts.isEmpty()) return d;
        if (legend) {
            d.paragraph(INTRO);
            d.definitions(TERMS.stream().map(t -> new TextDoc.Term(t.words(), t.meaning())).toList());
        }
        // the seeds' verdicts keyed by family and seed, the verdict's words last (they wrap)
        TextTable seeds = new TextTable(TextTable.Column.key("family"),
                TextTable.Column.key("seed"), TextTable.Column.text("verdict")).named("seeds");
        // the claims keyed by their id (which names the family); at a narrow width text leaves out
        // what they are about, the claimed size and the measured effect (the notes say them), never the interval
        TextTable claims = new TextTable(TextTable.Column.key("claim"),
                TextTable.Column.text("what").optional(3), TextTable.Column.text("finding"),
                TextTable.Column.text("claimed").optional(2), TextTable.Column.text("measured").optional(1),
                TextTable.Column.text("99.9% interval")).named("claims");
        List<String> notes = new ArrayList<>();
        for (Verdict v : verdicts) {
            seeds.statusRow(v.word(), new TextTable.Link(v.family(), v.family()), v.seed(), v.summary());
            for (ClaimResult r : v.claims()) {
                claims.statusRow(r.finding().words(), r.id(), r.quantity(), r.finding().words(), r.claimed(), measuredShort(r), interval(r));
                notes.add(explain ? explanation(r) : brief(r));
            }
        }
        d.table(seeds);
        if (!claims.isEmpty()) d.blank().table(claims);
        d.notes(notes);
        return d;
    }

    /** Each claim's reasoning in full, one note per claim (the page folds it under the short verdicts). */
    public static TextDoc reasoning(List<Verdict> verdicts) {
        return new TextDoc().notes(verdicts.stream().flatMap(v -> v.claims().stream()).map(SeedVerdicts::explanation).toList());
    }

    /** A claim in at most three lines: {@code id: finding; measured M against claimed C: the reason that decided it}. */
    public static String brief(ClaimResult r) {
        StringBuilder n = new StringBuilder(r.id()).append(": ").append(r.finding().words());
        String saved = "saved: ", today = "; from the rows with today's rules: ";
        if (r.reason() != null && r.reason().startsWith(saved) && r.reason().contains(today)) {
            n.append(" (").append(r.reason(), 0, r.reason().indexOf(today)).append(", today's rules on the file's rows)");
        }
        if (r.effect() != null) {
            TextTable.Interval iv = interval(r);
            n.append("; measured ").append(measuredShort(r));
            if (iv.measured()) n.append(" [").append(signed(r.low())).append(", ").append(signed(r.high())).append(']');
            n.append(" against claimed ").append(r.claimed());
        } else if (!r.rows().isEmpty()) {
            n.append("; none measured (claimed ").append(r.claimed()).append(')');
        }
        String why = r.decidingReason();
        if (!why.isEmpty()) n.append(": ").append(why);
        return n.append('.').toString();
    }

    /** A claim in full: what, claimed under which conditions, the seed's words, the measurement, every reason. */
    public static String explanation(ClaimResult r) {
        StringBuilder n = new StringBuilder(r.id()).append(": ").append(r.quantity()).append("; claimed ").append(r.claimed())
                .append(r.conditions() == null ? "" : " (" + r.conditions() + ")").append('.');
        if (r.claim() != null && !r.claim().isEmpty()) n.append(" Claim: \u201c").append(r.claim()).append("\u201d.");
        String m = measuredText(r);
        if (!m.isEmpty()) n.append(" Measured ").append(m).append('.');
        if (r.reason() != null && !r.reason().isEmpty()) n.append(" Why: ").append(r.reason()).append('.');
        return n.toString();
    }

    /** The measured effect, short: {@code -0.21 ns per call (-3.1%)} (of several measured rows the largest, as the notes say); {@code -} or {@code none measured}. */
    static String measuredShort(ClaimResult r) {
        if (BuildMatrixFindings.isMatrix(r)) return BuildMatrixFindings.range(r);
        if (r.effect() == null) return r.rows().isEmpty() ? "-" : "none measured";
        boolean abs = r.scale() == Claim.Scale.ABSOLUTE;
        StringBuilder sb = new StringBuilder(signed(r.effect())).append(abs ? " " + r.unit() : "%");
        if (abs && r.effectPercent() != null && !r.effectPercent().isNaN()) sb.append(" (").append(signed(r.effectPercent())).append("%)");
        return sb.toString();
    }

    /**
     * The claim's 99.9% interval as a cell: in the claim's unit (percent for a relative claim),
     * with the measured effect and the claimed size (signed, in the claimed direction); its
     * words where there is none: exact figures, not measured (one run per side), or nothing measured.
     */
    static TextTable.Interval interval(ClaimResult r) {
        boolean abs = r.scale() == Claim.Scale.ABSOLUTE;
        Double claim = r.claimedSize() == null || r.direction() == null ? null : r.claimedSize() * r.direction().sign();
        if (BuildMatrixFindings.isMatrix(r)) return TextTable.Interval.none(r.effect(), BuildMatrixFindings.range(r));
        if (r.effect() == null) return TextTable.Interval.none(null, r.rows().isEmpty() ? "-" : "not measured");
        if (r.rows().stream().allMatch(x -> "exact figures".equals(x.noise()))) return TextTable.Interval.none(r.effect(), "exact");
        if (!r.measured() || r.low() == null || r.high() == null) return TextTable.Interval.none(r.effect(), "not measured");
        return new TextTable.Interval(r.effect(), r.low(), r.high(), claim, abs ? r.unit() : "%", null, "-");
    }

    /** The verdicts as text wrapped to {@code width}: {@link #document}'s text. */
    public static String text(List<Verdict> verdicts, int width) {
        return text(verdicts, width, false);
    }

    /** {@link #text(List, int)}, each claim's reasoning in full with {@code explain}. */
    public static String text(List<Verdict> verdicts, int width, boolean explain) {
        if (verdicts.isEmpty()) return "";
        return document(verdicts, true, explain).render(width) + (explain ? "" : "(each claim's reasoning in full: --explain)\n") + "\n";
    }

    /**
     * The measured effect in words, both ways: {@code -0.21 ns per call (-3.1%), 99.9% interval
     * -0.30..-0.12 ns (-4.4..-1.8%)}; of several rows the measured one farthest from zero, and how
     * many rows were measured; {@code none measured} when no counted row has an interval.
     */
    public static String measuredText(ClaimResult r) {
        if (BuildMatrixFindings.isMatrix(r)) return BuildMatrixFindings.measured(r);
        if (r.rows().isEmpty()) return "";
        int measured = (int) r.rows().stream().filter(ClaimResult.RowFinding::measured).count();
        if (r.effect() == null) {
            return "none measured (" + r.rows().size() + (r.rows().size() == 1 ? " row" : " rows") + ", interval not measured: one run per side)";
        }
        boolean abs = r.scale() == Claim.Scale.ABSOLUTE;
        String u = abs ? " " + r.unit() : "%";
        StringBuilder sb = new StringBuilder();
        sb.append(signed(r.effect())).append(u);
        if (abs && r.effectPercent() != null && !r.effectPercent().isNaN()) sb.append(" (").append(signed(r.effectPercent())).append("%)");
        boolean exact = r.rows().stream().allMatch(x -> "exact figures".equals(x.noise()));
        if (exact) return sb.append(", exact").toString();
        if (measured > 1) sb.append(", the largest of ").append(measured).append(" measured rows");
        if (r.low() != null) {
            sb.append(", 99.9% interval ").append(signed(r.low())).append("..").append(signed(r.high())).append(u);
            if (abs && r.lowPercent() != null) sb.append(" (").append(signed(r.lowPercent())).append("..").append(signed(r.highPercent())).append("%)");
        }
        if (measured < r.rows().size()) sb.append("; ").append(r.rows().size() - measured).append(" of ").append(r.rows().size())
                .append(" rows not measured (one run per side)");
        return sb.toString();
    }

    private static String signed(double v) {
        String n = number(Math.abs(v));
        return (v < 0 ? "-" : v > 0 ? "+" : "") + n;
    }

    static String number(double v) {
        double a = Math.abs(v);
        // a count saved by an older corescope as a percentage scaled back (-79.99999999999999 bytes) is the count
        if (Math.abs(v - Math.rint(v)) <= 1e-9 * Math.max(1, a) && a < 1e15) return String.format(Locale.ROOT, "%.0f", Math.rint(v));
        if (a >= 100) return String.format(Locale.ROOT, "%.0f", v);
        if (a >= 10) return String.format(Locale.ROOT, "%.1f", v);
        if (a >= 1) return String.format(Locale.ROOT, "%.2f", v);
        return String.format(Locale.ROOT, "%.3f", v);
    }
}
