package dev.corescope.report;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Code-size claims over a build matrix: one word only where every build gives it, never "exact" for a figure that moves. */
class BuildMatrixFindingsTest {

    private static Claim claim(Claim.Direction d, Double size, Double share) {
        return new Claim("size.total", "size", "a seed", "it reduce N bytes in total", "code size over the callers", "bytes", d, size,
                Claim.Scale.ABSOLUTE, null, Claim.Rows.of("size", "code-size", "old", "new", "native").matrix("function", "build", share), null);
    }

    /** Rows of two functions per build: {build: {function: {old, new}}}. */
    private static ResultsFile file(Map<String, Map<String, long[]>> builds) {
        List<Result> rows = new ArrayList<>();
        builds.forEach((b, fs) -> fs.forEach((f, v) -> {
            for (int side = 0; side < 2; side++) {
                rows.add(Result.builder().benchmark("size").variant(side == 0 ? "old" : "new").implementation("native").metric("code-size")
                        .unit("bytes").score(v[side]).error(0.0).samples(1).cpus("").params(Map.of("nrCpus", 64, "build", b, "function", f)).build());
            }
        }));
        return ResultsFile.builder().results(rows).build();
    }

    private static Map<String, Map<String, long[]>> builds(long[]... perBuild) {
        Map<String, Map<String, long[]>> out = new LinkedHashMap<>();
        for (int i = 0; i < perBuild.length; i++) {
            long[] v = perBuild[i];
            out.put("b" + i, Map.of("f", new long[]{100, 100 + v[0]}, "g", new long[]{200, 200 + v[1]}));
        }
        return out;
    }

    @Test
    void aSizeClaimIsDecidedOnlyWhereEveryBuildGivesTheSameFinding() {
        Claim c = claim(Claim.Direction.LESS, 78.0, null);
        ClaimResult agree = SeedVerdicts.evaluate(file(builds(new long[]{-50, -30}, new long[]{-60, -40})), List.of(c)).getFirst();
        assertEquals(Finding.SUPPORTS, agree.finding(), agree.reason());
        assertEquals(2, agree.rows().size());

        ClaimResult split = SeedVerdicts.evaluate(file(builds(new long[]{-50, -30}, new long[]{+20, +8})), List.of(c)).getFirst();
        assertEquals(Finding.INCONCLUSIVE, split.finding(), split.reason());
        assertTrue(split.reason().contains("the builds disagree") && split.reason().contains("b0 -80") && split.reason().contains("b1 +28"),
                split.reason());
    }

    @Test
    void aCodeSizeFigureIsNeverCalledExactWhileTheMatrixDisagrees() {
        ClaimResult split = SeedVerdicts.evaluate(file(builds(new long[]{-50, -30}, new long[]{+20, +8})),
                List.of(claim(Claim.Direction.LESS, 78.0, null))).getFirst();
        assertFalse(VerdictsText.measuredText(split).contains("exact"), VerdictsText.measuredText(split));
        assertFalse(VerdictsText.measuredShort(split).contains("exact"));
        String cell = VerdictsText.interval(split).absent();
        assertFalse(cell.contains("exact"), cell);
        assertEquals("2 builds: -80..+28 bytes", cell);
        assertTrue(VerdictsText.measuredText(split).contains("b0 -80") && VerdictsText.measuredText(split).contains("b1 +28"));
    }

    @Test
    void noNetChangeHoldsWithinItsShareOfTheGross() {
        Claim c = claim(Claim.Direction.NONE, null, 0.10);
        // net 0 of a gross 100: no net change
        ClaimResult zero = SeedVerdicts.evaluate(file(builds(new long[]{+50, -50})), List.of(c)).getFirst();
        assertEquals(Finding.SUPPORTS, zero.finding(), zero.reason());
        assertEquals("no net change", zero.claimed());
        // net -8 of a gross 100: within 10%
        assertEquals(Finding.SUPPORTS, SeedVerdicts.evaluate(file(builds(new long[]{+46, -54})), List.of(c)).getFirst().finding());
        // net -40 of a gross 40: a change, not "no net change"
        assertEquals(Finding.CONTRADICTS, SeedVerdicts.evaluate(file(builds(new long[]{-10, -30})), List.of(c)).getFirst().finding());
        // one build each way: no single word
        assertEquals(Finding.INCONCLUSIVE, SeedVerdicts.evaluate(file(builds(new long[]{+50, -50}, new long[]{-10, -30})), List.of(c))
                .getFirst().finding());
    }

    @Test
    void aSmallNetCalledAReductionIsContradictedWhereNoNetChangeIsSupported() {
        // the seed's -2 of +136/-138 read as "reduced by 2 bytes": a model's 0 B net contradicts that word, and supports "no net change"
        ResultsFile f = file(builds(new long[]{+60, -60}));
        assertEquals(Finding.CONTRADICTS, SeedVerdicts.evaluate(f, List.of(claim(Claim.Direction.LESS, 2.0, null))).getFirst().finding());
        assertEquals(Finding.SUPPORTS, SeedVerdicts.evaluate(f, List.of(claim(Claim.Direction.NONE, null, 0.10))).getFirst().finding());
    }
}
