package dev.corescope.bench.c2c;

import dev.corescope.bench.BenchContext;
import dev.corescope.bench.FamilyRun;
import dev.corescope.bench.Progress;
import dev.corescope.cpumask.CpuMask;
import dev.corescope.report.Json;
import dev.corescope.report.Result;
import dev.corescope.report.ResultsFile;
import dev.corescope.sys.internal.Affinity;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class C2cFamilyTest {

    @BeforeAll
    static void shareTheMachine() {
        // Other builds on this machine may hold JMH's lock; a smoke run's numbers mean nothing anyway.
        System.setProperty("jmh.ignoreLock", "true");
    }

    @Test
    void smokeRunMeasuresEveryOrderedPairInJavaAndCAndFillsTheMatrix() throws Exception {
        CpuMask allowed = Affinity.processAllowed();
        assumeTrue(allowed.weight() >= 2, "needs 2 allowed CPUs, has " + allowed.toList());
        CpuMask two = CpuMask.of(allowed.nbits(), allowed.first(), allowed.next(allowed.first()));
        CpuMask before = Affinity.allowed();
        List<String> steps = new ArrayList<>();
        Progress progress = new Progress() {
            @Override
            public void start(String task, int total) {
                steps.add("start " + total);
            }

            @Override
            public void step(String detail) {
                steps.add(detail);
            }
        };

        FamilyRun run = new C2cFamily().run(new BenchContext(Optional.of(two), dev.corescope.bench.RunSize.SMOKE, progress));

        int[] cpus = two.toArray();
        List<Result> java = run.results().stream().filter(r -> r.variant().equals("ping_pong") && r.implementation().equals("java")).toList();
        assertEquals(2, java.size());
        for (Result r : java) {
            assertEquals("one_way", r.metric());
            assertEquals("ns", r.unit());
            assertTrue(r.score() > 0);
            assertEquals(C2cPlan.Sampling.of(dev.corescope.bench.RunSize.SMOKE).max(), r.samples());
            assertTrue(Map.of("from", cpus[0], "to", cpus[1]).equals(r.params()) || Map.of("from", cpus[1], "to", cpus[0]).equals(r.params()), r.params().toString());
        }
        long natives = run.results().stream().filter(r -> r.implementation().equals("native")).count();
        if (C2cTwins.unavailableReason().isEmpty()) {
            assertEquals(2, natives);
        } else {
            assertEquals(0, natives);
            assertTrue(notes(run).stream().anyMatch(n -> n.startsWith("C twin not run")), notes(run).toString());
        }
        assertTrue(run.results().stream().anyMatch(r -> r.variant().equals("ping_pong_jmh")), "JMH cross-check");

        assertNotNull(run.matrix());
        assertEquals(2, run.matrix().cpus().length);
        assertNull(run.matrix().values()[0][0]);
        assertNotNull(run.matrix().values()[0][1]);
        assertNotNull(run.matrix().values()[1][0]);
        assertEquals("start 3", steps.getFirst());
        assertEquals(4, steps.size());
        ResultsFile saved = Json.MAPPER.readValue(Json.write(ResultsFile.builder().results(run.results()).matrix(run.matrix()).models(Map.of("c2c", Json.MAPPER.valueToTree(run.model()))).build()), ResultsFile.class);
        assertEquals(text(run), new C2cFamily().text(saved).orElseThrow(), "a saved file shows what the run printed");
        assertTrue(new C2cFamily().picture(saved).orElseThrow().contains("<svg"));
        var model = Json.MAPPER.valueToTree(run.model());
        assertTrue(!model.has("notes"), "the model saves facts, not sentences: " + model);
        assertEquals(C2cPlan.ROUND_TRIPS, model.get("facts").get("plan").get("roundTrips").asInt(), model.toString());
        assertTrue(notes(run).stream().anyMatch(n -> n.startsWith("plan: ")) && text(run).contains("One-way latency = "), text(run));
        assertEquals(before, Affinity.allowed(), "the test thread's mask is untouched");
    }

    @Test
    void oneCpuGivesNoMatrixAndSaysWhy() throws Exception {
        CpuMask one = CpuMask.of(Affinity.nrCpuIds(), Affinity.processAllowed().first());
        FamilyRun run = new C2cFamily().run(new BenchContext(Optional.of(one), dev.corescope.bench.RunSize.SMOKE, Progress.NONE));
        assertTrue(run.results().isEmpty());
        assertNull(run.matrix());
        assertTrue(notes(run).stream().anyMatch(n -> n.contains("needs 2 CPUs")), notes(run).toString());
        assertTrue(text(run).contains("needs 2 CPUs"));
    }

    /** The saved model holds what the notes say as facts; the old code saved the sentences ({@code notes}). */
    @Test
    void theSavedModelHoldsFactsNotSentences() throws Exception {
        CpuMask one = CpuMask.of(Affinity.nrCpuIds(), Affinity.processAllowed().first());
        FamilyRun run = new C2cFamily().run(new BenchContext(Optional.of(one), dev.corescope.bench.RunSize.SMOKE, Progress.NONE));
        var model = Json.MAPPER.valueToTree(run.model());
        assertTrue(!model.has("notes"), "no sentences saved: " + model);
        assertEquals(one.toList(), model.get("facts").get("usable").asText(), model.toString());
        // the run's notes after the lines that say where each CPU sits (there where the machine has cache data)
        List<String> fromFacts = C2cView.notes(Json.MAPPER.treeToValue(model, C2cModel.class));
        List<String> all = notes(run);
        assertEquals(all.subList(all.size() - fromFacts.size(), all.size()), fromFacts, "the saved facts give the run's notes");
    }

    @Test
    void theJmhCrossCheckPinsThePairAsCpus() {
        var pair = new dev.corescope.topology.CpuPair("other-l3", 3, 1, "CPU 3 and CPU 1");
        assertEquals("3/1", C2cBenchmark.pinned(pair));
        assertEquals(List.of(3, 1), java.util.Arrays.stream(C2cBenchmark.pair("3/1")).boxed().toList(), "ping's CPU first");
        for (String bad : List.of("3", "3/3", "3/x", "1/2/3", "-1/2", "3,1")) {
            IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> C2cBenchmark.pair(bad));
            assertTrue(e.getMessage().startsWith("pinned=" + bad + ":"), e.getMessage());
        }
    }

    private static String text(FamilyRun run) {
        return dev.corescope.testing.FamilyRuns.text(new C2cFamily(), run);
    }

    private static java.util.List<String> notes(FamilyRun run) {
        return dev.corescope.testing.FamilyRuns.notes(new C2cFamily(), run);
    }
}
