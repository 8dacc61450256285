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
        return new Result("cpumask", variant, impl, "op", unit, score, error, n, "0", params);
    }

    private static ResultsFile file(Environment env, Result... results) {
        return new ResultsFile(ResultsFile.SCHEMA, env, List.of(results), null, null, null, null);
    }

    @Test
    void welchsTestMatchesTheTextbookValue() {
        // t = 2 / sqrt(0.5^2 + 0.5^2) = 2.828 with 18 degrees of freedom: two-sided p = 0.0112
        Result a = r("x", "java", "ns/op", 10, halfWidth(0.5, 10), 10, Map.of());
        Result b = r("x", "java", "ns/op", 12, halfWidth(0.5, 10), 10, Map.of());
        assertEquals(0.0112, Comparison.welchP(a, b), 0.0003);
        assertEquals(0.5, Comparison.standardError(a), 1e-12);
    }

    @Test
    void aClearImprovementInTimeIsBetterAndInThroughputIsWorse() {
        Result t0 = r("x", "java", "ns/op", 10, halfWidth(0.05, 10), 10, Map.of());
        Result t1 = r("x", "java", "ns/op", 8, halfWidth(0.05, 10), 10, Map.of());
        Comparison.Row time = Comparison.row(t0, t1);
        assertEquals("better", time.verdict());
        assertEquals(-20.0, time.deltaPercent(), 1e-9);
        assertTrue(time.significant());

        Result o0 = r("x", "java", "ops/us", 10, halfWidth(0.05, 10), 10, Map.of());
        Result o1 = r("x", "java", "ops/us", 8, halfWidth(0.05, 10), 10, Map.of());
        assertEquals("worse", Comparison.row(o0, o1).verdict());

        Result u0 = r("x", "java", "min/max", 10, halfWidth(0.05, 10), 10, Map.of());
        Result u1 = r("x", "java", "min/max", 8, halfWidth(0.05, 10), 10, Map.of());
        assertEquals("lower", Comparison.row(u0, u1).verdict(), "a unit that does not say which way is better");
    }

    @Test
    void overlappingNoiseIsTheSameAndRowsWithoutAnErrorAreUntested() {
        Result a = r("x", "java", "ns/op", 10, 3.0, 5, Map.of());
        Result b = r("x", "java", "ns/op", 10.5, 3.0, 5, Map.of());
        Comparison.Row same = Comparison.row(a, b);
        assertEquals("same", same.verdict());
        assertEquals(Boolean.FALSE, same.significant());

        Comparison.Row untested = Comparison.row(r("x", "java", "ns/op", 10, null, 1, Map.of()), b);
        assertEquals("untested", untested.verdict());
        assertNull(untested.p());
        assertNull(untested.significant());
    }

    @Test
    void differentUnitsAreNotCompared() {
        Comparison.Row row = Comparison.row(r("x", "java", "ns/op", 10, 0.1, 10, Map.of()), r("x", "java", "us/op", 0.01, 0.001, 10, Map.of()));
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
        Comparison c = Comparison.of("a.json", before, "b.json", after);
        assertEquals(1, c.rows().size());
        assertEquals(Map.of("nrCpus", 64), c.rows().getFirst().params());
        assertEquals(2, c.onlyBefore().size());
        assertEquals(2, c.onlyAfter().size());
        assertEquals("add/remove: 2/2 better/worse: 0/0 same: 1 untested: 0 geomean time: +0.0% (1 matched)", c.summaryLine());
    }

    @Test
    void theGeometricMeanSumsUpTheMatchedRows() {
        ResultsFile before = file(null, r("a", "java", "ns/op", 10, 0.01, 10, Map.of()), r("b", "java", "ns/op", 10, 0.01, 10, Map.of()));
        ResultsFile after = file(null, r("a", "java", "ns/op", 20, 0.01, 10, Map.of()), r("b", "java", "ns/op", 5, 0.01, 10, Map.of()));
        Comparison c = Comparison.of("a", before, "b", after);
        assertEquals(0.0, c.summary().geomeanPercent(), 1e-9, "x2 and x0.5 cancel out");
        assertEquals(1, c.summary().better());
        assertEquals(1, c.summary().worse());
    }

    @Test
    void environmentChangesAreListed() {
        Environment e1 = new Environment("CPU A", "Linux 6.1", "JDK 25", List.of(), "0-3", "0-3", "", "", false, null, null,
                "performance", null, null, true, null, null, List.of());
        Environment e2 = new Environment("CPU A", "Linux 6.6", "JDK 25", List.of(), "0-1", "0-3", "", "", false, null, null,
                "performance", null, null, true, null, null, List.of());
        Comparison c = Comparison.of("a", file(e1), "b", file(e2));
        assertEquals(List.of("kernel: Linux 6.1 -> Linux 6.6", "allowed: 0-3 -> 0-1"), c.environmentDiff());
    }

    @Test
    void theTextReportMatchesTheApprovedFile() {
        ResultsFile before = file(null,
                r("any_but_loop", "java", "ns/op", 8.708, halfWidth(0.02, 10), 10, Map.of("nrCpus", 64)),
                r("first_but", "java", "ns/op", 8.207, halfWidth(0.02, 10), 10, Map.of("nrCpus", 64)),
                r("first_but", "native", "ns/op", 7.290, 0.19, 15, Map.of("nrCpus", 64)),
                r("first_but", "native", "bytes", 89, 0.0, 1, Map.of("nrCpus", 64)),
                r("fairness", "java", "min/max", 0.69, null, 5, Map.of()),
                r("gone", "java", "ns/op", 1.0, 0.1, 10, Map.of()));
        ResultsFile after = file(null,
                r("any_but_loop", "java", "ns/op", 8.650, halfWidth(0.02, 10), 10, Map.of("nrCpus", 64)),
                r("first_but", "java", "ns/op", 6.100, halfWidth(0.02, 10), 10, Map.of("nrCpus", 64)),
                r("first_but", "native", "ns/op", 7.310, 0.21, 15, Map.of("nrCpus", 64)),
                r("first_but", "native", "bytes", 55, 0.0, 1, Map.of("nrCpus", 64)),
                r("fairness", "java", "min/max", 0.72, null, 5, Map.of()),
                r("new", "native", "ns/op", 2.0, 0.1, 10, Map.of("nrCpus", 4096)));
        Approved.verify("compare/compare.txt", ComparisonText.render(Comparison.of("before.json", before, "after.json", after)));
    }
}
