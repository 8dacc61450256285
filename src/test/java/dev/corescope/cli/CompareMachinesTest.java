package dev.corescope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.corescope.report.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code compare} and {@code report} on files from two machines: by relation and by claim, never pair by pair. */
class CompareMachinesTest {

    @TempDir
    Path tmp;

    /** c2c-quick.json as measured, and the same file claimed by another machine (another CPU model, more CPUs). */
    private Path[] twoMachines() throws Exception {
        Path saved = Path.of(System.getProperty("corescope.basedir", "."), "src/test/resources/results/c2c-quick.json");
        ObjectNode a = (ObjectNode) Json.MAPPER.readTree(saved.toFile());
        a.putArray("claims").addObject().put("id", "c2c.synthetic").put("family", "c2c").put("finding", "supports").put("measured", true);
        ObjectNode b = a.deepCopy();
        ((ObjectNode) b.path("environment")).put("cpuModel", "Synthetic Other CPU").put("online", "0-63");
        ((ObjectNode) b.path("claims").get(0)).put("finding", "contradicts");
        for (JsonNode p : b.path("models").path("c2c").path("pairs")) ((ObjectNode) p.path("java")).put("median", 55.0);
        Path fa = tmp.resolve("a.json");
        Path fb = tmp.resolve("b.json");
        Files.writeString(fa, Json.MAPPER.writeValueAsString(a));
        Files.writeString(fb, Json.MAPPER.writeValueAsString(b));
        return new Path[] {fa, fb};
    }

    @Test
    void compareSaysTheyAreTwoMachinesAndComparesByRelationAndClaim() throws Exception {
        Path[] f = twoMachines();
        String out = CliRun.run("compare", f[0].toString(), f[1].toString()).succeeded().out();
        assertTrue(out.startsWith("== Two different machines"), out);
        assertTrue(out.contains("same l3"), out);
        assertTrue(out.lines().anyMatch(l -> l.contains("same l3") && l.contains("java") && l.contains("55") && l.contains("2.02x")), out);
        assertTrue(out.lines().anyMatch(l -> l.contains("c2c.synthetic") && l.contains("supports") && l.contains("contradicts") && l.contains("differs")), out);
        assertFalse(out.contains("from=0"), "no CPU pair rows: " + out);
        JsonNode j = Json.MAPPER.readTree(CliRun.run("compare", f[0].toString(), f[1].toString(), "--format", "json").succeeded().out());
        assertTrue(j.path("machines").path("differentMachines").asBoolean());
        assertEquals("same_l3", j.path("machines").path("c2c").get(0).path("relation").asText());
        assertFalse(j.path("rows").toString().contains("\"from\""), "no c2c pair rows");
    }

    @Test
    void theSameMachineIsStillComparedRowByRow() throws Exception {
        Path[] f = twoMachines();
        String out = CliRun.run("compare", f[0].toString(), f[0].toString()).succeeded().out();
        assertFalse(out.contains("Two different machines"), out);
    }

    @Test
    void reportShowsTheTwoMachinesSideBySide() throws Exception {
        Path[] f = twoMachines();
        Path page = tmp.resolve("page.html");
        CliRun.run("report", f[0].toString(), f[1].toString(), "-o", page.toString()).succeeded();
        String html = Files.readString(page);
        assertTrue(html.contains("<h2>Two machines side by side</h2>"), "the machines section");
        assertTrue(html.contains("Synthetic Other CPU"));
        assertTrue(html.contains("<td>c2c.synthetic</td><td>supports</td><td>contradicts</td>"), "verdicts on each");
        assertEquals(2, html.split("<figure class=\"topology\" style=").length - 1, "two topology pictures side by side");
    }
}
