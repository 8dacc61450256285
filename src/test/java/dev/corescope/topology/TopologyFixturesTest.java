package dev.corescope.topology;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every shared tree of a real machine reads as hwloc reads it (hwloc-counts.json, from hwloc 2.9). */
class TopologyFixturesTest {

    static List<String> trees() {
        return Fixtures.names();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("trees")
    void countsAgreeWithHwloc(String name) {
        Topology t = Topology.read(Fixtures.root(name));
        JsonNode want = Fixtures.counts().get(name);
        Topology.Summary s = t.summary();
        assertAll(name,
                () -> assertEquals(want.get("pus").asInt(), s.pus(), "pus"),
                () -> assertEquals(want.get("cores").asInt(), s.cores(), "cores"),
                () -> assertEquals(want.get("packages").asInt(), s.packages(), "packages"),
                () -> assertEquals(want.get("numaNodes").asInt(), s.numaNodes(), "numaNodes"),
                () -> assertEquals(want.get("caches").get("L1d").asInt(), Fixtures.cacheCount(t, "L1d"), "L1d"),
                () -> assertEquals(want.get("caches").get("L1i").asInt(), Fixtures.cacheCount(t, "L1i"), "L1i"),
                () -> assertEquals(want.get("caches").get("L2").asInt(), Fixtures.cacheCount(t, "L2"), "L2"),
                () -> assertEquals(want.get("caches").get("L3").asInt(), Fixtures.cacheCount(t, "L3"), "L3"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("trees")
    void everyOnlineCpuIsExactlyOnePuOfTheTree(String name) {
        Topology t = Topology.read(Fixtures.root(name));
        int[] pus = t.pus().stream().mapToInt(TopologyNode::id).toArray();
        assertEquals(t.online().toList(), dev.corescope.cpumask.CpuMask.of(t.nbits(), pus).toList());
        assertEquals(t.online().weight(), pus.length);
        assertFalse(t.online().intersects(t.offline()), "online and offline overlap");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("trees")
    void savedTreeHasNoAllowedSetAndTheSummaryLineEndsTheText(String name) {
        Topology t = Topology.read(Fixtures.root(name));
        assertTrue(t.allowed().isEmpty());
        String text = TopologyText.render(t);
        String[] lines = text.split("\n");
        assertEquals(t.summaryLine(), lines[lines.length - 1]);
    }
}
