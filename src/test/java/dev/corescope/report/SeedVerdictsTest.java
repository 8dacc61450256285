package dev.corescope.report;

import dev.corescope.bench.Families;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SeedVerdictsTest {

    @Test
    void aQuickTourNamesEachSeedsClaimsAndTheirFindings() throws Exception {
        ResultsFile tour = Json.readResults(Path.of("src/test/resources/results/tour-before.json"));
        List<SeedVerdicts.Verdict> v = SeedVerdicts.of(tour, Families.claims());
        assertEquals(List.of("cpumask", "timerbase", "cpupri", "locks"), v.stream().map(SeedVerdicts.Verdict::family).toList());
        String text = SeedVerdicts.text(v, 120);
        assertTrue(text.lines().allMatch(l -> l.length() <= 120), text);
        assertTrue(text.startsWith("Verdicts"), text);
        System.out.println(text);
        ResultsFile full = Json.readResults(Path.of("docs/results/bench-all.json"));
        System.out.println(SeedVerdicts.text(SeedVerdicts.of(full, Families.claims()), 120));
    }
}
