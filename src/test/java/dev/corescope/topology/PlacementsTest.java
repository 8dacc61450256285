package dev.corescope.topology;

import dev.corescope.cpumask.CpuMask;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PlacementsTest {

    private static List<String> pairs(List<CpuPair> ps) {
        return ps.stream().map(p -> p.from() + "-" + p.to()).toList();
    }

    @Test
    void smtPairsOfTheFourSocketMachineAreTheThreadSiblings() {
        Topology t = Topology.read(Fixtures.root("16em64t-4s2c2t"));
        assertEquals(List.of("0-8", "1-9", "2-10", "3-11", "4-12", "5-13", "6-14", "7-15"),
                pairs(Placements.all(t, t.usable(), "same-core")));
    }

    @Test
    void fourSocketMachineOffersSmtSameL3AndCrossPackageButNoCrossL3() {
        Topology t = Topology.read(Fixtures.root("16em64t-4s2c2t"));
        List<CpuPair> ps = Placements.of(t, t.usable());
        assertEquals(List.of("same-core", "same-l3", "other-package", "any"), ps.stream().map(CpuPair::name).toList());
        assertEquals(List.of("0-8", "0-4", "0-1", "0-1"), pairs(ps));
        assertEquals("CPU 0 and CPU 4: different cores, same L3 (4 MiB)", ps.get(1).description());
    }

    @Test
    void sameL3PairsShareAnL3ButNotACore() {
        Topology t = Topology.read(Fixtures.root("16em64t-4s2c2t"));
        List<CpuPair> all = Placements.all(t, t.usable(), "same-l3");
        // per package 4 PUs in 2 cores: 2*2 cross-core pairs, 4 packages
        assertEquals(16, all.size());
        for (CpuPair p : all) {
            TopologyNode a = t.nodeOf(TopologyNode.Kind.CORE, p.from()).orElseThrow();
            TopologyNode b = t.nodeOf(TopologyNode.Kind.CORE, p.to()).orElseThrow();
            assertTrue(a != b);
            assertEquals(t.nodeOf(TopologyNode.Kind.PACKAGE, p.from()), t.nodeOf(TopologyNode.Kind.PACKAGE, p.to()));
        }
    }

    @Test
    void armServerHasCrossL3PairsInsideAPackage() {
        Topology t = Topology.read(Fixtures.root("128arm-2pa2n8cluster4co"));
        Optional<CpuPair> p = Placements.find(t, t.usable(), "other-l3");
        assertEquals("0-32", p.map(x -> x.from() + "-" + x.to()).orElse("none"));
        assertEquals("other-package", Placements.find(t, t.usable(), "other-package").orElseThrow().name());
        assertEquals(0, Placements.find(t, t.usable(), "other-package").orElseThrow().from());
        assertEquals(64, Placements.find(t, t.usable(), "other-package").orElseThrow().to());
        assertTrue(Placements.find(t, t.usable(), "same-core").isEmpty(), "no SMT on this machine");
    }

    @Test
    void noL3MeansTheLastLevelCacheIsUsed() {
        Topology t = Topology.read(Fixtures.root("16amd64-8n2c"));
        // L2 is per core there: no two cores share the last level, so no same-l3 pair
        assertTrue(Placements.find(t, t.usable(), "same-l3").isEmpty());
        assertEquals("0-1", pairs(List.of(Placements.find(t, t.usable(), "other-l3").orElseThrow())).getFirst());
    }

    @Test
    void onlyUsableCpusAreChosen() {
        Topology t = Topology.read(Fixtures.root("16em64t-4s2c2t"));
        CpuMask usable = CpuMask.parseList("4,8,12", t.nbits());
        List<CpuPair> ps = Placements.of(t, usable);
        // cores {0,8} and {4,12} of package 0
        assertEquals(List.of("same-core", "same-l3", "any"), ps.stream().map(CpuPair::name).toList());
        assertEquals(List.of("4-12", "4-8", "4-8"), pairs(ps));
        for (CpuPair p : ps) assertTrue(usable.test(p.from()) && usable.test(p.to()), p.toString());
    }

    @Test
    void fewerThanTwoUsableCpusGiveNoPlacements() {
        Topology t = Topology.read(Fixtures.root("16em64t-4s2c2t"));
        assertEquals(List.of(), Placements.of(t, CpuMask.of(t.nbits(), 3)));
        assertEquals(List.of(), Placements.of(t, CpuMask.empty(t.nbits())));
    }

    @Test
    void anyIsTheFirstTwoUsableCpus() {
        Topology t = Topology.read(Fixtures.root("16em64t-4s2c2t-offlines"));
        CpuPair any = Placements.find(t, t.usable(), "any").orElseThrow();
        assertEquals(0, any.from());
        assertEquals(1, any.to());
    }

    @Test
    void offlineCpusAreNeverChosenEvenWhenUsableSaysSo() {
        Topology t = Topology.read(Fixtures.root("16em64t-4s2c2t-offlines"));
        CpuMask usable = CpuMask.full(t.nbits());
        for (String name : Placements.NAMES) {
            for (CpuPair p : Placements.all(t, usable, name)) {
                assertTrue(t.online().test(p.from()) && t.online().test(p.to()), p.toString());
            }
        }
    }

    @Test
    void unknownNameIsRejected() {
        Topology t = Topology.read(Fixtures.root("2arm-2c"));
        assertThrows(IllegalArgumentException.class, () -> Placements.find(t, t.usable(), "diagonal"));
    }

    @Test
    void eachPlacementHasOneKeyAndTheOlderSpellingsReadAsIt() {
        assertEquals(List.of("same-core", "same-l2", "same-l3", "other-l3", "other-node", "other-package"),
                java.util.Arrays.stream(Placement.values()).map(Placement::key).toList());
        for (Placement p : Placement.values()) assertEquals(Optional.of(p), Placement.ofKey(p.key()));
        assertEquals(Optional.of(Placement.SAME_CORE), Placement.ofKey("smt"));
        assertEquals(Optional.of(Placement.OTHER_L3), Placement.ofKey("cross-l3"));
        assertEquals(Optional.of(Placement.OTHER_L3), Placement.ofKey("other_l3"));
        assertEquals(Optional.of(Placement.OTHER_PACKAGE), Placement.ofKey("cross-package"));
        assertEquals(Optional.empty(), Placement.ofKey("diagonal"));
        assertEquals("other-l3", Placements.name("cross-l3"));
        assertThrows(IllegalArgumentException.class, () -> Placements.name("same-l2"), "a selector of its own only for what NAMES lists");
    }
}
