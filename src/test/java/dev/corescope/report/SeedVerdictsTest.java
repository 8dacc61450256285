package dev.corescope.report;

import dev.corescope.testing.SavedRuns;
import dev.corescope.bench.Families;
import org.apache.commons.math3.distribution.TDistribution;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The finding rules, property style: results files built here with a known effect and a known
 * run-to-run spread, tested against claims built here, and A/A pairs of real runs.
 */
class SeedVerdictsTest {

    private static final String FAMILY = "fam";

    /**
     * A row of {@code forks} runs around {@code mean}, each run's mean off by a relative
     * {@code spread} drawn from {@code random}, each run's iterations with a 0.5% spread.
     */
    static Result row(String variant, String impl, Map<String, Object> params, double mean, int forks, double spread, Random random) {
        List<RunFigures> runs = new ArrayList<>();
        double sum = 0;
        for (int i = 0; i < forks; i++) {
            double m = mean * (1 + spread * random.nextGaussian());
            runs.add(new RunFigures(m, 10, m * 0.005));
            sum += m;
        }
        return withError(Result.builder().benchmark(FAMILY).variant(variant).implementation(impl).metric("op").unit("ns/op")
                .score(sum / forks).samples(10L * forks).cpus("0").params(params).runs(forks > 1 ? runs : null).build(), runs);
    }

    /** The row's error as JMH gives it: the 99.9% half-width of the iterations' mean. */
    static Result withError(Result r, List<RunFigures> runs) {
        double within = BetweenRunNoise.withinVariance(runs);
        double t = new TDistribution(null, r.samples() - 1).inverseCumulativeProbability(1 - Comparison.ALPHA / 2);
        return r.toBuilder().error(Math.sqrt(within) * t).build();
    }

    static Claim claim(Claim.Direction direction, Double size, Claim.Scale scale, String... implementations) {
        return new Claim(FAMILY + ".claim", FAMILY, "a seed", "the patch makes it faster", "time per call",
                scale == Claim.Scale.ABSOLUTE ? "ns per call" : "%", direction, size, scale, "the seed's machine",
                Claim.Rows.of(FAMILY, "op", "old", "new", implementations.length == 0 ? new String[]{"java"} : implementations), null);
    }

    static ResultsFile file(List<Result> rows) {
        return ResultsFile.builder().results(rows).build();
    }

    static ClaimResult test(ResultsFile f, Claim c) {
        List<ClaimResult> r = SeedVerdicts.evaluate(f, List.of(c));
        assertEquals(1, r.size());
        return r.getFirst();
    }

    /** {@code configs} configurations, each old at 10 ns and new at {@code 10 * (1 + change)}, 3 forks each. */
    static ResultsFile changed(int configs, double change, double spread, long seed) {
        Random random = new Random(seed);
        List<Result> rows = new ArrayList<>();
        for (int i = 0; i < configs; i++) {
            rows.add(row("old", "java", Map.of("n", i), 10, 3, spread, random));
            rows.add(row("new", "java", Map.of("n", i), 10 * (1 + change), 3, spread, random));
        }
        return file(rows);
    }

    @Test
    void aSlowerVariantContradictsAFasterClaimForManySizesOfSlowdown() {
        for (double slower : new double[]{0.05, 0.10, 0.30, 1.0, 3.0}) {
            for (long seed = 1; seed <= 5; seed++) {
                ResultsFile f = changed(4, slower, 0.002, seed);
                for (Claim c : List.of(claim(Claim.Direction.LESS, 20.0, Claim.Scale.RELATIVE),
                        claim(Claim.Direction.LESS, 1.2, Claim.Scale.ABSOLUTE),
                        claim(Claim.Direction.LESS, null, Claim.Scale.ABSOLUTE))) {
                    ClaimResult r = test(f, c);
                    assertEquals(Finding.CONTRADICTS, r.finding(), slower + " slower, claim " + c.claimedText() + ": " + r.reason());
                    {
                        assertTrue(r.reason().contains("opposite direction"), slower + ": " + r.reason());
                        assertTrue(r.effect() > 0 && r.low() > 0, "measured in the claim's unit, slower is positive: " + r);
                    }
                }
            }
        }
    }

    @Test
    void aMixedFileNeverSupports() {
        for (long seed = 1; seed <= 20; seed++) {
            Random random = new Random(seed);
            List<Result> rows = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                double change = i % 2 == 0 ? -0.30 : 0.30;
                rows.add(row("old", "java", Map.of("n", i), 10, 3, 0.002, random));
                rows.add(row("new", "java", Map.of("n", i), 10 * (1 + change), 3, 0.002, random));
            }
            for (Claim c : List.of(claim(Claim.Direction.LESS, 30.0, Claim.Scale.RELATIVE), claim(Claim.Direction.LESS, null, Claim.Scale.RELATIVE),
                    claim(Claim.Direction.MORE, 3.0, Claim.Scale.ABSOLUTE))) {
                ClaimResult r = test(file(rows), c);
                assertNotEquals(Finding.SUPPORTS, r.finding(), r.reason());
                assertNotEquals(Finding.SUPPORTS_SMALLER, r.finding(), r.reason());
                assertNotEquals(Finding.SUPPORTS_LARGER, r.finding(), r.reason());
                assertEquals(Finding.INCONCLUSIVE, r.finding(), r.reason());
                assertTrue(r.reason().contains("the rows split: 4 supports") && r.reason().contains("4 contradicts"), r.reason());
            }
        }
    }

    @Test
    void aLargeEffectAgainstASmallClaimIsLargerThanClaimedAndASmallOneSmaller() {
        ResultsFile f = changed(3, -0.50, 0.002, 7);
        ClaimResult r = test(f, claim(Claim.Direction.LESS, 0.6, Claim.Scale.RELATIVE));
        assertEquals(Finding.SUPPORTS_LARGER, r.finding(), r.reason());
        assertTrue(r.effectPercent() < -45 && r.claimedSize() == 0.6, r.toString());
        ClaimResult abs = test(f, claim(Claim.Direction.LESS, 1.2, Claim.Scale.ABSOLUTE));
        assertEquals(Finding.SUPPORTS_LARGER, abs.finding(), abs.reason());
        assertTrue(abs.effect() < -4.5 && abs.effect() > -5.5, "-50% of 10 ns is about -5 ns per call: " + abs.effect());
        assertTrue(VerdictsText.measuredText(abs).matches("-[0-9.]+ ns per call \\(-[0-9.]+%\\), the largest of 3 measured rows, 99\\.9% interval "
                + "-[0-9.]+\\.\\.-[0-9.]+ ns per call \\(-[0-9.]+\\.\\.-[0-9.]+%\\)"), "both ways: " + VerdictsText.measuredText(abs));

        ClaimResult small = test(changed(3, -0.02, 0.002, 8), claim(Claim.Direction.LESS, 1.2, Claim.Scale.ABSOLUTE));
        assertEquals(Finding.SUPPORTS_SMALLER, small.finding(), small.reason());
        ClaimResult within = test(changed(3, -0.10, 0.002, 9), claim(Claim.Direction.LESS, 1.2, Claim.Scale.ABSOLUTE));
        assertEquals(Finding.SUPPORTS, within.finding(), "1 ns against a claimed 1.2 ns: " + within.reason());
    }

    @Test
    void anIntervalHoldingZeroAndTheClaimIsInconclusiveWithTheRunsNeeded() {
        ResultsFile f = changed(1, -0.05, 0.05, 3);
        ClaimResult r = test(f, claim(Claim.Direction.LESS, 5.0, Claim.Scale.RELATIVE));
        assertEquals(Finding.INCONCLUSIVE, r.finding(), r.reason());
        assertTrue(r.lowPercent() < -2.5 && r.highPercent() > 0, r.toString());
        assertNotNull(r.runsNeeded(), r.reason());
        assertTrue(r.runsNeeded() > 3, "more than the 3 forks behind it: " + r.runsNeeded());
        assertTrue(r.smallestEffect() > 2.5, "the run could not see half the claim: " + r.smallestEffect());
        assertTrue(r.reason().contains("about " + r.runsNeeded() + " forks per side would resolve the claimed -5%"), r.reason());

        // the runs-needed figure does resolve it: the same spread with that many forks decides
        ResultsFile more = ResultsFile.builder().results(List.of(row("old", "java", Map.of(), 10, r.runsNeeded() * 2, 0.05, new Random(4)),
                row("new", "java", Map.of(), 9.5, r.runsNeeded() * 2, 0.05, new Random(5)))).build();
        assertNotEquals(Finding.INCONCLUSIVE, test(more, claim(Claim.Direction.LESS, 5.0, Claim.Scale.RELATIVE)).finding());
    }

    @Test
    void anEffectWellShortOfTheClaimContradictsItByEquivalence() {
        ResultsFile f = changed(2, 0.0, 0.002, 11);
        ClaimResult r = test(f, claim(Claim.Direction.LESS, 30.0, Claim.Scale.RELATIVE));
        assertEquals(Finding.CONTRADICTS, r.finding(), r.reason());
        assertTrue(r.reason().contains("no effect as large as claimed"), r.reason());
    }

    @Test
    void oneRunPerSideIsNotMeasuredInsteadOfAUselessInterval() {
        Random random = new Random(1);
        ResultsFile f = file(List.of(row("old", "java", Map.of(), 10, 1, 0, random), row("new", "java", Map.of(), 9, 1, 0, random)));
        ClaimResult r = test(f, claim(Claim.Direction.LESS, 1.0, Claim.Scale.ABSOLUTE));
        assertEquals(Finding.INCONCLUSIVE, r.finding(), r.reason());
        assertEquals(false, r.measured());
        assertNull(r.low(), "no -99..+6962% interval");
        assertNull(r.effect(), "no headline from an unmeasured row");
        assertTrue(VerdictsText.measuredText(r).startsWith("none measured"), VerdictsText.measuredText(r));
        assertTrue(r.reason().contains("not measured (one run per side"), r.reason());
        // ... but a change far beyond the between-run allowance is found even so
        ResultsFile huge = file(List.of(row("old", "java", Map.of(), 1000, 1, 0, random), row("new", "java", Map.of(), 5, 1, 0, random)));
        assertEquals(Finding.SUPPORTS_LARGER, test(huge, claim(Claim.Direction.LESS, 1.0, Claim.Scale.ABSOLUTE)).finding());
    }

    @Test
    void aCTwinRunOncePerSideNeitherDecidesNorHeadlinesAndTheMeasuredRowsKeepTheirInterval() {
        Random random = new Random(3);
        ResultsFile f = file(List.of(row("old", "java", Map.of(), 10, 3, 0.05, random), row("new", "java", Map.of(), 9.8, 3, 0.05, random),
                row("old", "native", Map.of(), 10, 1, 0, random), row("new", "native", Map.of(), 9.9, 1, 0, random)));
        ClaimResult r = test(f, claim(Claim.Direction.LESS, 1.0, Claim.Scale.ABSOLUTE, "java", "native"));
        assertEquals(Finding.INCONCLUSIVE, r.finding(), r.reason());
        assertTrue(r.measured(), "the Java row was measured");
        assertTrue(r.reason().contains("not measured (one run per side, 1 of 2 rows, C;"), r.reason());
        ClaimResult.RowFinding java = r.rows().stream().filter(x -> x.implementation().equals("java")).findFirst().orElseThrow();
        assertTrue(java.measured(), java.toString());
        assertEquals(java.effect(), r.effect(), 1e-12, "the headline is the measured row's");
        assertTrue(VerdictsText.measuredText(r).contains("1 of 2 rows not measured"), VerdictsText.measuredText(r));
    }

    /** Seed 002's mechanism in C: a 6x effect, three tight separately started runs per side, beside one-fork Java rows. */
    @Test
    void aSixFoldEffectWithThreeTightRunsPerSideInCSupports() {
        Random random = new Random(6);
        List<Result> rows = new ArrayList<>(List.of(row("old", "native", Map.of("w", "m"), 240, 3, 0.005, random),
                row("new", "native", Map.of("w", "m"), 40, 3, 0.005, random),
                row("old", "java", Map.of("w", "m"), 230, 1, 0, random), row("new", "java", Map.of("w", "m"), 45, 1, 0, random)));
        ClaimResult direction = test(file(rows), claim(Claim.Direction.LESS, null, Claim.Scale.ABSOLUTE, "java", "native"));
        assertEquals(Finding.SUPPORTS, direction.finding(), direction.reason());
        ClaimResult sized = test(file(rows), claim(Claim.Direction.LESS, 200.0, Claim.Scale.ABSOLUTE, "native"));
        assertEquals(Finding.SUPPORTS, sized.finding(), sized.reason());
        assertEquals(-200, sized.effect(), 5);
    }

    /** Seed 002 in the tour: the C runs tight, the Java forks spread so wide their interval holds zero and the claim. */
    @Test
    void aTightCRowDecidesWhereAWideJavaRowCannotTellAndIsNotOutvoted() {
        Random random = new Random(2);
        List<Result> rows = List.of(row("old", "native", Map.of(), 1.6, 3, 0.01, random), row("new", "native", Map.of(), 0.9, 3, 0.01, random),
                row("old", "java", Map.of(), 4.7, 3, 0.40, random), row("new", "java", Map.of(), 2.4, 3, 0.40, random));
        ClaimResult r = test(file(rows), claim(Claim.Direction.LESS, null, Claim.Scale.ABSOLUTE, "java", "native"));
        ClaimResult.RowFinding java = r.rows().stream().filter(x -> x.implementation().equals("java")).findFirst().orElseThrow();
        assertEquals(Finding.INCONCLUSIVE, java.finding(), "the Java forks cannot tell: " + java);
        assertEquals(Finding.SUPPORTS, r.finding(), r.reason());
        assertTrue(r.reason().contains("every interval that decides excludes zero") && r.reason().contains("1 row (Java) could not tell"), r.reason());
        assertEquals(-0.7, r.effect(), 0.05, "the headline and its interval are the deciding C row's");
        assertTrue(r.high() < 0, r.toString());

        // but a Java row that decides the other way is not set aside: the rows split
        List<Result> against = List.of(rows.get(0), rows.get(1), row("old", "java", Map.of(), 2.4, 3, 0.01, random),
                row("new", "java", Map.of(), 4.7, 3, 0.01, random));
        ClaimResult split = test(file(against), claim(Claim.Direction.LESS, null, Claim.Scale.ABSOLUTE, "java", "native"));
        assertEquals(Finding.INCONCLUSIVE, split.finding(), split.reason());
        assertTrue(split.reason().contains("the rows split: 1 supports, 1 contradicts"), split.reason());
    }

    /** Seed 002 under load: the C twin dropped two of the packed side's three runs; the pooled interval spans a factor of millions. */
    @Test
    void aRowWhoseRunsCannotBoundItIsListedAsNotBoundedNotPrintedAsAMillionfoldInterval() {
        Random random = new Random(9);
        List<Result> rows = List.of(row("old", "native", Map.of(), 1.5, 1, 0, random), row("new", "native", Map.of(), 0.45, 3, 0.6, random),
                row("old", "java", Map.of(), 2.8, 3, 0.03, random), row("new", "java", Map.of(), 1.8, 3, 0.03, random));
        ClaimResult r = test(file(rows), claim(Claim.Direction.LESS, null, Claim.Scale.ABSOLUTE, "java", "native"));
        ClaimResult.RowFinding c = r.rows().stream().filter(x -> x.implementation().equals("native")).findFirst().orElseThrow();
        assertFalse(c.measured(), "a 1-against-3 C row with runs spread 60%: " + c);
        assertEquals(Finding.SUPPORTS, r.finding(), "the Java rows decide: " + r.reason());
        assertTrue(r.reason().contains("not bounded (1 of 2 rows, C;"), r.reason());
        assertTrue(r.high() < 0 && r.low() > -2, "the claim's interval is the Java row's: " + r);
    }

    /** Seed 004: an effect near the lower edge of the band supports only with the whole interval inside it. */
    @Test
    void anIntervalAcrossAnEdgeOfTheBandIsInconclusiveAndOneInsideItSupports() {
        Claim c = claim(Claim.Direction.MORE, 8.0, Claim.Scale.ABSOLUTE, "native");
        // 3.5 ns more on 7 ns with runs spread 6%: the interval holds both 4 ns (half the claim) and less
        Random random = new Random(4);
        ClaimResult across = test(file(List.of(row("old", "native", Map.of(), 7, 3, 0.06, random), row("new", "native", Map.of(), 10.5, 3, 0.06, random))), c);
        assertTrue(across.low() > 0 && across.low() < 4 && across.high() > 4, "the interval crosses C/2: " + across);
        assertEquals(Finding.INCONCLUSIVE, across.finding(), across.reason());
        assertTrue(across.reason().contains("crosses an edge of the claimed size's band") && across.reason().contains("one smaller"), across.reason());
        // the same effect, runs spread 0.5%: below the band, smaller than claimed
        ClaimResult below = test(file(List.of(row("old", "native", Map.of(), 7, 8, 0.005, random), row("new", "native", Map.of(), 10.5, 8, 0.005, random))), c);
        assertEquals(Finding.SUPPORTS_SMALLER, below.finding(), below.reason());
        // 8 ns more, tight: inside the band
        ClaimResult inside = test(file(List.of(row("old", "native", Map.of(), 7, 3, 0.005, random), row("new", "native", Map.of(), 15, 3, 0.005, random))), c);
        assertEquals(Finding.SUPPORTS, inside.finding(), inside.reason());
        assertTrue(inside.low() >= 4 && inside.high() <= 16, inside.toString());
    }

    /**
     * Seed 004 run alone: eight interleaved C runs a side, 2.5 ns apart, beside an empty loop of the
     * same shape whose runs spread 25% (timed at 0.4 ns). Pooled with it the interval held zero and
     * the claim; judged on its own runs the row decides. With three runs a side the pool still speaks.
     */
    @Test
    void aRowOfEightRunsASideIsJudgedOnItsOwnRunsNotOnAnErraticRowOfItsShape() {
        Claim c = claim(Claim.Direction.MORE, 8.3, Claim.Scale.ABSOLUTE, "native");
        Random random = new Random(5);
        List<Result> rows = List.of(row("old", "native", Map.of(), 6.5, 8, 0.04, random), row("new", "native", Map.of(), 9.0, 8, 0.05, random),
                row("empty_loop", "native", Map.of(), 0.43, 8, 0.25, random));
        ClaimResult r = test(file(rows), c);
        assertEquals(Finding.SUPPORTS_SMALLER, r.finding(), r.reason());
        assertTrue(r.low() > 1 && r.high() < 4.15, "the row's own interval, below half the claim: " + r.low() + ".." + r.high());
        assertEquals("this row's own runs", r.rows().getFirst().noise());

        List<Result> three = List.of(row("old", "native", Map.of(), 6.5, 3, 0.04, random), row("new", "native", Map.of(), 9.0, 3, 0.05, random),
                row("empty_loop", "native", Map.of(), 0.43, 8, 0.25, random));
        assertTrue(test(file(three), c).rows().getFirst().noise().startsWith("pooled over"), "three runs a side borrow the pool");
    }

    /** Seed 000 in quick mode: every measured C row 22% slower, the one-fork Java rows far faster. */
    @Test
    void aTwentyTwoPercentOppositeEffectInMeasuredCRowsContradictsWhateverOneForkJavaRowsSay() {
        for (double java : new double[]{0.12, 0.01, 5}) {
            Random random = new Random(22);
            List<Result> rows = new ArrayList<>();
            for (String layout : List.of("align64", "align32")) {
                rows.add(row("old", "native", Map.of("layout", layout), 10, 3, 0.01, random));
                rows.add(row("new", "native", Map.of("layout", layout), 12.2, 3, 0.01, random));
            }
            rows.add(row("old", "java", Map.of(), 1000, 1, 0, random));
            rows.add(row("new", "java", Map.of(), 1000 * java, 1, 0, random));
            Claim c = new Claim("x", FAMILY, "s", "w", "q", "ns per call", Claim.Direction.LESS, 1.2, Claim.Scale.ABSOLUTE, null,
                    Claim.Rows.of(FAMILY, "op", "old", "new", "java", "native"), null);
            ClaimResult r = test(file(rows), c);
            assertEquals(Finding.CONTRADICTS, r.finding(), java + ": " + r.reason());
            assertTrue(r.effect() > 2 && r.effect() < 2.5, "the headline is a measured C row's, not the Java row's: " + r.effect());
        }
    }

    @Test
    void anEditedFileWithSavedClaimsShowsTheRecomputedWordAndTheSavedOne() throws Exception {
        Random random = new Random(5);
        ResultsFile rows = file(List.of(row("old", "java", Map.of(), 10, 3, 0.002, random), row("new", "java", Map.of(), 10, 3, 0.002, random)));
        Claim c = claim(Claim.Direction.LESS, 50.0, Claim.Scale.RELATIVE);
        ClaimResult today = test(rows, c);
        assertEquals(Finding.CONTRADICTS, today.finding(), today.reason());
        ClaimResult saved = new ClaimResult(today.id(), today.family(), today.seed(), today.claim(), today.quantity(), today.unit(),
                today.direction(), today.scale(), today.claimedSize(), today.claimed(), today.conditions(), Finding.SUPPORTS, -50.0,
                -55.0, -45.0, -50.0, -55.0, -45.0, true, null, null, "the reason this file saved", today.rows(), today.notCounted());
        ResultsFile edited = rows.toBuilder().claims(List.of(saved)).build();
        List<SeedVerdicts.Verdict> v = SeedVerdicts.recorded(edited, List.of(c), List.of());
        ClaimResult shown = v.getFirst().claims().getFirst();
        assertEquals(Finding.CONTRADICTS, shown.finding(), "judged from the rows, not the saved word");
        assertTrue(shown.reason().startsWith("saved: supports; from the rows with today's rules: contradicts, because "), shown.reason());
        String text = VerdictsText.text(v, Integer.MAX_VALUE);
        assertTrue(text.contains("fam.claim: contradicts (saved: supports, today's rules on the file's rows); measured "), text);
        assertTrue(VerdictsText.text(v, Integer.MAX_VALUE, true).contains("saved: supports; from the rows with today's rules: contradicts, because "), "--explain says both in full");
        // a saved finding that agrees is not repeated
        ResultsFile same = rows.toBuilder().claims(List.of(today)).build();
        assertFalse(SeedVerdicts.recorded(same, List.of(c), List.of()).getFirst().claims().getFirst().reason().startsWith("saved"));
        // the page judges the same way
        ResultsFile real = dev.corescope.testing.SavedRuns.read("timerbase-quick.json");
        List<ClaimResult> flipped = new ArrayList<>();
        for (ClaimResult x : real.claims()) {
            flipped.add(new ClaimResult(x.id(), x.family(), x.seed(), x.claim(), x.quantity(), x.unit(), x.direction(), x.scale(),
                    x.claimedSize(), x.claimed(), x.conditions(), x.finding() == Finding.NOT_TESTABLE ? Finding.NOT_TESTABLE
                    : x.finding() == Finding.SUPPORTS ? Finding.CONTRADICTS : Finding.SUPPORTS, x.effect(), x.low(), x.high(),
                    x.effectPercent(), x.lowPercent(), x.highPercent(), x.measured(), x.smallestEffect(), x.runsNeeded(),
                    "the reason this file saved", x.rows(), x.notCounted()));
        }
        String page = dev.corescope.testing.SavedRuns.page("t.json", real.toBuilder().claims(flipped).build());
        assertFalse(page.contains("the reason this file saved"), "the page showed the saved verdicts instead of the rows'");
        assertTrue(page.contains("from the rows with today&#39;s rules") || page.contains("from the rows with today's rules"), "the page says both");
        // the page draws the decisions (a forest plot, one row per claim) and folds the reasoning under them
        assertTrue(page.contains("<figure class=\"forest\">") && page.contains("<details class=\"reasoning\">"), "forest plot and folded reasons");
        String svg = VerdictsSvg.of(SeedVerdicts.recorded(real, Families.claims(Families.all()), Families.allowances(Families.all())));
        assertEquals(real.claims().size(), svg.split("<g class=\"claim\">", -1).length - 1, "one row per claim");
        // a file that saved no claims is tested with the families' claims
        ResultsFile none = real.toBuilder().claims(List.of()).build();
        assertFalse(SeedVerdicts.recorded(none, Families.claims(Families.all()), Families.allowances(Families.all())).isEmpty());
    }

    @Test
    void rowsTheClaimSetsAsideDoNotSetTheNoiseOfTheRowsItCounts() {
        Random random = new Random(11);
        List<Result> rows = new ArrayList<>(List.of(row("old", "java", Map.of("shape", "kept"), 10, 3, 0.003, random),
                row("new", "java", Map.of("shape", "kept"), 9, 3, 0.003, random)));
        for (int i = 0; i < 6; i++) {
            rows.add(row("old", "java", Map.of("shape", "loop" + i), 10, 3, 0.4, random));
            rows.add(row("new", "java", Map.of("shape", "loop" + i), 10, 3, 0.4, random));
        }
        Claim c = new Claim("x", FAMILY, "s", "w", "q", "ns per call", Claim.Direction.LESS, 1.0, Claim.Scale.ABSOLUTE, null,
                Claim.Rows.of(FAMILY, "op", "old", "new", "java")
                        .excluding("java", Map.of("shape", List.of("loop0", "loop1", "loop2", "loop3", "loop4", "loop5")), "the loop's shape"), null);
        ClaimResult r = test(file(rows), c);
        assertEquals(Finding.SUPPORTS, r.finding(), r.reason());
        assertTrue(r.high() - r.low() < 0.5, "the interval of the counted row alone: " + r.low() + ".." + r.high());
    }

    @Test
    void anUnmeasuredRowNeitherDecidesNorHeadlines() {
        Random random = new Random(9);
        // measured Java rows: no change; an unmeasured C row 90% faster
        ResultsFile f = file(List.of(row("old", "java", Map.of(), 10, 3, 0.002, random), row("new", "java", Map.of(), 10.01, 3, 0.002, random),
                row("old", "native", Map.of(), 10, 1, 0, random), row("new", "native", Map.of(), 1, 1, 0, random)));
        ClaimResult r = test(f, claim(Claim.Direction.LESS, 5.0, Claim.Scale.ABSOLUTE, "java", "native"));
        assertEquals(Finding.CONTRADICTS, r.finding(), r.reason());
        assertTrue(Math.abs(r.effect()) < 0.1, "headline from the measured row: " + r.effect());
        // nothing measured: no headline at all, and the text says so
        ResultsFile none = file(List.of(row("old", "native", Map.of(), 10, 1, 0, random), row("new", "native", Map.of(), 8, 1, 0, random)));
        ClaimResult n = test(none, claim(Claim.Direction.LESS, 5.0, Claim.Scale.ABSOLUTE, "native"));
        assertEquals(Finding.INCONCLUSIVE, n.finding());
        assertNull(n.effect());
        assertTrue(VerdictsText.measuredText(n).startsWith("none measured"), VerdictsText.measuredText(n));
    }

    @Test
    void aCountSavedWithFloatingPointDustPrintsAsTheCount() {
        // docs/results/verdicts-quick.json saved -79.99999999999999 bytes and -6.999999999999999 instructions
        assertEquals("-80", VerdictsText.number(-79.99999999999999));
        assertEquals("-7", VerdictsText.number(-6.999999999999999));
        assertEquals("7.10", VerdictsText.number(7.1));
        assertEquals("0.734", VerdictsText.number(0.734));
    }

    @Test
    void rowsThatDoNotCountAreListedWithTheirReasonAndNoneLeftIsNotTestable() {
        ResultsFile f = changed(2, -0.5, 0.002, 1);
        Claim c = new Claim("x", FAMILY, "s", "w", "q", "ns per call", Claim.Direction.LESS, 1.0, Claim.Scale.ABSOLUTE, null,
                Claim.Rows.of(FAMILY, "op", "old", "new", "java").excluding(null, Map.of("n", List.of("0")), "a synthetic case"), null);
        ClaimResult r = test(f, c);
        assertEquals(1, r.rows().size());
        assertEquals(List.of(new ClaimResult.NotCounted("java", Map.of("n", 0), "a synthetic case")), r.notCounted());
        Claim none = new Claim("x", FAMILY, "s", "w", "q", "ns per call", Claim.Direction.LESS, 1.0, Claim.Scale.ABSOLUTE, null,
                Claim.Rows.of(FAMILY, "op", "old", "new", "java").excluding("java", Map.of(), "the stand-in differs"), null);
        ClaimResult n = test(f, none);
        assertEquals(Finding.NOT_TESTABLE, n.finding());
        assertTrue(n.reason().contains("2 rows: the stand-in differs"), n.reason());
    }

    /** An older file's C rows: both variants' batches interleaved in one process, saved as one run per side. */
    @Test
    void interleavedCRowsSavedOncePerSideGetTheAllowanceNotZeroBetweenRunNoise() {
        Random random = new Random(2);
        List<Result> rows = new ArrayList<>();
        for (String layout : List.of("align64", "align32")) {
            rows.add(row("old", "native", Map.of("layout", layout), 10, 1, 0, random));
            rows.add(row("new", "native", Map.of("layout", layout), 9.0, 1, 0, random));
        }
        Claim c = new Claim("x", FAMILY, "s", "w", "q", "ns per call", Claim.Direction.LESS, 1.0, Claim.Scale.ABSOLUTE, null,
                Claim.Rows.of(FAMILY, "op", "old", "new", "native"), null);
        ClaimResult r = test(file(rows), c);
        assertEquals(Finding.INCONCLUSIVE, r.finding(), "10% in one run per side decides nothing: " + r.reason());
        assertFalse(r.measured(), r.reason());
        assertTrue(r.rows().stream().allMatch(x -> x.bound() == ClaimResult.Bound.ALLOWANCE
                && x.noise().startsWith(BetweenRunNoise.ALLOWANCE_WORDS)), r.rows().toString());
        // a change far beyond the allowance is found even so
        rows.replaceAll(x -> x.variant().equals("new") ? x.toBuilder().score(0.05).build() : x);
        assertEquals(Finding.SUPPORTS_LARGER, test(file(rows), c).finding());
    }

    @Test
    void theSeedsSummaryFollowsFromItsClaims() {
        ClaimResult s = result(Finding.SUPPORTS), c = result(Finding.CONTRADICTS), n = result(Finding.NOT_TESTABLE),
                i = result(Finding.INCONCLUSIVE), d = result(Finding.SUPPORTS_SMALLER);
        assertEquals("partly supported: 1 of 3 claims supported, 2 not testable here", SeedVerdicts.summary(List.of(s, n, n)));
        assertEquals("supported: 2 of 2 claims supported", SeedVerdicts.summary(List.of(s, s)));
        assertEquals("mixed: 1 of 2 claims supported, 1 contradicted", SeedVerdicts.summary(List.of(s, c)));
        assertEquals("partly contradicted: 1 of 2 claims contradicted, 1 not testable here", SeedVerdicts.summary(List.of(c, n)));
        assertEquals("contradicted: 1 of 1 claim contradicted", SeedVerdicts.summary(List.of(c)));
        assertEquals("inconclusive: 1 of 2 claims inconclusive, 1 not testable here", SeedVerdicts.summary(List.of(i, n)));
        assertEquals("not testable here: 1 of 1 claim not testable here", SeedVerdicts.summary(List.of(n)));
        assertEquals("partly supported: 1 of 2 claims supported in direction only (size off), 1 inconclusive",
                SeedVerdicts.summary(List.of(d, i)));
    }

    private static ClaimResult result(Finding f) {
        return new ClaimResult("i", FAMILY, "s", "w", "q", "u", Claim.Direction.LESS, Claim.Scale.ABSOLUTE, null, "lower", null, f,
                null, null, null, null, null, null, false, null, null, "", null, null);
    }

    /**
     * A/A: rows of unchanged code on both sides. (1) The two committed tours
     * ({@code tour-before.json}, {@code tour-after.json}: one fork per row, recorded back to back),
     * every timed row of the first as the baseline of the same row of the second. (2) The full
     * run's Java rows with 3 forks ({@code results/before-round3/bench-all-full.json}: the docs' full run
     * of a quiet machine, kept here when docs/results moved on), split three ways into 2
     * forks against the third. Every claim of a direction (both directions) and of a size (0.6%,
     * 5%, 30%, both directions) is tested; at most 1% may support or contradict by direction.
     * An A/A pair whose interval excludes a claimed size is rightly "no effect as large as
     * claimed" (the change is none), so the equivalence test's contradicts is not counted here.
     */
    @Test
    void aToAPairsOfRealRunsAlmostNeverSupportOrContradict() throws Exception {
        List<List<Result[]>> sets = List.of(tours(), forkSplits());
        int claims = 0, decided = 0;
        EnumMap<Finding, Integer> seen = new EnumMap<>(Finding.class);
        List<String> wrong = new ArrayList<>();
        for (List<Result[]> pairs : sets) {
            assertTrue(pairs.size() > 60, "enough A/A pairs: " + pairs.size());
            for (Result[] p : pairs) {
                ResultsFile f = file(List.of(p[0], p[1]));
                for (Claim.Direction dir : Claim.Direction.values()) {
                    for (Double size : new Double[]{null, 0.6, 5.0, 30.0}) {
                        Claim c = new Claim("aa", p[0].benchmark(), "s", "w", "q", "%", dir, size, Claim.Scale.RELATIVE, null,
                                Claim.Rows.of(p[0].benchmark(), p[0].metric(), "A", "B", p[0].implementation()), null);
                        ClaimResult r = test(f, c);
                        claims++;
                        seen.merge(r.finding(), 1, Integer::sum);
                        boolean direction = switch (r.finding()) {
                            case SUPPORTS, SUPPORTS_SMALLER, SUPPORTS_LARGER -> true;
                            case CONTRADICTS -> !r.reason().contains("no effect as large as claimed");
                            default -> false;
                        };
                        if (direction) {
                            decided++;
                            wrong.add(p[0].key().label() + " " + c.claimedText() + ": " + r.finding() + " " + r.effectPercent());
                        }
                    }
                }
            }
        }
        System.out.println("A/A: " + claims + " claims, " + decided + " decided by direction; findings " + seen);
        assertTrue(decided <= claims / 100, decided + " of " + claims + " A/A claims decided " + seen + ": " + wrong);
        assertTrue(claims > 1000, "claims tested: " + claims);
    }

    /** Every timed row of tour-before against the same row of tour-after, renamed A and B. */
    private static List<Result[]> tours() throws Exception {
        ResultsFile a = SavedRuns.lenient(Path.of("src/test/resources/results/tour-before.json"));
        ResultsFile b = SavedRuns.lenient(Path.of("src/test/resources/results/tour-after.json"));
        Map<RowKey, Result> after = new java.util.HashMap<>();
        for (Result r : b.results()) after.put(r.key(), r);
        List<Result[]> out = new ArrayList<>();
        for (Result r : a.results()) {
            Result s = after.get(r.key());
            if (s == null || r.error() != null && r.error() == 0.0) continue;
            out.add(new Result[]{r.toBuilder().variant("A").build(), s.toBuilder().variant("B").build()});
        }
        return out;
    }

    /** The full run's 3-fork Java rows: forks {i, j} against fork k, for each k. */
    private static List<Result[]> forkSplits() throws Exception {
        ResultsFile full = SavedRuns.lenient(Path.of("src/test/resources/results/before-round3/bench-all-full.json"));
        List<Result[]> out = new ArrayList<>();
        for (Result r : full.results()) {
            if (r.runs().size() != 3) continue;
            for (int k = 0; k < 3; k++) {
                List<RunFigures> two = new ArrayList<>(r.runs());
                RunFigures one = two.remove(k);
                out.add(new Result[]{side(r, "A", two), side(r, "B", List.of(one))});
            }
        }
        return out;
    }

    private static Result side(Result r, String variant, List<RunFigures> runs) {
        double mean = runs.stream().mapToDouble(RunFigures::mean).average().orElseThrow();
        long n = runs.stream().mapToLong(RunFigures::n).sum();
        Result x = r.toBuilder().variant(variant).score(mean).samples(n).runs(runs.size() > 1 ? runs : null).build();
        return withError(x, runs);
    }

    @Test
    void aQuickTourNamesEachSeedsClaimsAndTheirFindings() throws Exception {
        ResultsFile tour = SavedRuns.lenient(Path.of("src/test/resources/results/tour-before.json"));
        List<SeedVerdicts.Verdict> v = SeedVerdicts.of(tour, Families.claims());
        assertEquals(List.of("cpumask", "timerbase", "cpupri", "locks"), v.stream().map(SeedVerdicts.Verdict::family).toList());
        String text = VerdictsText.text(v, 120);
        assertTrue(text.lines().allMatch(l -> l.length() <= 120), text);
        assertTrue(text.startsWith("Verdicts"), text);
        String wide = VerdictsText.text(v, Integer.MAX_VALUE);
        for (SeedVerdicts.Verdict x : v) {
            assertTrue(wide.lines().anyMatch(l -> l.startsWith("  " + x.family() + " ") && l.contains("  " + x.seed() + "  ") && l.endsWith(x.summary())),
                    "each seed's row: " + x.line() + "\n" + wide);
            for (ClaimResult c : x.claims()) {
                assertTrue(text.lines().anyMatch(l -> l.startsWith("  " + c.id() + " ") && l.contains(c.finding().words())), c.id() + "\n" + text);
            }
        }
        assertTrue(text.contains("| " + Finding.INCONCLUSIVE.words() + ":"), "a legend of the words at first use");
        String verdicts = text.substring(text.indexOf("\n  family "));
        assertTrue(!verdicts.contains("significant") && !verdicts.contains("no change detectable"),
                "the row-level words only in the legend line that scopes them: " + text);
    }

    /**
     * What bounded a row is a typed field the rules decide on, saved beside its words; a file written before it was
     * saved reads it from the words, and words alone decide nothing in a file that has the field.
     */
    @Test
    void whatBoundedARowIsDataSavedBesideItsWords() throws IOException {
        ClaimResult.RowFinding build = new ClaimResult.RowFinding("native", Map.of("build", "gcc"), 10, 9, "bytes", -1, null, null,
                null, null, true, Finding.SUPPORTS, "one build of a matrix", null);
        assertEquals(ClaimResult.Bound.BUILD, build.bound(), "an older file's words read as the bound they name");
        String json = Json.write(build);
        assertTrue(json.contains("\"bound\" : \"build\""), json);
        assertEquals(build, Json.MAPPER.readValue(json, ClaimResult.RowFinding.class));
        ClaimResult.RowFinding runs = new ClaimResult.RowFinding("native", Map.of(), 10, 9, "ns/op", -1, -2.0, -0.5, -20.0, -5.0, true,
                Finding.SUPPORTS, "one build of a matrix", ClaimResult.Bound.RUNS);
        ClaimResult claim = new ClaimResult("x", FAMILY, "s", "w", "q", "ns", Claim.Direction.LESS, Claim.Scale.ABSOLUTE, 1.0, "-1 ns",
                null, Finding.SUPPORTS, -1.0, -2.0, -0.5, -10.0, -20.0, -5.0, true, null, null, "r", List.of(runs), List.of());
        assertFalse(claim.overBuilds(), "the bound decides, not the words");
        assertTrue(new ClaimResult("x", FAMILY, "s", "w", "q", "ns", Claim.Direction.LESS, Claim.Scale.ABSOLUTE, 1.0, "-1 ns", null,
                Finding.SUPPORTS, -1.0, null, null, null, null, null, true, null, null, "r", List.of(build), List.of()).overBuilds());
    }
}
