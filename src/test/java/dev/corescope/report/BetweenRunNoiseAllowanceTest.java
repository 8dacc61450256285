package dev.corescope.report;

import dev.corescope.testing.SavedRuns;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The between-run allowance that stands in for the run-to-run noise of single-fork files: wide
 * enough that two tours of unchanged code differ in no row, narrow enough that an effect far
 * beyond any run-to-run swing (locks' irqsave against a plain spin lock) gets a verdict.
 */
class BetweenRunNoiseAllowanceTest {

    private static final Path BEFORE = Path.of("src/test/resources/results/tour-before.json");
    private static final Path AFTER = Path.of("src/test/resources/results/tour-after.json");

    private static Result single(String family, String impl, double score) {
        return Result.builder().benchmark(family).variant("v").implementation(impl).metric("op").unit("ns/op")
                .score(score).error(score * 0.01).samples(10).cpus("0").params(Map.of()).build();
    }

    @Test
    void theAllowanceIsAtLeastWhatTwoToursOfUnchangedCodeShow() throws Exception {
        List<Result> a = SavedRuns.lenient(BEFORE).results(), b = SavedRuns.lenient(AFTER).results();
        Map<RowKey, Result> after = new HashMap<>();
        for (Result r : b) after.put(r.key(), r);
        Map<String, double[]> sums = new HashMap<>();
        for (Result x : a) {
            Result y = after.get(x.key());
            if (y == null || !(x.score() > 0) || !(y.score() > 0) || x.error() != null && x.error() == 0 && y.error() != null && y.error() == 0) {
                continue;
            }
            double lr = Math.log(y.score() / x.score());
            for (String k : List.of(BetweenRunNoise.poolKey(x), "all")) {
                double[] s = sums.computeIfAbsent(k, q -> new double[2]);
                s[0] += lr * lr;
                s[1]++;
            }
        }
        Map<String, double[]> own = new java.util.HashMap<>();
        for (NoiseAllowance n : dev.corescope.bench.Families.allowances()) own.put(n.poolKey(), new double[]{n.logSd(), n.df()});
        own.forEach((k, v) -> {
            double[] s = sums.get(k);
            assertNotNull(s, k + " has no rows in the tours it is said to come from");
            double sigma = Math.sqrt(s[0] / (2 * s[1]));
            assertTrue(v[0] >= sigma && v[0] < sigma + 0.01, k + ": allowance " + v[0] + ", the tours show " + sigma);
            assertEquals(s[1], v[1], k + ": one degree of freedom per row");
            assertTrue(s[1] >= 8, k + ": a family figure needs 8 rows");
        });
        double[] all = sums.get("all");
        double sigma = Math.sqrt(all[0] / (2 * all[1]));
        assertTrue(BetweenRunNoise.ALLOWANCE_ANY[0] >= sigma && BetweenRunNoise.ALLOWANCE_ANY[0] < sigma + 0.01, "all rows: " + sigma);
        assertEquals(all[1], BetweenRunNoise.ALLOWANCE_ANY[1]);
        sums.forEach((k, s) -> {
            if (!k.equals("all") && s[1] >= 8) assertTrue(own.containsKey(k), k + " has 8+ rows but no figure of its own");
        });
    }

    @Test
    void twoToursOfUnchangedCodeDifferInNoRow() throws Exception {
        Comparison c = Comparison.of(BEFORE.toString(), List.of(SavedRuns.lenient(BEFORE)), AFTER.toString(), List.of(SavedRuns.lenient(AFTER)), null,
                dev.corescope.bench.Families.allowances());
        long timed = c.rows().stream().filter(r -> r.noiseFloorPercent() == null || r.noiseFloorPercent() != 0).count();
        List<Comparison.Row> flagged = c.rows().stream()
                .filter(r -> Comparison.SIGNIFICANT.equals(r.finding()) && (r.noiseFloorPercent() == null || r.noiseFloorPercent() != 0)).toList();
        assertEquals(List.of(), flagged, "A/A: nothing changed");
        long withInterval = c.rows().stream().filter(r -> Comparison.NOT_RESOLVABLE.equals(r.finding()) && r.ciLowPercent() != null).count();
        assertTrue(withInterval > 100 && timed > 100, "the single-fork rows get the allowance's wide interval: " + withInterval + " of " + timed);
        assertTrue(c.runNoise().values().stream().allMatch(BetweenRunNoise::assumed), c.runNoise().toString());
    }

    @Test
    void anEffectFarBeyondTheAllowanceGetsAVerdictWithAWideInterval() throws Exception {
        Comparison.Row huge = Comparison.row(single("nosuch", "java", 10), single("nosuch", "java", 10_000), BetweenRunNoise.allowance("nosuch/java", List.of()));
        assertEquals(Comparison.SIGNIFICANT, huge.finding(), huge.reason());
        assertEquals("worse", huge.verdict());
        assertTrue(huge.ciLowPercent() > 100 && huge.ciLowPercent() < 99_900 && huge.ciHighPercent() > 99_900, huge.toString());
    }

    @Test
    void aChangeWithinTheAllowanceStaysNotResolvable() {
        // 3x for cpumask/java: its own figure from the tours is smaller than all rows' (factor 74), which wins ...
        Comparison.Row row = Comparison.row(single("cpumask", "java", 10), single("cpumask", "java", 30), BetweenRunNoise.allowance("cpumask/java", dev.corescope.bench.Families.allowances()));
        assertEquals(Comparison.NOT_RESOLVABLE, row.finding(), row.reason());
        assertEquals("untested", row.verdict());
        assertNull(row.significant());
        assertTrue(row.ciLowPercent() < 0 && row.ciHighPercent() > 200, row.toString());
        assertTrue(row.reason().startsWith("one run per side, so the run-to-run error is unknown; the change is within the between-run "
                + "allowance of all benchmarks (single runs of unchanged code may differ by a factor of 74 at 99.9%)"), row.reason());
        // ... and 300x for cpupri/java, whose own figure is wider (a factor of about 800).
        Comparison.Row cpupri = Comparison.row(single("cpupri", "java", 10), single("cpupri", "java", 3000), BetweenRunNoise.allowance("cpupri/java", dev.corescope.bench.Families.allowances()));
        assertEquals(Comparison.NOT_RESOLVABLE, cpupri.finding(), cpupri.reason());
        assertTrue(cpupri.reason().contains("allowance of cpupri/java"), cpupri.reason());
    }

    @Test
    void aRowNoisierThanItsFamilyKeepsItsOwnRunToRunNoise() {
        // Under load (the full calibration at load 12-15 on 2 CPUs), a long row's runs swung by 5x while its
        // family's short rows held within a few percent; the family's pool alone called such a row changed.
        List<Result> steadyA = new java.util.ArrayList<>(), steadyB = new java.util.ArrayList<>();
        for (int i = 0; i < 12; i++) {
            Map<String, Object> p = Map.of("i", i);
            steadyA.add(withRuns(Result.builder().benchmark("cpumask").variant("v").implementation("native").metric("op").unit("ns/op")
                    .score(3).error(0.01).samples(45).cpus("0").params(p).build(), 3.0, 3.02, 2.98));
            steadyB.add(withRuns(Result.builder().benchmark("cpumask").variant("v").implementation("native").metric("op").unit("ns/op")
                    .score(3).error(0.01).samples(45).cpus("0").params(p).build(), 2.99, 3.01, 3.0));
        }
        Map<String, Object> big = Map.of("i", 99);
        steadyA.add(withRuns(Result.builder().benchmark("cpumask").variant("v").implementation("native").metric("op").unit("ns/op")
                .score(0).error(1.0).samples(45).cpus("0").params(big).build(), 551, 227, 498));
        steadyB.add(withRuns(Result.builder().benchmark("cpumask").variant("v").implementation("native").metric("op").unit("ns/op")
                .score(0).error(1.0).samples(45).cpus("0").params(big).build(), 94, 224, 54));
        ResultsFile a = ResultsFile.builder().results(steadyA).build();
        ResultsFile b = ResultsFile.builder().results(steadyB).build();
        Comparison c = Comparison.of("a", List.of(a), "b", List.of(b), null, List.of());
        Comparison.Row row = c.rows().stream().filter(r -> r.params().equals(big)).findFirst().orElseThrow();
        assertEquals(-70.9, row.deltaPercent(), 0.1);
        assertEquals(Comparison.NO_CHANGE, row.finding(), row.reason());
        assertTrue(row.reason().contains("this row's own runs"), row.reason());
        assertTrue(c.runNoise().get("cpumask/native/op").cvPercent() < 20, "the family's pool stays far below the row's swing: " + c.runNoise());
    }

    private static Result withRuns(Result r, double... means) {
        List<RunFigures> runs = new java.util.ArrayList<>();
        double sum = 0;
        for (double m : means) {
            runs.add(new RunFigures(m, 15, m * 0.01));
            sum += m;
        }
        return Result.builder().benchmark(r.benchmark()).variant(r.variant()).implementation(r.implementation()).metric(r.metric()).unit(r.unit())
                .score(sum / means.length).error(r.error()).samples(r.samples()).cpus(r.cpus()).params(r.params()).runs(runs).build();
    }

    @Test
    void aMeasuredOrStatedNoiseWinsOverTheAllowance() {
        ResultsFile a = ResultsFile.builder().results(List.of(single("cpumask", "java", 10))).build();
        ResultsFile b = ResultsFile.builder().results(List.of(single("cpumask", "java", 12))).build();
        Comparison stated = Comparison.of("a", List.of(a), "b", List.of(b), 1.0, List.of());
        assertEquals(Comparison.SIGNIFICANT, stated.rows().getFirst().finding(), "20% against a stated 1%");
        assertTrue(stated.runNoise().values().stream().noneMatch(BetweenRunNoise::assumed));
        Comparison assumed = Comparison.of("a", List.of(a), "b", List.of(b), null, List.of());
        assertEquals(Comparison.NOT_RESOLVABLE, assumed.rows().getFirst().finding(), "20% within the allowance");
    }
}
