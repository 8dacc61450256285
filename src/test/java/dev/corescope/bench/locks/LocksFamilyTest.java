package dev.corescope.bench.locks;

import dev.corescope.bench.BenchContext;
import dev.corescope.bench.FamilyRun;
import dev.corescope.cpumask.CpuMask;
import dev.corescope.report.Result;
import dev.corescope.sys.tool.NativeLibrary;
import dev.corescope.sys.internal.Affinity;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The whole family in smoke mode: every variant runs a few iterations, Java (JMH in this JVM) and
 * native, and the report and results carry them all. Its numbers mean nothing and nothing about
 * them is asserted.
 */
class LocksFamilyTest {

    private static FamilyRun run;

    @BeforeAll
    static void runOnce() throws Exception {
        // JMH refuses to start while another JMH holds /tmp/jmh.lock (another engineer's run on a
        // shared machine); a smoke run measures nothing, so it need not wait for it.
        System.setProperty("jmh.ignoreLock", "true");
        run = new LocksFamily().run(dev.corescope.testing.BenchContexts.smoke());
    }

    @Test
    void everyLineRunsInJavaAndEveryNativeLineInC() {
        Set<String> java = keys("java");
        for (Line line : Line.values()) {
            assertTrue(java.contains(key(line.variant().contractName(), line.params("java"))), "java " + line + " missing");
        }
        if (NativeLibrary.available()) {
            Set<String> c = keys("native");
            for (Line line : Line.values()) {
                if (line.params("native").isEmpty() && !line.params("java").isEmpty()) continue; // java-only lines
                assertTrue(c.contains(key(line.variant().contractName(), line.params("native"))), "native " + line + " missing");
            }
        } else {
            assertTrue(notes(run).stream().anyMatch(n -> n.startsWith("native rows missing: ")), notes(run).toString());
        }
    }

    /** The saved model holds the facts its notes are worded from, not the sentences. */
    @Test
    void theSavedModelHoldsFactsNotSentences() {
        LocksModel m = (LocksModel) run.model();
        assertTrue(m.notes().isEmpty() && m.facts() != null, m.notes().toString());
        assertEquals(NativeLibrary.available(), m.facts().nativeUnavailable() == null);
        assertTrue(notes(run).containsAll(LocksView.notes(m)), notes(run).toString());
    }

    @Test
    void everyRowRanAtLeastOneSampleOnThePinnedCpu() {
        for (Result r : run.results()) {
            if (!r.metric().equals("op")) continue;
            assertTrue(r.samples() >= 1, r.toString());
            assertTrue(Affinity.processAllowed().test(Integer.parseInt(r.cpus())), r.toString());
        }
    }

    @Test
    void everyJavaOpRowCarriesItsForksAsRunsForCompare() {
        List<Result> java = run.results().stream().filter(r -> r.implementation().equals("java") && r.metric().equals("op")).toList();
        assertTrue(!java.isEmpty());
        for (Result r : java) {
            assertEquals(1, r.runs().size(), "a smoke run is one (in-process) fork: " + r);
            assertEquals(r.score(), r.runs().getFirst().mean(), Math.abs(r.score()) * 1e-9, r.toString());
            assertEquals(r.samples(), r.runs().getFirst().n(), r.toString());
        }
    }

    @Test
    void contendedModeRunsOnTwoCpusOrSaysWhyNot() {
        List<Result> contended = run.results().stream().filter(r -> r.metric().equals("contended")).toList();
        if (Affinity.processAllowed().weight() < 2) {
            assertTrue(contended.isEmpty());
            assertTrue(text(run).contains("contended mode skipped"), text(run));
            return;
        }
        Set<String> variants = contended.stream().map(r -> r.variant() + "/" + r.implementation()).collect(Collectors.toSet());
        assertTrue(variants.contains("spin_lock_unlock/java"), variants.toString());
        if (NativeLibrary.available()) assertTrue(variants.contains("spin_lock_unlock/native"), variants.toString());
        long perThread = run.results().stream().filter(r -> r.metric().equals("contended_thread")).count();
        assertEquals(2L * contended.size(), perThread, "one share per thread per contended row");
    }

    @Test
    void theTextListsTheSeedsFiguresBesideOurs() {
        String text = text(run);
        for (String seed : List.of("12.775", "21.099", "22.808", "14.618", "13.256")) assertTrue(text.contains(seed), seed);
        assertTrue(text.contains("- spin_lock_unlock: \"clean\" spin_lock_unlock"), "each line's name is explained under the list: " + text);
        assertTrue(text.matches("(?s).*\n  spin_lock_unlock +.* 12\\.775\n.*"), "the seed's figure as published, on its line: " + text);
        assertTrue(text.contains("Loop overhead"), text);
        assertTrue(text.contains("Where it breaks"), text);
    }

    @Test
    void anInterruptedRunStopsAtTheNextRowAndGivesTheThreadItsMaskBack() {
        CpuMask before = Affinity.allowed();
        Thread.currentThread().interrupt();
        try {
            assertThrows(InterruptedException.class, () -> new LocksFamily().run(dev.corescope.testing.BenchContexts.smoke()));
        } finally {
            Thread.interrupted();
        }
        assertEquals(before, Affinity.allowed());
    }

    private static Set<String> keys(String implementation) {
        return run.results().stream().filter(r -> r.implementation().equals(implementation) && r.metric().equals("op"))
                .map(r -> key(r.variant(), r.params())).collect(Collectors.toSet());
    }

    private static String key(String variant, Map<String, Object> params) {
        return variant + params;
    }

    private static String text(FamilyRun run) {
        return dev.corescope.testing.FamilyRuns.text(new LocksFamily(), run);
    }

    private static List<String> notes(FamilyRun run) {
        return dev.corescope.testing.FamilyRuns.notes(new LocksFamily(), run);
    }
}
