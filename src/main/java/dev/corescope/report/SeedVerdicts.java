package dev.corescope.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The rules that turn a results file and the seeds' {@link Claim}s into one {@link Finding} per
 * claim and one summary per seed. Nothing here names a seed, a variant or a family's threshold:
 * the families declare their claims ({@code BenchFamily.claims()}), this class only tests them.
 *
 * <p><b>Per pair of rows</b> (the claim's baseline and approach with the same params): the change
 * and its 99.9% interval as {@code compare} computes it ({@link Comparison#row}: runs as the
 * unit, the run-to-run noise pooled over rows of the same shape, i.e. benchmark, implementation,
 * metric and workload), in the claim's unit: an absolute claim in the rows' own unit (after minus
 * before, the interval scaled by the baseline), a relative one in percent. Oriented so that the
 * claimed direction is positive, with claimed size {@code C}, the interval {@code [L, H]} gives:
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
 * when {@code H < 0}, inconclusive otherwise. A pair whose run-to-run noise nothing measured
 * (one run per side) gets the wide interval of the between-run allowance ({@link RunNoise#allowance});
 * where that decides nothing it is reported as "not measured (one run per side)", not as an
 * interval.
 *
 * <p><b>Per claim</b>: a finding holds only where every counted pair agrees. All pairs with one
 * finding: that finding. All in the claimed direction but of different sizes: smaller (or larger)
 * than claimed when no pair is on the other side of the band, else inconclusive. Anything else
 * (one pair supports, another contradicts or decides nothing): inconclusive, saying how the pairs
 * split. No pair counts: not testable here, with the claim's reason or the reasons the rows do
 * not count. Where C batches of both variants ran interleaved in one process the interval has no
 * run-to-run part and code layout (one build) is not in it: the reason says so, and where the
 * file holds the same pair built at two alignments both must agree.
 *
 * <p><b>Per seed</b>, from its claims' findings ({@link #summary}): {@code supported} (every
 * claim supports), {@code partly supported} (some support or support the direction, none
 * contradicts), {@code contradicted} (every claim contradicts), {@code partly contradicted} (some
 * contradict, none supports), {@code mixed} (some support, some contradict), {@code inconclusive}
 * (none decided), {@code not testable here} (none testable); followed by the counts, e.g.
 * {@code partly supported: 1 of 3 claims supported, 2 not testable here}.
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
     * The verdicts a file records: its saved {@code claims}, as the run that wrote it found them;
     * {@code claims} are tested only for a file that saved none (written before claims were
     * saved). The text, the tour and the page all use this, so one file reads the same everywhere.
     */
    public static List<Verdict> recorded(ResultsFile file, List<Claim> claims, List<NoiseAllowance> allowances) {
        return file.claims().isEmpty() ? of(file, claims, allowances) : of(file);
    }

    /** {@link #of(ResultsFile, List)} with the families' own between-run allowances. */
    public static List<Verdict> of(ResultsFile file, List<Claim> claims, List<NoiseAllowance> allowances) {
        List<ClaimResult> results = claims.isEmpty() ? file.claims() : evaluate(file, claims, allowances);
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
        Map<String, RunNoise> pools = RunNoise.pools(List.of(file.results()), RunNoise::shapeKey);
        Map<String, RunNoise> familyPools = RunNoise.pools(List.of(file.results()), RunNoise::poolKey);
        List<ClaimResult> out = new ArrayList<>();
        for (Claim c : claims) {
            if (file.results().stream().noneMatch(r -> r.benchmark().equals(c.family()))) continue;
            out.add(test(file, c, pools, familyPools, allowances));
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

    private static ClaimResult test(ResultsFile file, Claim c, Map<String, RunNoise> pools, Map<String, RunNoise> familyPools,
                                    List<NoiseAllowance> allowances) {
        if (c.notTestable() != null) return result(c, Finding.NOT_TESTABLE, List.of(), notCounted(file, c), c.notTestable(), null, null, null);
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
            return result(c, Finding.NOT_TESTABLE, List.of(), notCounted, reason, null, null, null);
        }
        List<ClaimResult.RowFinding> rows = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        List<String> layouts = new ArrayList<>();
        double widest = 0;
        Integer runsNeeded = null;
        boolean runsUnknown = false;
        for (Pair p : counted) {
            Result b = p.before(), a = p.after();
            boolean interleaved = sel.interleaved().contains(a.implementation());
            RunNoise noise;
            if (interleaved) {
                noise = new RunNoise(0, Double.POSITIVE_INFINITY, 0, "none between the variants: their batches ran interleaved in one process");
            } else {
                noise = pools.get(RunNoise.shapeKey(b));
                if (noise == null) noise = familyPools.get(RunNoise.poolKey(b));
                if (noise == null && b.runs().size() <= 1 && a.runs().size() <= 1) noise = RunNoise.allowance(RunNoise.poolKey(b), allowances);
            }
            Comparison.Row row = Comparison.row(b, a, noise);
            if (row.deltaPercent() == null) {
                notCounted.add(new ClaimResult.NotCounted(a.implementation(), a.params(), row.reason()));
                continue;
            }
            boolean exact = row.noiseFloorPercent() != null && row.noiseFloorPercent() == 0;
            boolean measured = row.ciLowPercent() != null && (exact || noise == null || !noise.assumed());
            double scaleBy = c.scale() == Claim.Scale.ABSOLUTE ? Math.abs(b.score()) / 100 : 1;
            // an absolute claim's effect is the difference itself (exact for exact figures), not a percentage scaled back
            double effect = c.scale() == Claim.Scale.ABSOLUTE ? a.score() - b.score() : row.deltaPercent();
            Double lo = row.ciLowPercent() == null ? null : row.ciLowPercent() * scaleBy;
            Double hi = row.ciHighPercent() == null ? null : row.ciHighPercent() * scaleBy;
            Finding f = lo == null ? Finding.INCONCLUSIVE : classify(c, lo, hi);
            if (f == Finding.INCONCLUSIVE && noise != null && noise.assumed()) {
                measured = false;
            }
            String noiseWords = exact ? "exact figures" : noise == null ? row.reason() : noise.source();
            rows.add(new ClaimResult.RowFinding(a.implementation(), a.params(), b.score(), a.score(), b.unit(), effect,
                    measured ? lo : null, measured ? hi : null, measured ? row.ciLowPercent() : null, measured ? row.ciHighPercent() : null,
                    measured, f, noiseWords));
            if (row.noiseFloorPercent() != null && measured) widest = Math.max(widest, row.noiseFloorPercent() * scaleBy);
            if (!measured) runsUnknown = true;
            else if (f == Finding.INCONCLUSIVE && c.size() != null && !exact) {
                Integer k = runsNeeded(c, b, row);
                if (k != null) runsNeeded = runsNeeded == null ? k : Math.max(runsNeeded, k);
            }
            if (interleaved && !exact && !notes.contains("interleaved")) notes.add("interleaved");
            if (interleaved && !exact && sel.layoutParam() != null && a.params().containsKey(sel.layoutParam())) {
                String layout = String.valueOf(a.params().get(sel.layoutParam()));
                if (!layouts.contains(layout)) layouts.add(layout);
            }
        }
        if (rows.isEmpty()) {
            return result(c, Finding.NOT_TESTABLE, List.of(), notCounted, "no row here counts: " + distinctReasons(notCounted), null, null, null);
        }
        Finding finding = combine(c, rows);
        StringBuilder why = new StringBuilder(because(c, finding, rows));
        if (notes.contains("interleaved") && layouts.size() >= 2) {
            why.append("; C: the variants' batches interleave in one process (no run-to-run part in an interval) and code "
                    + "layout varies between builds, so each of " + layouts.size() + " layouts (" + String.join(", ", layouts)
                    + ") is a row of its own and a finding holds only where they agree");
        } else if (notes.contains("interleaved")) {
            why.append("; C: the variants' batches interleave in one process (no run-to-run part in the interval) from one "
                    + "build (code layout not varied: a C finding may be its layout's)");
        }
        if (finding == Finding.INCONCLUSIVE) {
            if (runsUnknown) {
                why.append(unmeasured(rows));
            } else if (runsNeeded != null) {
                why.append(String.format(Locale.ROOT, "; the smallest change this run could see is %s %s; about %d runs (forks) "
                        + "per side would resolve the claimed %s at the variance measured", number(widest), c.scale() == Claim.Scale.RELATIVE
                        ? "%" : c.unit(), runsNeeded, c.claimedText()));
            } else if (widest > 0) {
                why.append(String.format(Locale.ROOT, "; the smallest change this run could see is %s %s", number(widest),
                        c.scale() == Claim.Scale.RELATIVE ? "%" : c.unit()));
            }
        }
        if (!notCounted.isEmpty()) why.append("; not counted: ").append(distinctReasons(notCounted));
        return result(c, finding, rows, notCounted, why.toString(), widest > 0 ? widest : null,
                finding == Finding.INCONCLUSIVE && !runsUnknown ? runsNeeded : null, null);
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
     * inconclusive. A pair without a measured interval leaves the span open.
     */
    static Finding combine(Claim c, List<ClaimResult.RowFinding> rows) {
        java.util.EnumSet<Finding> seen = java.util.EnumSet.noneOf(Finding.class);
        for (ClaimResult.RowFinding r : rows) seen.add(r.finding());
        if (seen.size() == 1) return seen.iterator().next();
        java.util.EnumSet<Finding> direction = java.util.EnumSet.of(Finding.SUPPORTS, Finding.SUPPORTS_SMALLER, Finding.SUPPORTS_LARGER);
        if (direction.containsAll(seen)) {
            if (!seen.contains(Finding.SUPPORTS_LARGER)) return Finding.SUPPORTS_SMALLER;
            if (!seen.contains(Finding.SUPPORTS_SMALLER)) return Finding.SUPPORTS_LARGER;
            return Finding.INCONCLUSIVE;
        }
        double lo = Double.POSITIVE_INFINITY, hi = Double.NEGATIVE_INFINITY;
        for (ClaimResult.RowFinding r : rows) {
            if (r.low() == null) return Finding.INCONCLUSIVE;
            lo = Math.min(lo, r.low());
            hi = Math.max(hi, r.high());
        }
        Finding span = classify(c, lo, hi);
        return span == Finding.CONTRADICTS ? span : Finding.INCONCLUSIVE;
    }

    /** The rule behind the finding, in words, with the measured and the claimed size side by side. */
    private static String because(Claim c, Finding f, List<ClaimResult.RowFinding> rows) {
        String claimed = c.claimedText();
        String band = c.size() == null ? "" : " (within a factor of " + String.format(Locale.ROOT, "%.0f", BAND) + " of it counts as its size)";
        java.util.EnumMap<Finding, Integer> count = new java.util.EnumMap<>(Finding.class);
        for (ClaimResult.RowFinding r : rows) count.merge(r.finding(), 1, Integer::sum);
        String split = count.size() <= 1 ? "" : "; the rows split: " + count.entrySet().stream()
                .map(e -> e.getValue() + " " + e.getKey().words()).reduce((x, y) -> x + ", " + y).orElse("");
        return switch (f) {
            case SUPPORTS -> c.size() == null ? "every counted interval excludes zero in the claimed direction (" + claimed + ")"
                    : "every counted interval excludes zero in the claimed direction and reaches the claimed " + claimed + band;
            case SUPPORTS_SMALLER -> "the intervals exclude zero in the claimed direction but stay below half the claimed " + claimed + split;
            case SUPPORTS_LARGER -> "the intervals exclude zero in the claimed direction and lie beyond twice the claimed " + claimed + split;
            case CONTRADICTS -> rows.stream().allMatch(r -> oppositeDirection(c, r))
                    ? "the intervals exclude zero in the opposite direction to the claimed " + claimed
                    : "no effect as large as claimed: the intervals end below half the claimed " + claimed + " (an equivalence test)" + split;
            case INCONCLUSIVE -> count.size() > 1 ? "the counted rows do not agree" + split
                    : "the interval holds both zero and the claimed " + (c.size() == null ? "direction" : claimed);
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
     * Why some rows have no interval, and what would give them one: Java rows measured once per
     * side get one from a run without {@code --quick} (2+ forks per side); a C twin's rows run once
     * per side in one process whatever the run, so only the between-run allowance bounds them.
     */
    static String unmeasured(List<ClaimResult.RowFinding> rows) {
        List<ClaimResult.RowFinding> un = rows.stream().filter(r -> !r.measured()).toList();
        List<String> parts = new ArrayList<>();
        if (un.stream().anyMatch(r -> "java".equals(r.implementation()))) {
            parts.add("bench without --quick (2+ forks per side) measures Java's run-to-run noise");
        }
        if (un.stream().anyMatch(r -> !"java".equals(r.implementation()))) {
            parts.add("the C twin runs each variant once per run, so only the between-run allowance bounds its rows, "
                    + "too wide to decide this claim");
        }
        String which = un.size() == rows.size() ? "" : " (" + un.size() + " of " + rows.size() + " rows)";
        return "; not measured (one run per side)" + which + ": " + String.join("; ", parts);
    }

    private static ClaimResult result(Claim c, Finding f, List<ClaimResult.RowFinding> rows, List<ClaimResult.NotCounted> notCounted,
                                      String reason, Double smallest, Integer runsNeeded, Object unused) {
        Double effect = null, lo = null, hi = null, effectPct = null, loPct = null, hiPct = null;
        boolean measured = !rows.isEmpty();
        for (ClaimResult.RowFinding r : rows) {
            double pct = r.before() == 0 ? Double.NaN : (r.after() - r.before()) / Math.abs(r.before()) * 100;
            if (effect == null || Math.abs(r.effect()) > Math.abs(effect)) {
                effect = r.effect();
                effectPct = pct;
            }
            if (!r.measured()) {
                measured = false;
                continue;
            }
            lo = lo == null ? r.low() : Math.min(lo, r.low());
            hi = hi == null ? r.high() : Math.max(hi, r.high());
            loPct = loPct == null ? r.lowPercent() : Math.min(loPct, r.lowPercent());
            hiPct = hiPct == null ? r.highPercent() : Math.max(hiPct, r.highPercent());
        }
        if (!measured) lo = hi = loPct = hiPct = null;
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
    public static dev.corescope.text.TextDoc document(List<Verdict> verdicts, boolean legend) {
        dev.corescope.text.TextDoc d = new dev.corescope.text.TextDoc();
        if (verdicts.isEmpty()) return d;
        if (legend) {
            d.paragraph(INTRO);
            d.definitions(TERMS.stream().map(t -> new dev.corescope.text.TextDoc.Term(t.words(), t.meaning())).toList());
        }
        // the seeds' verdicts keyed by family and seed, the verdict's words last (they wrap)
        dev.corescope.text.TextTable seeds = new dev.corescope.text.TextTable(dev.corescope.text.TextTable.Column.key("family"),
                dev.corescope.text.TextTable.Column.key("seed"), dev.corescope.text.TextTable.Column.text("verdict")).named("seeds");
        // the claims keyed by their id (which names the family); at a narrow width text leaves out
        // what they are about, the claimed size and the measured effect (the notes say them), never the interval
        dev.corescope.text.TextTable claims = new dev.corescope.text.TextTable(dev.corescope.text.TextTable.Column.key("claim"),
                dev.corescope.text.TextTable.Column.text("what").optional(3), dev.corescope.text.TextTable.Column.text("finding"),
                dev.corescope.text.TextTable.Column.text("claimed").optional(2), dev.corescope.text.TextTable.Column.text("measured").optional(1),
                dev.corescope.text.TextTable.Column.text("99.9% interval")).named("claims");
        List<String> notes = new ArrayList<>();
        for (Verdict v : verdicts) {
            seeds.statusRow(v.word(), new dev.corescope.text.TextTable.Link(v.family(), v.family()), v.seed(), v.summary());
            for (ClaimResult r : v.claims()) {
                claims.statusRow(r.finding().words(), r.id(), r.quantity(), r.finding().words(), r.claimed(), measuredShort(r), interval(r));
                StringBuilder n = new StringBuilder(r.id()).append(": ").append(r.quantity()).append("; claimed ").append(r.claimed())
                        .append(r.conditions() == null ? "" : " (" + r.conditions() + ")").append('.');
                if (r.claim() != null && !r.claim().isEmpty()) n.append(" Claim: \u201c").append(r.claim()).append("\u201d.");
                String m = measuredText(r);
                if (!m.isEmpty()) n.append(" Measured ").append(m).append('.');
                if (r.reason() != null && !r.reason().isEmpty()) n.append(" Why: ").append(r.reason()).append('.');
                notes.add(n.toString());
            }
        }
        d.table(seeds);
        if (!claims.isEmpty()) d.blank().table(claims);
        d.notes(notes);
        return d;
    }

    /** The measured effect, short: {@code -0.21 ns per call (-3.1%)} (of several rows the largest, as the notes say); {@code -} when none. */
    static String measuredShort(ClaimResult r) {
        if (r.effect() == null) return "-";
        if (BuildMatrixFindings.isMatrix(r)) return BuildMatrixFindings.range(r);
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
    static dev.corescope.text.TextTable.Interval interval(ClaimResult r) {
        boolean abs = r.scale() == Claim.Scale.ABSOLUTE;
        Double claim = r.claimedSize() == null || r.direction() == null ? null : r.claimedSize() * r.direction().sign();
        if (r.effect() == null) return dev.corescope.text.TextTable.Interval.none(null, "-");
        if (BuildMatrixFindings.isMatrix(r)) return dev.corescope.text.TextTable.Interval.none(r.effect(), BuildMatrixFindings.range(r));
        if (r.rows().stream().allMatch(x -> "exact figures".equals(x.noise()))) return dev.corescope.text.TextTable.Interval.none(r.effect(), "exact");
        if (!r.measured() || r.low() == null || r.high() == null) return dev.corescope.text.TextTable.Interval.none(r.effect(), "not measured");
        return new dev.corescope.text.TextTable.Interval(r.effect(), r.low(), r.high(), claim, abs ? r.unit() : "%", null, "-");
    }

    /** The verdicts as text wrapped to {@code width}: {@link #document}'s text. */
    public static String text(List<Verdict> verdicts, int width) {
        if (verdicts.isEmpty()) return "";
        return document(verdicts, true).render(width) + "\n";
    }

    /** The measured effect in words, both ways: {@code -0.21 ns per call (-3.1%), 99.9% interval -0.30..-0.12 ns (-4.4..-1.8%)}. */
    public static String measuredText(ClaimResult r) {
        if (r.effect() == null) return "";
        if (BuildMatrixFindings.isMatrix(r)) return BuildMatrixFindings.measured(r);
        boolean abs = r.scale() == Claim.Scale.ABSOLUTE;
        String u = abs ? " " + r.unit() : "%";
        StringBuilder sb = new StringBuilder();
        sb.append(signed(r.effect())).append(u);
        if (abs && r.effectPercent() != null && !r.effectPercent().isNaN()) sb.append(" (").append(signed(r.effectPercent())).append("%)");
        boolean exact = r.rows().stream().allMatch(x -> "exact figures".equals(x.noise()));
        if (exact) return sb.append(", exact").toString();
        if (r.rows().size() > 1) sb.append(", the largest of ").append(r.rows().size()).append(" rows");
        if (!r.measured()) {
            List<ClaimResult.RowFinding> m = r.rows().stream().filter(x -> x.measured() && x.low() != null && x.high() != null).toList();
            if (m.isEmpty()) return sb.append("; interval not measured (one run per side)").toString();
            double lo = m.stream().mapToDouble(ClaimResult.RowFinding::low).min().orElseThrow();
            double hi = m.stream().mapToDouble(ClaimResult.RowFinding::high).max().orElseThrow();
            return sb.append("; ").append(m.size()).append(" of ").append(r.rows().size()).append(" rows measured, 99.9% interval ")
                    .append(signed(lo)).append("..").append(signed(hi)).append(u).append(", the others not measured (one run per side)")
                    .toString();
        }
        if (r.low() != null) {
            sb.append(", 99.9% interval ").append(signed(r.low())).append("..").append(signed(r.high())).append(u);
            if (abs && r.lowPercent() != null) sb.append(" (").append(signed(r.lowPercent())).append("..").append(signed(r.highPercent())).append("%)");
        }
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
