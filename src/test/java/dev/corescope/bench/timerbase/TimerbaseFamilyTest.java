package dev.corescope.bench.timerbase;

import dev.corescope.testing.SavedRuns;
import com.fasterxml.jackson.databind.JsonNode;
import dev.corescope.bench.BenchContext;
import dev.corescope.bench.FamilyRun;
import dev.corescope.report.Histogram;
import dev.corescope.report.Json;
import dev.corescope.report.ResultsFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A smoke-sized run (JMH forks 0, a few thousand samples): it runs and its results are well-formed. No timing is asserted. */
class TimerbaseFamilyTest {

    private static FamilyRun run;

    @BeforeAll
    static void runOnce() throws Exception {
        // Other JMH runs on the machine hold /tmp/jmh.lock; a smoke run measures nothing, so it need not wait.
        System.setProperty("jmh.ignoreLock", "true");
        run = new TimerbaseFamily().run(dev.corescope.testing.BenchContexts.smoke());
    }

    @Test
    void smokeRunWritesResultsAndHistogramsAsTheContractSays() throws Exception {
        String json = Json.write(ResultsFile.builder().results(run.results())
                .layouts(run.layouts()).histograms(run.histograms()).matrix(run.matrix()).build());
        JsonNode root = Json.MAPPER.readTree(json);
        assertEquals("corescope-results/1", root.get("schema").asText());
        for (JsonNode r : root.get("results")) {
            assertEquals("timerbase", r.get("benchmark").asText());
            assertTrue(Set.of("before", "before_two_loads", "after").contains(r.get("variant").asText()), r.toString());
            assertTrue(Set.of("java", "native").contains(r.get("implementation").asText()));
            assertTrue(r.get("score").asDouble() > 0);
            if (r.get("metric").asText().equals("op")) {
                assertEquals("ns/op", r.get("unit").asText());
                assertTrue(r.get("error").asDouble() >= 0);
                assertEquals(TimerbaseBenchmark.TIMERS, r.get("params").get("timers").asInt());
            } else if (r.get("metric").asText().equals("pathInstructions")) {
                assertEquals("instructions", r.get("unit").asText());
                assertEquals("native", r.get("implementation").asText());
                assertTrue(Set.of("deferrable", "global").contains(r.get("params").get("path").asText()), r.toString());
            } else {
                assertEquals("codeSize", r.get("metric").asText());
            }
        }
        JsonNode histograms = root.get("histograms");
        int implementations = TimerbaseTwins.unavailableReason().isEmpty() ? 2 : 1;
        assertEquals(4 * implementations, histograms.size());
        for (JsonNode h : histograms) {
            assertEquals("timerbase", h.get("benchmark").asText());
            assertTrue(Set.of("empty", "before", "before_two_loads", "after").contains(h.get("variant").asText()));
            assertEquals(20, h.get("bucketNs").asInt());
            assertEquals(16, h.get("counts").size());
            long sum = 0;
            for (JsonNode c : h.get("counts")) sum += c.asLong();
            assertEquals(h.get("total").asLong(), sum, "the buckets hold every sample, the last one the overflow too");
            assertTrue(h.get("overflow").asLong() <= h.get("counts").get(15).asLong());
        }
        ResultsFile back = SavedRuns.lenient(writeTemp(json));
        assertEquals(run.histograms().size(), back.histograms().size());
    }

    /** The seed's claim is about the deferrable path: after skips the index computation there, and changes nothing for a global timer. */
    @Test
    void theDeferrablePathOfAfterIsShorterThanBeforesAndTheGlobalPathIsNot() {
        org.junit.jupiter.api.Assumptions.assumeTrue(TimerbaseTwins.unavailableReason().isEmpty(), "C twins not built");
        java.util.Map<String, Double> n = new java.util.HashMap<>();
        for (var r : run.results()) {
            if (r.metric().equals("pathInstructions")) n.put(r.variant() + "/" + r.params().get("path"), r.score());
        }
        assertEquals(6, n.size(), "three variants x two paths, all counted: " + n + "\n" + text(run));
        assertTrue(n.get("after/deferrable") < n.get("before/deferrable"), n.toString());
        assertEquals(n.get("before/global"), n.get("after/global"), n.toString());
        assertTrue(text(run).contains("Instructions on the path"), text(run));
    }

    @Test
    void histogramsCountEverySampleTaken() {
        for (Histogram h : run.histograms()) assertEquals(4_000, h.total(), h.implementation() + " " + h.variant());
    }

    @Test
    void textShowsTheSeedsTableBesideTheClocksOwnAndSaysWhatItMeans() {
        String text = text(run);
        assertTrue(text.contains("[0-19]  ") && text.contains("[300-319]  "), text);
        assertTrue(text.contains("seed before") && text.contains("java empty"), text);
        assertTrue(text.contains("5262"), "the seed's counts are quoted");
        assertTrue(text.contains("mostly the clock"), text);
        assertTrue(text.contains("What they cannot say: whether the seed's shift came from the patch"), text);
        assertTrue(text.contains("unpinned"), text);
        if (!TimerbaseTwins.unavailableReason().isEmpty()) {
            assertTrue(notes(run).stream().anyMatch(n -> n.startsWith("native rows and histograms left out: ")));
        }
    }

    /** The saved model holds facts (counts, reasons, the clock's common values), not the sentences the text words from them. */
    @Test
    void theSavedModelHoldsFactsNotSentences() {
        TimerbaseModel m = (TimerbaseModel) run.model();
        assertTrue(m.notes().isEmpty(), m.notes().toString());
        assertTrue(m.pinning() == null && m.load() == null && m.javaSettings() == null && m.setup() != null, "the setup as data: " + m);
        assertEquals(3, m.javaIterations().groups(), "one JMH run per variant: " + m.javaIterations());
        assertTrue(m.javaIterations().total() >= 3 && m.javaIterations().leftOut() <= m.javaIterations().total(), m.javaIterations().toString());
        assertTrue(m.clockValues().containsKey("java") && !m.clockValues().get("java").isEmpty(), m.clockValues().toString());
        assertTrue(notes(run).stream().anyMatch(n -> n.startsWith("java iterations: ")), notes(run).toString());
        assertTrue(text(run).contains("java histograms: an empty sample (two clock reads, nothing between) is mostly "), text(run));
    }

    private static java.nio.file.Path writeTemp(String json) throws java.io.IOException {
        java.nio.file.Path f = java.nio.file.Files.createTempFile("timerbase", ".json");
        f.toFile().deleteOnExit();
        java.nio.file.Files.writeString(f, json);
        return f;
    }

    private static String text(FamilyRun run) {
        return dev.corescope.testing.FamilyRuns.text(new TimerbaseFamily(), run);
    }

    private static java.util.List<String> notes(FamilyRun run) {
        return dev.corescope.testing.FamilyRuns.notes(new TimerbaseFamily(), run);
    }
}
