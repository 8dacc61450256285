package dev.corescope.cli;

import dev.corescope.testing.SavedRuns;
import dev.corescope.bench.BenchFamily;
import dev.corescope.bench.Families;
import dev.corescope.report.Json;
import dev.corescope.report.ResultsFile;
import dev.corescope.testing.Approved;
import dev.corescope.text.TextDoc;
import dev.corescope.report.Finding;
import dev.corescope.report.SeedVerdicts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The tour's text from committed real results files, at 80, 100 and 120 columns: approved
 * outputs, and three rules checked on each: no line is wider than the width, every line of a
 * family's table starts with its row's key, and no line appears more than twice.
 */
class TourTextTest {

    static String render(String file, int width) throws Exception {
        ResultsFile f = SavedRuns.lenient(Path.of("src/test/resources/results", file + ".json"));
        List<BenchFamily> families = Families.all();
        Path saved = Path.of(Tour.RESULTS_FILE);
        TextDoc d = new TextDoc()
                .add(TourText.machine(f.environment(), f.topology())).blank()
                .add(TourText.summary(f, families, List.of(), "./run.sh", saved, width, false)).blank()
                .add(TourText.next("./run.sh", saved, null));
        return d.render(width);
    }

    @ParameterizedTest(name = "{0} at {1}")
    @CsvSource({"tour-after, 80", "tour-after, 100", "tour-after, 120",
            "cpumask-quick, 80", "cpumask-quick, 100", "cpumask-quick, 120",
            "timerbase-quick, 80", "timerbase-quick, 100", "timerbase-quick, 120",
            "cpupri-quick, 80", "cpupri-quick, 100", "cpupri-quick, 120",
            "locks-quick, 80", "locks-quick, 100", "locks-quick, 120",
            "c2c-quick, 80", "c2c-quick, 100", "c2c-quick, 120"})
    void theTourReadsAsASummaryAtEveryWidth(String file, int width) throws Exception {
        String text = render(file, width);
        Approved.verify("cli/tour/" + file + "-" + width + ".txt", text);
        List<String> lines = text.lines().toList();
        for (String l : lines) assertTrue(l.length() <= width, "wider than " + width + ": " + l);
        Map<String, Integer> seen = new HashMap<>();
        for (String l : lines) if (!l.isBlank()) seen.merge(l, 1, Integer::sum);
        seen.forEach((l, n) -> assertTrue(n <= 2, n + " times: " + l));
        // every line of a family's table starts with the key of a row: the family's claim id
        Pattern header = Pattern.compile("  ([a-z0-9]+) claim  .*");
        String family = null;
        for (String l : lines) {
            var m = header.matcher(l);
            if (m.matches()) {
                family = m.group(1);
                continue;
            }
            if (family == null) continue;
            if (l.isBlank() || !l.startsWith("  ") || l.startsWith("  (")) {
                if (!l.startsWith("  ")) family = null;
                continue;
            }
            String claimId = l.strip().split(" ")[0];
            String fam = family;
            assertTrue(Families.claims().stream().anyMatch(c -> c.id().equals(fam + "." + claimId)), "a row without its key: " + l);
        }
    }

    /**
     * The legend lists the entries of the findings used, matched on the findings each entry stands
     * for: a run whose only finding is "supports" does not get the "supports the direction; smaller
     * ..." entry, whose words merely start the same way (the old match by prefix gave it both).
     */
    @org.junit.jupiter.api.Test
    void theLegendListsOnlyTheEntriesOfTheFindingsUsed() {
        org.junit.jupiter.api.Assertions.assertEquals(List.of(dev.corescope.report.VerdictsText.TERMS.getFirst().line()),
                TourText.legend(List.of(result(dev.corescope.report.Finding.SUPPORTS))));
        List<String> larger = TourText.legend(List.of(result(dev.corescope.report.Finding.SUPPORTS_LARGER),
                result(dev.corescope.report.Finding.NOT_TESTABLE)));
        org.junit.jupiter.api.Assertions.assertEquals(2, larger.size(), larger.toString());
        assertTrue(larger.getFirst().startsWith("supports the direction; smaller than claimed / larger"), larger.toString());
        assertTrue(larger.get(1).startsWith("not testable here: "), larger.toString());
    }

    private static dev.corescope.report.ClaimResult result(dev.corescope.report.Finding f) {
        return new dev.corescope.report.ClaimResult("i", "timerbase", "s", "w", "q", "u", dev.corescope.report.Claim.Direction.LESS,
                dev.corescope.report.Claim.Scale.ABSOLUTE, null, "lower", null, f, null, null, null, null, null, null, false, null, null,
                "", null, null);
    }

    @org.junit.jupiter.api.Test
    void theTourShowsC2cByRelationInOneShortBlock() throws Exception {
        var tree = (com.fasterxml.jackson.databind.node.ObjectNode) Json.MAPPER.readTree(Path.of("src/test/resources/results/c2c-quick.json").toFile());
        for (var pair : tree.get("models").get("c2c").get("pairs")) ((com.fasterxml.jackson.databind.node.ObjectNode) pair).put("relation", "same-l3");
        ResultsFile f = Json.MAPPER.readerFor(ResultsFile.class).readValue(tree);
        String text = TourText.summary(f, Families.all(), List.of(), "./run.sh", Path.of(Tour.RESULTS_FILE), 80, false).render(80);
        assertTrue(text.contains("c2c (all of it: ./run.sh report"), text);
        assertTrue(text.contains("By relation (what the two CPUs share)"), text);
        assertTrue(text.lines().anyMatch(l -> l.contains("same L3") || l.contains("same l3")), text);
        assertTrue(text.lines().count() < 15, "one short block: " + text);
    }

    /** A build matrix's figures are exact: no longer run resolves a code-size claim the builds split on, so the tour offers none. */
    @Test
    void aCodeSizeClaimTheBuildsSplitOnIsNotSentToALongerRun() throws Exception {
        ResultsFile f = SavedRuns.lenient(Path.of("src/test/resources/results/cpumask-code-size.json"));
        SeedVerdicts.Verdict v = SeedVerdicts.recorded(f, Families.claims(), List.of()).getFirst();
        assertTrue(v.claims().stream().anyMatch(c -> c.id().equals("cpumask.code-size-64") && c.finding() == Finding.INCONCLUSIVE
                && c.overBuilds()), v.line());
        assertTrue(TourText.unresolved(v, "./run.sh").map(l -> !l.contains("code-size")).orElse(true),
                "a longer run gives the same builds: " + TourText.unresolved(v, "./run.sh"));
    }
}
