package dev.corescope.bench.c2c;

import dev.corescope.bench.BenchContext;
import dev.corescope.bench.FamilyRun;
import dev.corescope.bench.Progress;
import dev.corescope.bench.RunSize;
import dev.corescope.cpumask.CpuMask;
import dev.corescope.sys.internal.Os;
import dev.corescope.testing.Approved;
import dev.corescope.topology.Placement;
import dev.corescope.topology.Topology;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 28's c2c that scales: the plan (pair classes, representatives, counts), sampling by
 * relation, adaptive stopping and one direction where the two agree, counted in samples taken
 * (work), not time, with a fake sampler on saved trees, one of them beyond 1024 CPUs.
 */
class C2cPlanTest {

    @TempDir
    Path dir;

    /** A sampler whose latency is {@code ns(from, to)}, with {@code jitter} relative noise; counts samples. */
    static final class Fake implements C2cSweep.Sampler {
        final Random random = new Random(1);
        final double jitter;
        final java.util.function.IntBinaryOperator ns;
        long samples;

        Fake(double jitter, java.util.function.IntBinaryOperator ns) {
            this.jitter = jitter;
            this.ns = ns;
        }

        @Override
        public double[] sample(boolean nativeTwin, int from, int to, int roundTrips, int n) {
            samples += n;
            double[] out = new double[n];
            for (int i = 0; i < n; i++) out[i] = ns.applyAsInt(from, to) * (1 + jitter * (random.nextDouble() - 0.5));
            return out;
        }
    }

    private Topology tree(int packages, int cores) throws Exception {
        return Topology.read(SysfsTree.build(dir, packages, cores));
    }

    @Test
    void withoutCacheInformationEveryPairStillGetsTheInnermostClassItIsKnownToShare() throws Exception {
        Path root = SysfsTree.build(dir, 2, 2);
        for (int cpu = 0; cpu < 4; cpu++) {
            try (var walk = java.nio.file.Files.walk(root.resolve("sys/devices/system/cpu/cpu" + cpu + "/cache"))) {
                for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) java.nio.file.Files.delete(p);
            }
        }
        Topology t = Topology.read(root);
        assertEquals(Optional.empty(), t.relation(0, 1), "the tree cannot tell which cache two cores share");
        PairClasses ix = new PairClasses(t);
        assertEquals(Placement.OTHER_L3, ix.of(0, 1), "same package, caches unknown: the innermost known level");
        assertEquals(Placement.OTHER_PACKAGE, ix.of(1, 2));
        assertEquals("other-l3", ix.of(0, 1).key());
    }

    @Test
    void theIndexClassifiesPairsByWhatTheyShare() throws Exception {
        Topology t = tree(2, 4);
        PairClasses ix = new PairClasses(t);
        assertEquals(Placement.SAME_L3, ix.of(0, 1));
        assertEquals(Placement.SAME_L3, ix.of(5, 7));
        assertEquals(Placement.OTHER_PACKAGE, ix.of(0, 4));
        Map<Placement, List<int[]>> reps = ix.representatives(t.usable().toArray(), 3);
        assertEquals(List.of(Placement.SAME_L3, Placement.OTHER_PACKAGE), List.copyOf(reps.keySet()));
        for (var e : reps.entrySet()) for (int[] p : e.getValue()) assertEquals(e.getKey(), ix.of(p[0], p[1]));
        assertTrue(reps.get(Placement.SAME_L3).stream().anyMatch(p -> p[0] >= 4), "representatives from both packages");
        C2cPlan plan = C2cPlan.of(ix, t.usable().toArray(), false, RunSize.FULL, true);
        assertEquals(Map.of(Placement.SAME_L3, 12L, Placement.OTHER_PACKAGE, 16L), plan.pairsInClass());
    }

    @Test
    void byRelationMeasuresTheRepresentativesOnlyAndOneWayWhereTheDirectionsAgree() throws Exception {
        Topology t = tree(2, 8);
        Fake fake = new Fake(0, (a, b) -> a / 8 == b / 8 ? 40 : 200);
        FamilyRun run = new C2cFamily(false, fake).run(new BenchContext(Optional.empty(), RunSize.FULL, Progress.NONE, Os.live(), t));
        C2cModel m = (C2cModel) run.model();
        // 3 same-L3 and 1 other-package representatives (one package pair), each class's first also backwards
        long sameL3 = m.pairs().stream().filter(p -> p.relation().equals("same-l3")).count();
        long otherPkg = m.pairs().stream().filter(p -> p.relation().equals("other-package")).count();
        assertEquals(3 + 1, sameL3);
        assertTrue(otherPkg >= 2 && otherPkg <= 4, "other-package pairs: " + otherPkg);
        assertTrue(m.pairs().size() < 16 * 15, "not the whole matrix");
        // constant latency: every measurement stops at the minimum, Java and C, +1 dropped sample
        C2cPlan.Sampling s = C2cPlan.Sampling.of(RunSize.FULL);
        assertEquals(2L * m.pairs().size() * (s.min() + 1), fake.samples);
        assertTrue(text(run).contains("same L3"), text(run));
        assertTrue(text(run).contains("other package"), text(run));
    }

    @Test
    void aNoisyPairTakesMoreSamplesUpToTheMaximumAndAQuietOneStopsAtTheMinimum() throws Exception {
        Topology t = tree(1, 2);
        C2cPlan plan = C2cPlan.of(new PairClasses(t), t.usable().toArray(), false, RunSize.FULL, false);
        Fake quiet = new Fake(0.001, (a, b) -> 50);
        new C2cSweep(plan, new PairClasses(t), quiet, Progress.NONE).run();
        Fake noisy = new Fake(1.5, (a, b) -> 50);
        C2cSweep sweep = new C2cSweep(plan, new PairClasses(t), noisy, Progress.NONE);
        List<C2cSweep.Measured> measured = sweep.run();
        C2cPlan.Sampling s = plan.sampling();
        assertEquals(2L * (s.min() + 1), quiet.samples, "two directions, each done after its first batch");
        for (C2cSweep.Measured x : measured) assertEquals(s.max(), x.java().samples(), "a noisy pair runs to the maximum");
    }

    @Test
    void aClassWhoseDirectionsDisagreeIsMeasuredBothWays() throws Exception {
        Topology t = tree(1, 8);
        Fake lopsided = new Fake(0, (a, b) -> a < b ? 40 : 80);
        C2cPlan plan = C2cPlan.of(new PairClasses(t), t.usable().toArray(), false, RunSize.QUICK, false);
        C2cSweep sweep = new C2cSweep(plan, new PairClasses(t), lopsided, Progress.NONE);
        List<C2cSweep.Measured> m = sweep.run();
        assertEquals(2 * 3, m.size(), "3 representatives, each both ways");
        assertEquals(java.util.Set.of(Placement.SAME_L3), sweep.asymmetric);
    }

    @Test
    void fullMeasuresEveryPairOnceInJavaWhereTheDirectionsAgree() throws Exception {
        Topology t = tree(2, 6);
        Fake fake = new Fake(0, (a, b) -> a / 6 == b / 6 ? 40 : 200);
        C2cPlan plan = C2cPlan.of(new PairClasses(t), t.usable().toArray(), true, RunSize.QUICK, true);
        List<C2cSweep.Measured> m = new C2cSweep(plan, new PairClasses(t), fake, Progress.NONE).run();
        assertEquals(12 * 11 / 2 + 2, m.size(), "every unordered pair once, plus one reverse check per class");
        assertEquals(plan.pairsAtLeast(), m.size());
        long twinned = m.stream().filter(x -> x.nativeTwin() != null).count();
        assertEquals(plan.representatives().values().stream().mapToLong(List::size).sum() + 2, twinned, "C on the representatives");
    }

    /**
     * A saved tree whose CPUs are numbered past cpu_set_t's 1024 (0-3 in one package, 1280-1283
     * in another): the index, the plan and the sweep work there, the plan's pairs name them.
     */
    @Test
    void aPlanBeyond1024CpusOnASavedTree() throws Exception {
        Topology t = Topology.read(SysfsTree.build(dir, new int[][]{{0, 1, 2, 3}, {1280, 1281, 1282, 1283}}));
        assertEquals(8, t.usable().weight());
        assertTrue(t.nbits() > 1280, "nbits " + t.nbits());
        PairClasses ix = new PairClasses(t);
        assertEquals(Placement.SAME_L3, ix.of(1281, 1283));
        assertEquals(Placement.OTHER_PACKAGE, ix.of(3, 1280));
        C2cPlan plan = C2cPlan.of(ix, t.usable().toArray(), false, RunSize.QUICK, true);
        assertEquals(Map.of(Placement.SAME_L3, 12L, Placement.OTHER_PACKAGE, 16L), plan.pairsInClass());
        int[] high = plan.representatives().values().stream().flatMap(List::stream).flatMapToInt(Arrays::stream).filter(c -> c >= 1024).toArray();
        assertTrue(high.length > 0, "a representative beyond 1024");
        Fake fake = new Fake(0, (a, b) -> 100);
        List<C2cSweep.Measured> m = new C2cSweep(plan, ix, fake, Progress.NONE).run();
        assertTrue(m.stream().anyMatch(x -> x.to() >= 1024 && x.from() >= 1024), "a pair beyond 1024 measured");
        String text = plan.text("a saved tree");
        Approved.verify("c2c/plan-beyond-1024.txt", text);
    }

    private static String text(FamilyRun run) {
        return dev.corescope.testing.FamilyRuns.text(new C2cFamily(), run);
    }

    private static java.util.List<String> notes(FamilyRun run) {
        return dev.corescope.testing.FamilyRuns.notes(new C2cFamily(), run);
    }
}
