package dev.corescope.bench.locks;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.topology.Fixtures;
import dev.corescope.topology.CpuPair;
import dev.corescope.topology.Topology;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which CPUs the contended threads get. */
class ContendedPlacementsTest {

    /** For choices that must not need the topology. */
    private static final Supplier<Topology> NOT_READ = () -> {
        throw new AssertionError("the topology was read");
    };

    @Test
    void withoutCpusTheSavedFourSocketMachineGetsOnePairPerKindItOffers() {
        Topology t = Topology.read(Fixtures.root("16em64t-4s2c2t"));
        List<ThreadPlacement> p = ContendedPlacements.choose(Optional.empty(), t.usable(), () -> t);
        assertEquals(List.of("same-core", "same-l3", "other-package"), p.stream().map(ThreadPlacement::name).toList());
        for (ThreadPlacement tp : p) {
            assertEquals(2, tp.threads());
            assertTrue(!tp.cpus().get(0).equals(tp.cpus().get(1)), tp.toString());
        }
        assertEquals(List.of(0, 8), p.get(0).cpus(), "CPU 0's SMT sibling on this machine is CPU 8");
    }

    @Test
    void anUnreadableTopologyFallsBackToTheFirstTwoAllowedCpus() {
        List<ThreadPlacement> p = ContendedPlacements.choose(Optional.empty(), CpuMask.parseList("5,9-11", 64),
                () -> {
                    throw new IllegalStateException("no sysfs");
                });
        assertEquals(1, p.size());
        assertEquals(List.of(5, 9), p.get(0).cpus());
        assertEquals("no sysfs", p.get(0).topologyError(), "the reason reaches the model's facts and its note");
    }

    @Test
    void oneCpuMeansNoContendedModeAndSaysWhy() {
        CpuMask one = CpuMask.of(8, 3);
        assertEquals(List.of(), ContendedPlacements.choose(Optional.empty(), one, NOT_READ));
        assertEquals("contended mode skipped: only CPU 3 is allowed, and it needs two", ContendedPlacements.skipReason(Optional.empty(), one).words());
        assertEquals(List.of(), ContendedPlacements.choose(Optional.of(one), CpuMask.full(8), NOT_READ));
        assertEquals(new LocksModel.ContendedSkip(LocksModel.ContendedSkip.Why.ONE_CPU_GIVEN, "3"),
                ContendedPlacements.skipReason(Optional.of(one), CpuMask.full(8)));
        assertTrue(ContendedPlacements.skipReason(Optional.of(one), CpuMask.full(8)).words().contains("--cpus 3 names one CPU"));
    }

    @Test
    void theCpusListGivesOneThreadPerCpu() {
        List<ThreadPlacement> p = ContendedPlacements.choose(Optional.of(CpuMask.parseList("0,2,5", 8)), CpuMask.full(8), NOT_READ);
        assertEquals(1, p.size());
        assertEquals("cpus", p.get(0).name());
        assertEquals(List.of(0, 2, 5), p.get(0).cpus());
        assertEquals("0,2,5", p.get(0).cpuList());
    }

    @Test
    void aLongCpusListIsCutToOneCounterPerThread() {
        List<ThreadPlacement> p = ContendedPlacements.choose(Optional.of(CpuMask.full(12)), CpuMask.full(12), NOT_READ);
        assertEquals(ContendedLockBenchmark.MAX_THREADS, p.get(0).threads());
        assertEquals(List.of(0, 1, 2, 3, 4, 5, 6, 7), p.get(0).cpus(), "its first 8: one counter per thread");
    }

    @Test
    void everyKindTheTopologyOffersIsRunButAnyOnlyWhenThereIsNoOther() {
        List<ThreadPlacement> p = ContendedPlacements.fromPairs(List.of(
                new CpuPair("same-core", 0, 8, "CPU 0 and CPU 8: one core"),
                new CpuPair("same-l3", 0, 1, "CPU 0 and CPU 1: same L3"),
                new CpuPair("other-package", 0, 4, "CPU 0 and CPU 4: two packages"),
                new CpuPair("any", 0, 1, "CPU 0 and CPU 1")));
        assertEquals(List.of("same-core", "same-l3", "other-package"), p.stream().map(ThreadPlacement::name).toList());
        assertEquals(List.of(0, 8), p.get(0).cpus());

        List<ThreadPlacement> onlyAny = ContendedPlacements.fromPairs(List.of(new CpuPair("any", 2, 3, "CPU 2 and CPU 3")));
        assertEquals(List.of("any"), onlyAny.stream().map(ThreadPlacement::name).toList());
    }
}
