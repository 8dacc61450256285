package dev.corescope.bench.cpupri;

import dev.corescope.bench.BenchContext;
import dev.corescope.bench.FamilyRun;
import dev.corescope.bench.c2c.SysfsTree;
import dev.corescope.cpumask.CpuMask;
import dev.corescope.report.Json;
import dev.corescope.report.Result;
import dev.corescope.sys.internal.Affinity;
import dev.corescope.topology.Topology;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class CpupriFamilyTest {

    @BeforeAll
    static void shareTheMachine() {
        // Other builds on this machine may hold JMH's lock; a smoke run's numbers mean nothing anyway.
        System.setProperty("jmh.ignoreLock", "true");
    }

    @Test
    void smokeRunMeasuresEveryVariantWorkloadAndSideOnTwoPinnedCpus() throws Exception {
        CpuMask allowed = Affinity.processAllowed();
        assumeTrue(allowed.weight() >= 2, "needs 2 allowed CPUs, has " + allowed.toList());
        CpuMask before = Affinity.allowed();

        FamilyRun run = new CpupriFamily().run(dev.corescope.testing.BenchContexts.smoke());

        boolean twin = CpupriTwins.unavailableReason().isEmpty();
        // java: mechanism and rt=writers for the 6 variants, rt=all for the 3 kernel layouts; C: the 3 layouts x 3
        assertEquals((CpupriBenchmark.VARIANTS.size() * 2 + 3) * 2 + (twin ? 3 * 3 * 2 : 0), run.results().size());
        for (String variant : CpupriBenchmark.VARIANTS) {
            for (String workload : List.of("mechanism", "cpupri writers", "cpupri all")) {
                for (String metric : List.of("find", "set")) {
                    for (String implementation : List.of("java", "native")) {
                        if (implementation.equals("native") && (!twin || variant.startsWith("heap_"))) continue;
                        if (workload.endsWith("all") && variant.startsWith("heap_")) continue;
                        String[] w = workload.split(" ");
                        Result r = run.results().stream().filter(x -> x.variant().equals(variant) && x.metric().equals(metric)
                                && x.implementation().equals(implementation)
                                && x.params().get("workload").equals(w[0])
                                && java.util.Objects.equals(x.params().get("rt"), w.length > 1 ? w[1] : null))
                                .findFirst().orElseThrow(() -> new AssertionError(variant + " " + workload + " " + metric + " " + implementation));
                        assertEquals("ns/op", r.unit());
                        assertEquals(1, r.params().get("writers"));
                        assertEquals(implementation.equals("java") ? "mean" : "median", r.params().get("statistic"));
                        assertTrue(r.score() > 0, r.toString());
                        assertEquals(2, CpuMask.parseList(r.cpus(), 1 << 16).weight(), r.cpus());
                    }
                }
            }
        }
        if (twin) {
            CpupriModel m = (CpupriModel) run.model();
            assertTrue(m.runs().stream().filter(r -> r.implementation().equals("native") && "writers".equals(r.rt()))
                    .allMatch(r -> r.countsPerFind() != null && r.countsPerFind() == 1.0), m.runs().toString());
            assertTrue(text(run).contains("counts per find"), text(run));
        }
        if (!twin) assertTrue(notes(run).stream().anyMatch(n -> n.startsWith("C twin not run")), notes(run).toString());
        assertTrue(text(run).contains("packed") && text(run).contains("26 cache lines"), text(run));
        assertTrue(Json.write(run.results()).contains("\"workload\" : \"cpupri\""));
        assertEquals(before, Affinity.allowed(), "the test thread's mask is untouched");
    }

    @Test
    void familyReportsLayoutsAndSaysWhyWhenOneCpuIsGiven() throws Exception {
        CpuMask one = CpuMask.of(Affinity.nrCpuIds(), Affinity.processAllowed().first());
        FamilyRun run = new CpupriFamily().run(new BenchContext(Optional.of(one), dev.corescope.bench.RunSize.SMOKE, dev.corescope.bench.Progress.NONE));
        assertTrue(run.results().isEmpty());
        assertTrue(notes(run).stream().anyMatch(n -> n.contains("needs 2 CPUs")), notes(run).toString());
        assertEquals(List.of(26L, 203L, 21L), run.layouts().subList(0, 3).stream().map(l -> l.cacheLines()).toList());
    }

    @Test
    void chooseGivesReaderAndWritersDistinctCpusAndRefusesToOversubscribe(@TempDir Path root) throws IOException {
        Topology t = Topology.read(SysfsTree.build(root, 2, 4));
        CpuMask four = CpuMask.of(t.nbits(), 1, 2, 5, 6);

        int[] sameL3 = CpupriBenchmark.choose(t, "same-l3", four, 3);
        assertArrayEquals(new int[]{1, 2, 5, 6}, sameL3, "the placement's pair first, then the lowest free CPUs");
        int[] cross = CpupriBenchmark.choose(t, "other-package", four, 1);
        assertArrayEquals(new int[]{1, 5}, cross);

        var tooMany = assertThrows(IllegalStateException.class, () -> CpupriBenchmark.choose(t, "any", CpuMask.of(t.nbits(), 0, 1), 2));
        assertTrue(tooMany.getMessage().contains("3 threads need 3 CPUs"), tooMany.getMessage());
        var missing = assertThrows(IllegalStateException.class, () -> CpupriBenchmark.choose(t, "same-core", four, 1));
        assertTrue(missing.getMessage().contains("placement same-core is not available"), missing.getMessage());
    }

    /** -tg 1,0: the reader alone (it was refused), whose finds all stop at index 0 in every layout. */
    @Test
    void aReaderWithoutWritersIsADiagnosticRunOfItsOwnCost(@TempDir Path root) throws IOException {
        Topology t = Topology.read(SysfsTree.build(root, 2, 4));
        CpuMask four = CpuMask.of(t.nbits(), 1, 2, 5, 6);
        assertArrayEquals(new int[]{1}, CpupriBenchmark.choose(t, "any", four, 0));
        for (String v : List.of("packed", "aligned", "split")) {
            try (CpupriStruct m = CpupriBenchmark.create(v, 8, 64, new int[0], new int[]{1}, CpupriStruct.Rt.WRITERS)) {
                long[] lowest = new long[m.maskWords()];
                assertEquals(0, m.find(lowest), v);
                assertEquals(1L << 1, lowest[0], v);
            }
        }
    }

    /** With 3 or more CPUs every run has as many writers as the CPUs allow; on 2 only one fits, and the note says the claim is not testable. */
    @Test
    void asManyWritersAsTheCpusAllowAndOnTwoCpusTheNoteSaysWhy(@TempDir Path root) throws IOException {
        assertEquals(List.of(3), CpupriFamily.writerCounts(4, true), "--quick: the most writers");
        assertEquals(List.of(1, 3), CpupriFamily.writerCounts(4, false));
        assertEquals(List.of(1), CpupriFamily.writerCounts(2, true));
        Topology t = Topology.read(SysfsTree.build(root, 2, 4));
        CpuMask four = CpuMask.of(t.nbits(), 1, 2, 5, 6);
        var quick = new dev.corescope.bench.BenchContext(java.util.Optional.empty(), dev.corescope.bench.RunSize.QUICK,
                dev.corescope.bench.Progress.NONE);
        var runs = CpupriFamily.plan(t, four, quick);
        assertTrue(!runs.isEmpty() && runs.stream().allMatch(r -> r.writers() == 3), runs.toString());
        assertTrue(CpupriFamily.plan(t, CpuMask.of(t.nbits(), 1, 2), quick).stream().allMatch(r -> r.writers() == 1));
        List<String> twoNotes = CpupriView.planNotes(2, "1-2", null);
        assertTrue(twoNotes.stream().anyMatch(n -> n.contains("not testable here")), twoNotes.toString());
        assertTrue(CpupriView.planNotes(4, "1-2,5-6", null).stream().noneMatch(n -> n.contains("not testable here")));
    }

    /** The C twin runs as many writers as the Java plan, on the same CPUs (it ran one writer only). */
    @Test
    void theCTwinRunsAsManyWritersAsTheJavaRowsOnTheSameCpus(@TempDir Path root) throws IOException {
        org.junit.jupiter.api.Assumptions.assumeTrue(CpupriTwins.unavailableReason().isEmpty(),
                () -> "C twins not built: " + CpupriTwins.unavailableReason().orElseThrow());
        Topology t = Topology.read(SysfsTree.build(root, 2, 4));
        CpuMask four = CpuMask.of(t.nbits(), 1, 2, 5, 6);
        for (var size : List.of(dev.corescope.bench.RunSize.QUICK, dev.corescope.bench.RunSize.FULL)) {
            var context = new dev.corescope.bench.BenchContext(java.util.Optional.empty(), size, dev.corescope.bench.Progress.NONE);
            var runs = CpupriFamily.plan(t, four, context);
            var nativeRuns = runs.stream().filter(r -> r.implementation().equals("native")).toList();
            assertTrue(nativeRuns.stream().anyMatch(r -> r.writers() == 3), size + ": " + nativeRuns);
            for (var n : nativeRuns) {
                assertEquals(n.writers() + 1, n.cpus().length, n.toString());
                assertTrue(runs.stream().anyMatch(j -> j.implementation().equals("java") && j.writers() == n.writers()
                        && java.util.Arrays.equals(j.cpus(), n.cpus()) && j.workload().equals(n.workload())), n.toString());
            }
        }
    }

    /** A C row a claim counts gets enough runs to be judged on its own; a Java row its forks; the rest one run. */
    @Test
    void theCountedCRowsRunOftenEnoughToBeJudgedOnTheirOwnRuns() {
        var pair = new dev.corescope.topology.CpuPair("other-l3", 0, 1, "CPU 0 and CPU 1");
        int[] cpus = {0, 1};
        assertEquals(dev.corescope.report.SeedVerdicts.OWN_RUNS,
                CpupriFamily.runsPerSide(new CpupriFamily.Measurement("mechanism", "aligned", "native", pair, 1, cpus, null)));
        assertEquals(dev.corescope.report.SeedVerdicts.OWN_RUNS,
                CpupriFamily.runsPerSide(new CpupriFamily.Measurement("mechanism", "split", "native", pair, 1, cpus, null)),
                "the layouts of a workload run interleaved: all of them get the runs");
        assertEquals(dev.corescope.report.SeedVerdicts.RUNS_PER_SIDE,
                CpupriFamily.runsPerSide(new CpupriFamily.Measurement("mechanism", "packed", "java", pair, 1, cpus, null)));
        assertEquals(1, CpupriFamily.runsPerSide(new CpupriFamily.Measurement("cpupri", "packed", "native", pair, 1, cpus, "writers")));
    }

    @Test
    void theForkGetsTheRunsCpusInOrderNotAPlacementNameToRederive() {
        var pair = new dev.corescope.topology.CpuPair("same-l3", 5, 1, "CPU 5 and CPU 1");
        var run = new CpupriFamily.Measurement("cpupri", "packed", "java", pair, 2, new int[]{5, 1, 2}, "writers");
        var options = CpupriFamily.options(run, dev.corescope.bench.Jmh.Settings.SMOKE).build();
        assertEquals(List.of("5/1/2"), List.copyOf(options.getParameter("pinned").get()));
        assertTrue(!options.getParameter("placement").hasValue(), "no placement name for the fork to look up again");
        assertTrue(!options.getParameter("cpus").hasValue());

        assertArrayEquals(new int[]{5, 1, 2}, CpupriBenchmark.pinned("5/1/2", 2), "the fork pins in the plan's order");
        var wrongCount = assertThrows(IllegalArgumentException.class, () -> CpupriBenchmark.pinned("5/1", 2));
        assertTrue(wrongCount.getMessage().contains("2 CPUs for 3 threads"), wrongCount.getMessage());
        assertThrows(IllegalArgumentException.class, () -> CpupriBenchmark.pinned("5/5/1", 2));
        assertThrows(IllegalArgumentException.class, () -> CpupriBenchmark.pinned("5/x/1", 2));
    }

    private static String text(FamilyRun run) {
        return dev.corescope.testing.FamilyRuns.text(new CpupriFamily(), run);
    }

    private static java.util.List<String> notes(FamilyRun run) {
        return dev.corescope.testing.FamilyRuns.notes(new CpupriFamily(), run);
    }
}
