package dev.corescope.topology;

import dev.corescope.testing.Approved;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Text, JSON and SVG reports of the shared trees, against approved files and the CONTRACT. */
class TopologyReportsTest {

    static List<String> trees() {
        return Fixtures.names();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("trees")
    void textReportMatchesTheApprovedFile(String name) {
        Approved.verify("topology/" + name + ".txt", TopologyText.render(Topology.read(Fixtures.root(name))));
    }

    @Test
    void jsonReportOfTheHybridMachineMatchesTheApprovedFile() {
        Topology t = Topology.read(Fixtures.root("20em64t-hybrid-1p6c2t+2ca4co1t"));
        Approved.verify("topology/20em64t-hybrid-1p6c2t+2ca4co1t.json", withoutSource(TopologyJson.render(t)));
    }

    @Test
    void svgOfTheOfflinesMachineMatchesTheApprovedFile() {
        Approved.verify("topology/16em64t-4s2c2t-offlines.svg", TopologySvg.render(Topology.read(Fixtures.root("16em64t-4s2c2t-offlines"))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("trees")
    void jsonHasTheContractFieldsAndCountsAgreeWithTheTree(String name) throws Exception {
        Topology t = Topology.read(Fixtures.root(name));
        JsonNode j = new ObjectMapper().readTree(TopologyJson.render(t));
        for (String f : List.of("packages", "dies", "clusters", "cores", "pus", "numaNodes")) {
            assertTrue(j.get("summary").has(f), "summary." + f);
        }
        for (String f : List.of("online", "offline", "possible", "present", "isolated", "nohzFull")) {
            assertTrue(j.get("cpus").get(f).isTextual(), "cpus." + f);
        }
        assertFalse(j.get("cpus").has("allowed"), "allowed only for the live machine");
        int instances = 0;
        for (JsonNode c : j.get("caches")) {
            assertTrue(List.of("data", "instruction", "unified").contains(c.get("type").asText()));
            instances += c.get("count").asInt();
        }
        assertEquals(t.caches().size(), instances);
        // the tree holds every online PU once
        assertEquals(t.summary().pus(), countType(j.get("packages"), "pu"));
        assertEquals(t.summary().cores(), countType(j.get("packages"), "core"));
        assertEquals(t.summary().pus(), j.get("summary").get("pus").asInt());
        assertTrue(j.get("coreKinds").isArray());
        // every NUMA node within one package hangs exactly once in the tree (one spanning packages only in numaNodes)
        List<Integer> placed = new java.util.ArrayList<>();
        collectNuma(j.get("packages"), placed);
        List<Integer> withCpus = t.numaNodes().stream()
                .filter(n -> !n.cpus().isEmpty() && t.packages().stream().anyMatch(p -> n.cpus().isSubsetOf(p.cpus())))
                .map(NumaNode::id).toList();
        assertEquals(withCpus, placed.stream().sorted().toList());
    }

    private static void collectNuma(JsonNode nodes, List<Integer> into) {
        for (JsonNode node : nodes) {
            if (node.has("numaNodes")) for (JsonNode id : node.get("numaNodes")) into.add(id.asInt());
            if (node.has("children")) collectNuma(node.get("children"), into);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("trees")
    void svgIsWellFormedAndShowsEveryOnlinePu(String name) throws Exception {
        Topology t = Topology.read(Fixtures.root(name));
        String svg = TopologySvg.render(t);
        javax.xml.parsers.DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new java.io.ByteArrayInputStream(svg.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        Matcher m = Pattern.compile(">PU (\\d+)</text>").matcher(svg);
        int pus = 0;
        while (m.find()) pus++;
        int offlineBoxes = t.offline().weight() <= 64 ? t.offline().weight() : 0;
        assertEquals(t.summary().pus() + offlineBoxes, pus);
    }

    private static int countType(JsonNode nodes, String type) {
        int n = 0;
        for (JsonNode node : nodes) {
            if (node.get("type").asText().equals(type)) n++;
            if (node.has("children")) n += countType(node.get("children"), type);
        }
        return n;
    }

    private static String withoutSource(String json) {
        return json.replaceFirst("\"source\" : \"[^\"]*\"", "\"source\" : \"(fixture)\"");
    }
}
