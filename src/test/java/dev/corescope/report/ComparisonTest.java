package dev.corescope.report;

import dev.corescope.testing.Approved;
import org.apache.commons.math3.distribution.TDistribution;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ComparisonTest {

    /** The 99.9% half-width JMH would print for standard error {@code se} over {@code n} samples. */
    private static double halfWidth(double se, int n) {
        return se * new TDistribution(null, n - 1).inverseCumulativeProbability(0.9995);
    }

    private static Result r(String variant, String impl, String unit, double score, Double error, long n, Map<String, Object> params) {
        return Result.builder().benchmark("cpumask").variant(variant).implementation(impl).metric("op").unit(unit)
                .score(score).error(error).samples(n).cpus("0").params(params).build();
    }

    /** A row of {@code k} runs whose means are {@code means}, each of {@code n} iterations with standard deviation {@code sd}. */
    private static Result runs(String variant, String unit, double sd, int n, double... means) {
        List<RunFigures> runs = new java.util.ArrayList<>();
        double sum = 0;
        for (double m : means) {
            runs.add(new RunFigures(m, n, sd));
            sum += m;
        }
        double mean = sum / means.length;
        double se = sd / Math.sqrt((double) n * means.length);
        return Result.builder().benchmark("cpumask").variant(variant).implementation("java").metric("op").unit(unit)
                .score(mean).error(halfWidth(se, n * means.length)).samples((long) n * means.length).cpus("0").params(Map.of()).runs(runs).build();
    }

    private static final BetweenRunNoise FLOOR_1 = BetweenRunNoise.floor(1.0);

    private static ResultsFile file(Environment env, Result... results) {
        return ResultsFile.builder().environment(env).results(List.of(results)).build();
    }

    @Test
    void welchsTestMatchesTheTextbookValue() {
        // t = 2 / sqrt(0.5^2 + 0.5^2) = 2.828 with 18 degrees of freedom: two-sided p = 0.0112
        Result a = r("x", "java", "ns/op", 10, halfWidth(0.5, 10), 10, Map.of());
        Result b = r("x", "java", "ns/op", 12, halfWidth(0.5, 10), 10, Map.of());
        assertEquals(0.0112, welchP(a, b), 0.0003);
        assertEquals(0.5, Comparison.standardError(a), 1e-12);
    }

    @Test
    void aClearImprovementInTimeIsBetterAndInThroughputIsWorse() {
        Result t0 = r("x", "java", "ns/op", 10, halfWidth(0.05, 10), 10, Map.of());
        Result t1 = r("x", "java", "ns/op", 8, halfWidth(0.05, 10), 10, Map.of());
        Comparison.Row time = Comparison.row(t0, t1, FLOOR_1);
        assertEquals("better", time.verdict());
        assertEquals(-20.0, time.deltaPercent(), 1e-9);
        assertTrue(time.significant());

        Result o0 = r("x", "java", "ops/us", 10, halfWidth(0.05, 10), 10, Map.of());
        Result o1 = r("x", "java", "ops/us", 8, halfWidth(0.05, 10), 10, Map.of());
        assertEquals("worse", Comparison.row(o0, o1, FLOOR_1).verdict());

        Result u0 = r("x", "java", "min/max", 10, halfWidth(0.05, 10), 10, Map.of());
        Result u1 = r("x", "java", "min/max", 8, halfWidth(0.05, 10), 10, Map.of());
        assertEquals("lower", Comparison.row(u0, u1, FLOOR_1).verdict(), "a unit that does not say which way is better");
    }

    @Test
    void overlappingNoiseIsTheSameAndRowsWithoutAnErrorAreUntested() {
        Result a = r("x", "java", "ns/op", 10, 3.0, 5, Map.of());
        Result b = r("x", "java", "ns/op", 10.5, 3.0, 5, Map.of());
        Comparison.Row same = Comparison.row(a, b, FLOOR_1);
        assertEquals("same", same.verdict());
        assertEquals(Boolean.FALSE, same.significant());

        Comparison.Row untested = Comparison.row(r("x", "java", "ns/op", 10, null, 1, Map.of()), b, null);
        assertEquals("untested", untested.verdict());
        assertNull(untested.p());
        assertNull(untested.significant());
    }

    @Test
    void differentUnitsAreNotCompared() {
        Comparison.Row row = Comparison.row(r("x", "java", "ns/op", 10, 0.1, 10, Map.of()), r("x", "java", "us/op", 0.01, 0.001, 10, Map.of()), null);
        assertEquals("units differ", row.verdict());
        assertNull(row.deltaPercent());
        assertEquals("ns/op -> us/op", row.unit());
    }

    @Test
    void rowsAreMatchedOnVariantImplementationMetricAndParamsAndTheRestIsListed() {
        ResultsFile before = file(null,
                r("first_but", "java", "ns/op", 10, 0.1, 10, Map.of("nrCpus", 64)),
                r("first_but", "java", "ns/op", 20, 0.1, 10, Map.of("nrCpus", 4096)),
                r("any_but_loop", "native", "ns/op", 30, 0.1, 10, Map.of("nrCpus", 64)));
        ResultsFile after = file(null,
                r("first_but", "java", "ns/op", 10, 0.1, 10, Map.of("nrCpus", 64)),
                r("first_but", "native", "ns/op", 20, 0.1, 10, Map.of("nrCpus", 4096)),
                r("any_but_loop", "native", "ns/op", 30, 0.1, 10, Map.of("nrCpus", 4096)));
        Comparison c = Comparison.of("a.json", List.of(before), "b.json", List.of(after), null, List.of());
        assertEquals(1, c.rows().size());
        assertEquals(Map.of("nrCpus", 64), c.rows().getFirst().params());
        assertEquals(2, c.onlyBefore().size());
        assertEquals(2, c.onlyAfter().size());
        assertEquals("add/remove: 2/2 better/worse: 0/0 same: 0 untested: 1 (not resolvable here: 1) geomean time: +0.0% (1 matched)",
                c.summaryLine(), "one run per side and no stated floor: the run-to-run error is unknown");
    }

    @Test
    void theGeometricMeanSumsUpTheMatchedRows() {
        ResultsFile before = file(null, r("a", "java", "ns/op", 10, 0.01, 10, Map.of()), r("b", "java", "ns/op", 10, 0.01, 10, Map.of()));
        ResultsFile after = file(null, r("a", "java", "ns/op", 20, 0.01, 10, Map.of()), r("b", "java", "ns/op", 5, 0.01, 10, Map.of()));
        Comparison c = Comparison.of("a", List.of(before), "b", List.of(after), 1.0, List.of());
        assertEquals(0.0, c.summary().geomeanPercent(), 1e-9, "x2 and x0.5 cancel out");
        assertEquals(1, c.summary().better());
        assertEquals(1, c.summary().worse());
    }

    @Test
    void environmentChangesAreListed() {
        Environment e1 = new Environment("CPU A", "Linux 6.1", "JDK 25", List.of(), "0-3", "0-3", "", "", false, null, null,
                "performance", null, null, true, null, null, List.of(), null, null, null, null, null, null);
        Environment e2 = new Environment("CPU A", "Linux 6.6", "JDK 25", List.of(), "0-1", "0-3", "", "", false, null, null,
                "performance", null, null, true, null, null, List.of(), null, null, null, null, null, null);
        Comparison c = Comparison.of("a", List.of(file(e1)), "b", List.of(file(e2)), null, List.of());
        assertEquals(List.of("kernel: Linux 6.1 -> Linux 6.6", "allowed: 0-3 -> 0-1"), c.environmentDiff());
    }

    @Test
    void theTextReportMatchesTheApprovedFile() {
        ResultsFile before = file(null,
                r("any_but_loop", "java", "ns/op", 8.708, halfWidth(0.02, 10), 10, Map.of("nrCpus", 64)),
                r("first_but", "java", "ns/op", 8.207, halfWidth(0.02, 10), 10, Map.of("nrCpus", 64)),
                runs("forked", "ns/op", 0.1, 10, 10.0, 10.2, 9.9),
                r("first_but", "native", "ns/op", 7.290, 0.19, 15, Map.of("nrCpus", 64)),
                Result.builder().benchmark("cpumask").variant("first_but").implementation("native").metric("codeSize").unit("bytes")
                        .score(89).error(0.0).samples(1).cpus("").params(Map.of("nrCpus", 64)).build(),
                r("fairness", "java", "min/max", 0.69, null, 5, Map.of()),
                r("gone", "java", "ns/op", 1.0, 0.1, 10, Map.of()));
        ResultsFile after = file(null,
                r("any_but_loop", "java", "ns/op", 8.650, halfWidth(0.02, 10), 10, Map.of("nrCpus", 64)),
                r("first_but", "java", "ns/op", 6.100, halfWidth(0.02, 10), 10, Map.of("nrCpus", 64)),
                runs("forked", "ns/op", 0.1, 10, 9.0, 9.1, 8.9),
                r("first_but", "native", "ns/op", 7.310, 0.21, 15, Map.of("nrCpus", 64)),
                Result.builder().benchmark("cpumask").variant("first_but").implementation("native").metric("codeSize").unit("bytes")
                        .score(55).error(0.0).samples(1).cpus("").params(Map.of("nrCpus", 64)).build(),
                r("fairness", "java", "min/max", 0.72, null, 5, Map.of()),
                r("new", "native", "ns/op", 2.0, 0.1, 10, Map.of("nrCpus", 4096)));
        Approved.verify("compare/compare.txt", ComparisonText.document(
                Comparison.of("before.json", List.of(before), "after.json", List.of(after), 0.5, List.of())).render(dev.corescope.text.Width.DEFAULT));
    }

    @Test
    void oneRunPerSideWithoutMeasuredNoiseIsNotResolvable() {
        // Tight iterations, 20% apart: the old iteration-only test called this significant.
        Comparison.Row row = Comparison.row(r("x", "java", "ns/op", 10, halfWidth(0.01, 10), 10, Map.of()),
                r("x", "java", "ns/op", 12, halfWidth(0.01, 10), 10, Map.of()), null);
        assertEquals(Comparison.NOT_RESOLVABLE, row.finding());
        assertEquals("untested", row.verdict());
        assertNull(row.significant());
        assertTrue(row.reason().contains("run-to-run error is unknown"), row.reason());
    }

    @Test
    void aStatedFloorWidensTheIntervalOfSingleRuns() {
        Result a = r("x", "java", "ns/op", 10, halfWidth(0.01, 10), 10, Map.of());
        Result b = r("x", "java", "ns/op", 10.3, halfWidth(0.01, 10), 10, Map.of());
        Comparison.Row quiet = Comparison.row(a, b, BetweenRunNoise.floor(0.1));
        Comparison.Row noisy = Comparison.row(a, b, BetweenRunNoise.floor(2.0));
        assertEquals(Comparison.SIGNIFICANT, quiet.finding(), "3% against runs that differ by 0.1%");
        assertEquals(Comparison.NO_CHANGE, noisy.finding(), "3% against runs that differ by 2%: e^(sqrt(2) 2% 3.29) - 1 = 9.8% floor");
        assertEquals(9.8, noisy.noiseFloorPercent(), 0.1);
        assertTrue(noisy.ciLowPercent() < 0 && noisy.ciHighPercent() > 3);
    }

    @Test
    void theEffectIsTheRatioWithAnIntervalInWords() {
        Result a = runs("x", "ns/op", 0.05, 10, 10.0, 10.02, 9.98, 10.01, 9.99);
        Result b = runs("x", "ns/op", 0.05, 10, 9.70, 9.72, 9.68, 9.71, 9.69);
        Comparison.Row row = Comparison.row(a, b,
                BetweenRunNoise.pools(List.of(List.of(a), List.of(b)), BetweenRunNoise::poolKey).get("cpumask/java"));
        assertEquals(Comparison.SIGNIFICANT, row.finding());
        assertEquals(-3.0, row.deltaPercent(), 1e-9);
        assertTrue(row.ciLowPercent() < -3.0 && row.ciHighPercent() > -3.0 && row.ciHighPercent() < 0, row.toString());
    }

    @Test
    void theRunToRunVarianceIsTheSpreadOfTheRunMeans() {
        // Run means 9, 10, 11: S^2 = 1, relative to 10^2, whatever the iterations' own spread.
        assertEquals(0.01, BetweenRunNoise.estimate(runs("x", "ns/op", 2.0, 4, 9, 10, 11))[0], 1e-12);
        assertEquals(0.01, BetweenRunNoise.estimate(runs("x", "ns/op", 1e-6, 4, 9, 10, 11))[0], 1e-12);
        assertEquals(2.0, BetweenRunNoise.estimate(runs("x", "ns/op", 1e-6, 4, 9, 10, 11))[1], 1e-12, "k - 1 degrees of freedom");
        assertNull(BetweenRunNoise.estimate(runs("x", "ns/op", 0.1, 4, 10)), "one run says nothing about the next");
    }

    @Test
    void severalFilesOfOneSideBecomeTheRunsOfOneRow() {
        ResultsFile a1 = file(null, r("x", "native", "ns/op", 10, 0.1, 15, Map.of()));
        ResultsFile a2 = file(null, r("x", "native", "ns/op", 11, 0.1, 15, Map.of()));
        ResultsFile b1 = file(null, r("x", "native", "ns/op", 10.5, 0.1, 15, Map.of()));
        ResultsFile b2 = file(null, r("x", "native", "ns/op", 10.4, 0.1, 15, Map.of()));
        Comparison c = Comparison.of("a", List.of(a1, a2), "b", List.of(b1, b2), null, List.of());
        Comparison.Row row = c.rows().getFirst();
        assertEquals(2, row.runsBefore());
        assertEquals(10.5, row.before(), 1e-12);
        assertEquals(Comparison.NO_CHANGE, row.finding(), "runs 10 and 11 make 10.5 vs 10.45 no change: " + row.reason());
        assertTrue(c.runNoise().containsKey("cpumask/native/op"), "pooled per row shape: " + c.runNoise().keySet());
    }

    /**
     * Synthetic two-level data with a known between-run and within-run spread, as JMH forks
     * produce: an A/A pair (same true mean) must be called significant in at most about 0.1% of
     * trials, and an A/B pair's interval must hold the true effect in about 99.9%. The old test
     * (iterations as independent samples) is run on the same data to show the problem is there.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(ints = {2, 4})
    void onSyntheticForksTheFalseAlarmRateAndTheCoverageAreAsStated(int forks) {
        java.util.Random rnd = new java.util.Random(13);
        int trials = 2000, iterations = 10;
        double mean = 100, betweenSd = 3, withinSd = 1, effect = 1.05;
        int falseAlarms = 0, oldFalseAlarms = 0, covered = 0;
        for (int t = 0; t < trials; t++) {
            Result a = synthetic(rnd, mean, betweenSd, withinSd, forks, iterations);
            Result aa = synthetic(rnd, mean, betweenSd, withinSd, forks, iterations);
            Result b = synthetic(rnd, mean * effect, betweenSd * effect, withinSd * effect, forks, iterations);
            BetweenRunNoise nAA = BetweenRunNoise.pools(List.of(List.of(a), List.of(aa)), BetweenRunNoise::poolKey).get("cpumask/java");
            if (Boolean.TRUE.equals(Comparison.row(a, aa, nAA).significant())) falseAlarms++;
            Double p = welchP(a, aa);
            if (p != null && p < Comparison.ALPHA) oldFalseAlarms++;
            Comparison.Row ab = Comparison.row(a, b,
                    BetweenRunNoise.pools(List.of(List.of(a), List.of(b)), BetweenRunNoise::poolKey).get("cpumask/java"));
            if (ab.ciLowPercent() <= 5.0 && 5.0 <= ab.ciHighPercent()) covered++;
        }
        assertTrue(falseAlarms <= trials / 200, "A/A false alarms " + falseAlarms + " of " + trials);
        assertTrue(oldFalseAlarms > trials / 5, "iterations as samples cry wolf: " + oldFalseAlarms + " of " + trials);
        assertTrue(covered >= trials * 0.99, "interval held the true +5% in " + covered + " of " + trials);
    }

    /** One row of {@code forks} runs: each run's mean drawn around {@code mean} with sd {@code between}, its iterations around that with sd {@code within}. */
    private static Result synthetic(java.util.Random rnd, double mean, double between, double within, int forks, int iterations) {
        List<RunFigures> runs = new java.util.ArrayList<>();
        double[] all = new double[forks * iterations];
        for (int f = 0; f < forks; f++) {
            double runMean = mean + between * rnd.nextGaussian();
            double[] x = new double[iterations];
            for (int i = 0; i < iterations; i++) x[i] = all[f * iterations + i] = runMean + within * rnd.nextGaussian();
            org.apache.commons.math3.stat.descriptive.DescriptiveStatistics d = new org.apache.commons.math3.stat.descriptive.DescriptiveStatistics(x);
            runs.add(new RunFigures(d.getMean(), iterations, d.getStandardDeviation()));
        }
        org.apache.commons.math3.stat.descriptive.DescriptiveStatistics d = new org.apache.commons.math3.stat.descriptive.DescriptiveStatistics(all);
        double se = d.getStandardDeviation() / Math.sqrt(all.length);
        return Result.builder().benchmark("cpumask").variant("x").implementation("java").metric("op").unit("ns/op")
                .score(d.getMean()).error(halfWidth(se, all.length)).samples(all.length).cpus("0").params(Map.of()).runs(runs).build();
    }

    @Test
    void aRowRepeatedInOneFileIsRefusedNotDropped() {
        ResultsFile twice = file(null, r("x", "java", "ns/op", 1, 0.1, 10, Map.of("nrCpus", 64)),
                r("y", "java", "ns/op", 1, 0.1, 10, Map.of()), r("x", "java", "ns/op", 2, 0.1, 10, Map.of("nrCpus", 64)));
        BadResultsFileException e = org.junit.jupiter.api.Assertions.assertThrows(BadResultsFileException.class,
                () -> Comparison.of("a.json", List.of(twice), "b.json", List.of(file(null)), null, List.of()));
        assertTrue(e.getMessage().startsWith("a.json: results[2] repeats results[0] (cpumask x java op nrCpus=64)"), e.getMessage());
    }

    /**
     * Welch's two-sided p-value from two JMH rows (iterations taken as independent samples, the old test), or null when either lacks an error or has
     * fewer than two samples.
     */
    private static Double welchP(Result x, Result y) {
        Double sx = Comparison.standardError(x);
        Double sy = Comparison.standardError(y);
        if (sx == null || sy == null) return null;
        double diff = y.score() - x.score();
        double var = sx * sx + sy * sy;
        if (var == 0) return diff == 0 ? 1.0 : 0.0;
        double t = diff / Math.sqrt(var);
        double nx = x.samples() - 1;
        double ny = y.samples() - 1;
        double df = var * var / (Math.pow(sx, 4) / nx + Math.pow(sy, 4) / ny);
        if (!(df > 0) || Double.isInfinite(df)) df = nx + ny;
        double p = 2 * new TDistribution(null, df).cumulativeProbability(-Math.abs(t));
        return Math.min(1.0, Math.max(0.0, p));
    }
}
