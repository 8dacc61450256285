package dev.corescope.cli;

import dev.corescope.testing.SavedRuns;
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
        assertTrue(out.contains("same L3"), out);
        assertTrue(out.lines().anyMatch(l -> l.contains("same L3") && l.contains("java") && l.contains("55") && l.contains("2.02x")), out);
        assertTrue(out.lines().anyMatch(l -> l.contains("c2c.synthetic") && l.contains("supports") && l.contains("contradicts") && l.contains("differs")), out);
        assertFalse(out.contains("from=0"), "no CPU pair rows: " + out);
        JsonNode j = Json.MAPPER.readTree(CliRun.run("compare", f[0].toString(), f[1].toString(), "--format", "json").succeeded().out());
        assertTrue(j.path("machines").path("differentMachines").asBoolean());
        assertEquals("same-l3", j.path("machines").path("c2c").get(0).path("relation").asText());
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
        assertTrue(html.contains("<th scope=\"row\">c2c.synthetic</th><td>supports</td><td>contradicts</td><td>differs</td>"), "verdicts on each");
        int at = html.indexOf("<section id=\"machines\">");
        String section = html.substring(at, html.indexOf("</section>", at));
        // the page's tables are compare's document of the two machines, the same parts its text prints
        dev.corescope.text.TextDoc doc = dev.corescope.report.ComparisonText.machines(dev.corescope.report.MachineComparison.of(
                f[0].toString(), SavedRuns.lenient(f[0]), f[1].toString(), SavedRuns.lenient(f[1]), dev.corescope.bench.Families.views()));
        long tables = doc.parts().stream().filter(p -> p instanceof dev.corescope.text.TextDoc.Table).count();
        assertEquals(tables, section.split("<table class=\"doc-table\"", -1).length - 1, section);
        assertTrue(section.contains("<th scope=\"row\">same L3</th><th scope=\"row\">java</th>"), section);
        assertEquals(2, html.split("<figure class=\"topology\" style=").length - 1, "two topology pictures side by side");
    }

    @Test
    void namesFromTheFilesStayTextOnThePageAndInTheTerminal() throws Exception {
        Path[] f = twoMachines();
        ObjectNode b = (ObjectNode) Json.MAPPER.readTree(f[1].toFile());
        ((ObjectNode) b.path("environment")).put("cpuModel", "<script>alert(1)</script>\u001b]0;PWNED\u0007");
        ((ObjectNode) b.path("claims").get(0)).put("id", "<img src=x onerror=alert(2)>");
        Files.writeString(f[1], Json.MAPPER.writeValueAsString(b));
        Path page = tmp.resolve("evil.html");
        CliRun.run("report", f[0].toString(), f[1].toString(), "-o", page.toString()).succeeded();
        String html = Files.readString(page);
        assertFalse(html.contains("<script>alert") || html.contains("<img src=x"), "markup from a file is text on the page");
        assertTrue(html.contains("&lt;img src=x onerror=alert(2)&gt;</th>"), "the claim, escaped, as its row's key");
        String out = CliRun.run("compare", f[0].toString(), f[1].toString()).succeeded().out();
        assertFalse(out.contains("\u001b") || out.contains("\u0007"), "no control character reaches the terminal");
        assertTrue(out.contains("\\e]0;PWNED\\x07"), out);
    }
}
