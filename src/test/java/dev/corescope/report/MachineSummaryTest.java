package dev.corescope.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.corescope.bench.Families;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The machine summary a results file carries: c2c by relation from the c2c family's view of its model, machines told apart. */
class MachineSummaryTest {

    /** Two packages, two cores each, SMT on core 0 of package 0: every relation the model can tell. */
    private static ObjectNode model() {
        ObjectNode m = Json.MAPPER.createObjectNode();
        ArrayNode cpus = m.putArray("cpus");
        int[][] place = {{0, 0, 0}, {0, 0, 0}, {1, 0, 0}, {0, 1, 1}}; // cpu -> core, cache, pkg; cpu 1 is cpu 0's sibling
        for (int cpu = 0; cpu < place.length; cpu++) {
            cpus.addObject().put("cpu", cpu).put("core", place[cpu][0]).put("cache", "L3#" + place[cpu][1]).put("pkg", place[cpu][2]);
        }
        ArrayNode pairs = m.putArray("pairs");
        double[][] p = {{0, 1, 10}, {0, 2, 40}, {1, 2, 42}, {0, 3, 120}, {2, 3, 130}};
        for (double[] x : p) {
            ObjectNode pair = pairs.addObject().put("from", (int) x[0]).put("to", (int) x[1]);
            pair.putObject("java").put("median", x[2]).put("mean", x[2]).put("min", x[2]).put("samples", 5);
        }
        return m;
    }

    private static List<MachineSummary.RelationLatency> summarised(ObjectNode model) {
        return Families.views().relationLatencies(ResultsFile.builder().models(java.util.Map.of("c2c", model)).build());
    }

    @Test
    void pairsAreSummarisedByRelationNeverPairByPair() {
        List<MachineSummary.RelationLatency> c2c = summarised(model());
        assertEquals(List.of("same_core", "same_l3", "other_package"), c2c.stream().map(MachineSummary.RelationLatency::relation).toList());
        MachineSummary.RelationLatency l3 = c2c.get(1);
        assertEquals(2, l3.pairs());
        assertEquals(40, l3.p50Ns());
        assertEquals(42, l3.p99Ns());
        assertEquals(2, c2c.get(2).pairs());
    }

    @Test
    void anotherCpuModelOrOnlineSetIsAnotherMachineButAnotherKernelIsNot() {
        MachineSummary a = new MachineSummary("AMD EPYC", "6.1", "0-1", null, List.of(), null);
        assertTrue(a.differsFrom(new MachineSummary("Intel Xeon", "6.1", "0-1", null, List.of(), null)));
        assertTrue(a.differsFrom(new MachineSummary("AMD EPYC", "6.1", "0-63", null, List.of(), null)));
        assertFalse(a.differsFrom(new MachineSummary("AMD EPYC", "6.8", "0-1", null, List.of(), null)));
    }

    @Test
    void aFileWithoutASavedSummaryGetsOneFromItsData() {
        ResultsFile f = ResultsFile.builder().models(java.util.Map.of("c2c", model())).build();
        assertEquals(3, MachineSummary.of(f, Families.views()).c2c().size());
        assertEquals(List.of(), MachineSummary.of(f, FamilyViews.NONE).c2c(), "report reads no family's model itself");
        MachineSummary saved = new MachineSummary("x", null, null, null, List.of(), null);
        assertEquals(saved, MachineSummary.of(f.toBuilder().machine(saved).build(), Families.views()));
    }

    @Test
    void eachPairsSavedRelationIsTakenNotDerivedAgain() {
        ObjectNode m = model();
        for (var pair : m.get("pairs")) ((ObjectNode) pair).put("relation", "same-l2");
        List<MachineSummary.RelationLatency> c2c = summarised(m);
        assertEquals(List.of("same_l2"), c2c.stream().map(MachineSummary.RelationLatency::relation).toList());
        assertEquals(5, c2c.getFirst().pairs());
    }
}
