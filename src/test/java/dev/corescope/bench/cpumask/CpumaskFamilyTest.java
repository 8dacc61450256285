package dev.corescope.bench.cpumask;

import dev.corescope.testing.SavedRuns;
import com.fasterxml.jackson.databind.JsonNode;
import dev.corescope.bench.BenchContext;
import dev.corescope.bench.FamilyRun;
import dev.corescope.report.Json;
import dev.corescope.report.ResultsFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A smoke-sized run (JMH forks 0, a few batches): it runs and its results are well-formed. No timing is asserted. */
class CpumaskFamilyTest {

    private static FamilyRun run;

    @BeforeAll
    static void runOnce() throws Exception {
        // Other JMH runs on the machine hold /tmp/jmh.lock; a smoke run measures nothing, so it need not wait.
        System.setProperty("jmh.ignoreLock", "true");
        run = new CpumaskFamily().run(dev.corescope.testing.BenchContexts.smoke());
    }

    @Test
    void smokeRunWritesResultsJsonAsTheContractSays() throws Exception {
        String json = Json.write(ResultsFile.builder().results(run.results())
                .layouts(run.layouts()).histograms(run.histograms()).matrix(run.matrix()).build());
        JsonNode root = Json.MAPPER.readTree(json);
        assertEquals("corescope-results/1", root.get("schema").asText());
        JsonNode results = root.get("results");
        assertTrue(results.isArray() && !results.isEmpty());
        Set<String> perOpKeys = new HashSet<>();
        int splitRows = 0;
        for (JsonNode r : results) {
            assertEquals("cpumask", r.get("benchmark").asText());
            String variant = r.get("variant").asText();
            assertTrue(Set.of("any_but_loop", "first_but", "any_but_loop_first").contains(variant), variant);
            assertTrue(Set.of("java", "native").contains(r.get("implementation").asText()));
            if (variant.equals("any_but_loop_first")) {
                assertEquals("java", r.get("implementation").asText(), "the splitting variant is Java only");
                splitRows++;
                continue;
            }
            int nrCpus = r.get("params").get("nrCpus").asInt();
            assertTrue(nrCpus == 64 || nrCpus == 4096, "nrCpus " + nrCpus);
            assertTrue(r.get("score").isNumber() && r.get("score").asDouble() > 0, r.toString());
            assertTrue(r.get("samples").asLong() >= 1);
            assertTrue(r.get("cpus").isTextual());
            if (r.get("metric").asText().equals("op")) {
                assertEquals("ns/op", r.get("unit").asText());
                assertTrue(r.has("error") && r.get("error").asDouble() >= 0, "per-op rows carry a 99.9% error: " + r);
                assertTrue(Set.of("online", "high").contains(r.get("params").get("mask").asText()));
                assertTrue(Set.of("16", "host").contains(r.get("params").get("online").asText()));
                assertFalse(r.get("params").has("input"), "no input parameter: every row draws in the loop");
                if (r.get("implementation").asText().equals("native")) {
                    assertTrue(Set.of("align64", "align32").contains(r.get("params").get("layout").asText()), r.toString());
                }
                perOpKeys.add(r.get("implementation").asText() + "/" + variant + "/" + r.get("params"));
            } else {
                assertEquals("code-size", r.get("metric").asText(), r.toString());
                assertEquals("bytes", r.get("unit").asText());
            }
        }
        for (String key : perOpKeys) {
            String other = key.contains("/any_but_loop/") ? key.replace("/any_but_loop/", "/first_but/") : key.replace("/first_but/", "/any_but_loop/");
            assertTrue(perOpKeys.contains(other), "both variants measured for " + key);
        }
        assertEquals(1, splitRows, "a smoke run splits one row");
        assertTrue(text(run).contains("Where a Java gap comes from"), text(run));
        ResultsFile back = SavedRuns.lenient(writeTemp(json));
        assertEquals(run.results().size(), back.results().size());
    }

    @Test
    void aSavedModelRendersTheTextTheRunPrinted() throws Exception {
        ResultsFile file = ResultsFile.builder().results(run.results()).models(java.util.Map.of("cpumask", Json.MAPPER.valueToTree(run.model()))).build();
        ResultsFile back = SavedRuns.lenient(writeTemp(Json.write(file)));
        assertEquals(text(run), new CpumaskFamily().text(back).orElseThrow());
        ResultsFile withoutModel = ResultsFile.builder().results(run.results()).build();
        assertTrue(new CpumaskFamily().text(withoutModel).isEmpty());
    }

    @Test
    void nativeRowsAndCodeSizesArePresentOrTheNotesSayWhy() {
        boolean hasNative = run.results().stream().anyMatch(r -> r.implementation().equals("native"));
        if (CpumaskTwins.unavailableReason().isEmpty()) {
            assertTrue(hasNative);
            for (String layout : List.of("align64", "align32")) {
                assertTrue(run.results().stream().anyMatch(r -> r.implementation().equals("native") && layout.equals(r.params().get("layout"))),
                        "native rows at layout " + layout);
            }
            // bloat-o-meter over the kernel-like callers: the seed's ten functions x 2 NR_CPUS x old/new, per build of the matrix
            CpumaskModel model = (CpumaskModel) run.model();
            assertTrue(model.codeSizeBuilds() != null && model.codeSizeBuilds().compiler() != null, "the compiler is saved");
            List<String> builds = model.codeSizeBuilds().builds().stream().map(CpumaskModel.BuildFlags::name).toList();
            assertTrue(builds.containsAll(List.of("kernel-O2", "kernel-Os", "kernel-O2-ftrace", "kernel-O2-frame-pointer")), builds.toString());
            assertEquals(10 * 2 * 2 * builds.size(), run.results().stream().filter(r -> r.metric().equals("code-size")).count());
            assertEquals(Set.copyOf(KernelCallers.CALLERS), run.results().stream().filter(r -> r.metric().equals("code-size"))
                    .map(r -> r.params().get("function")).collect(java.util.stream.Collectors.toSet()), "each row names its function");
            assertEquals(10, KernelCallers.CALLERS.size());
            assertEquals(Set.copyOf(KernelCallers.CALLERS), CpumaskClaims.SEED_SIZES.stream().map(CpumaskClaims.SeedSize::function)
                    .collect(java.util.stream.Collectors.toSet()), "the ten functions of the seed's table");
            assertTrue(text(run).contains("sign agrees") && text(run).contains("functions whose sign agrees with the seed's"), text(run));
        } else {
            assertFalse(hasNative);
            assertTrue(notes(run).stream().anyMatch(n -> n.startsWith("native rows left out: ")), notes(run).toString());
        }
    }

    /** The saved model holds facts (counts, reasons, the --quick flag), not the sentences the text words from them. */
    @Test
    void theSavedModelHoldsFactsNotSentences() {
        CpumaskModel m = (CpumaskModel) run.model();
        assertTrue(m.notes().isEmpty(), m.notes().toString());
        assertTrue(m.pinning() == null && m.load() == null && m.javaSettings() == null && m.setup() != null, "the setup as data: " + m);
        var saved = dev.corescope.report.Json.MAPPER.valueToTree(m);
        assertTrue(!saved.has("pinning") && !saved.has("javaSettings") && saved.get("setup").has("jmh"), saved.toString());
        assertTrue(m.javaIterations() != null && m.javaIterations().total() > 0, String.valueOf(m.javaIterations()));
        assertEquals(CpumaskTwins.unavailableReason().isEmpty(), m.nativeLeftOut() != null);
        assertTrue(notes(run).containsAll(CpumaskView.notes(m)), notes(run).toString());
    }

    @Test
    void textHasTheSeedStyleTotalsPerCallTableAndNotes() {
        String text = text(run);
        assertTrue(text.contains("Total time: "), text);
        assertTrue(text.contains("Per call, ns/op"), text);
        assertTrue(text.contains("significant"), text);
        assertTrue(text.contains("unpinned"), "a run without --cpus says it is unpinned");
        assertTrue(text.contains("19665287"), "the seed's figure is quoted");
        assertTrue(notes(run).stream().anyMatch(n -> n.startsWith("java iterations: ")), "says how many iterations were kept");
        if (CpumaskTwins.unavailableReason().isEmpty()) {
            assertTrue(text.contains("Code size as bloat-o-meter measures it"), text);
            for (String f : KernelCallers.CALLERS) assertTrue(text.contains(f), f);
            assertTrue(text.contains("seed delta") && text.contains("model delta") && text.contains("sign agrees"), text);
        }
        assertTrue(text.contains("high* is a synthetic worst case"), text);
    }

    private static java.nio.file.Path writeTemp(String json) throws java.io.IOException {
        java.nio.file.Path f = java.nio.file.Files.createTempFile("cpumask", ".json");
        f.toFile().deleteOnExit();
        java.nio.file.Files.writeString(f, json);
        return f;
    }

    private static String text(FamilyRun run) {
        return dev.corescope.testing.FamilyRuns.text(new CpumaskFamily(), run);
    }

    private static java.util.List<String> notes(FamilyRun run) {
        return dev.corescope.testing.FamilyRuns.notes(new CpumaskFamily(), run);
    }
}
