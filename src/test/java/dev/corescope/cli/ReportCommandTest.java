package dev.corescope.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReportCommandTest {

    @TempDir
    Path dir;

    /** Two real tour runs on the 2-CPU development machine (KVM, no PMU), one after the other. */
    static Path fixture(String name) {
        return Path.of(System.getProperty("corescope.basedir", "."), "src/test/resources/results", name);
    }

    @Test
    void writesOnePageFromTwoRealRunsWithTheCompareTable() throws Exception {
        Path html = dir.resolve("report.html");
        CliRun r = CliRun.run("report", fixture("tour-before.json").toString(), fixture("tour-after.json").toString(), "-o", html.toString())
                .succeeded();
        assertTrue(r.out().startsWith("report written to " + html + " ("), r.out());
        String page = Files.readString(html);
        assertTrue(page.startsWith("<!DOCTYPE html>"));
        assertTrue(page.contains("<section id=\"compare\">"));
        assertTrue(page.contains("<figure class=\"topology\" id=\"topology-1\">"));
        assertTrue(page.contains("<figure class=\"heatmap\">"));
        assertTrue(page.contains("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"histogram\""));
        assertTrue(page.contains("memory layouts not drawn"), "a file without cpupri's model: its layouts are not drawn by the shell");
        assertFalse(page.contains("<script"));
        try (var files = Files.list(dir)) {
            assertEquals(1, files.count(), "no temporary file left");
        }
    }

    @Test
    void theTextOpensWithTheVerdictsAndTheirLegendAndVerdictsAlonePrintsOnlyThem() {
        String text = CliRun.run("report", fixture("tour-before.json").toString(), "--format", "text").succeeded().out();
        assertTrue(text.startsWith("Verdicts ("), text);
        assertTrue(text.indexOf("| inconclusive: ") < text.indexOf("cpumask_first_but(), June 2025"), "the legend first");
        assertTrue(text.indexOf("locks.irqsave-cost") < text.indexOf("== cpumask:"), "the verdicts before the evidence");
        String only = CliRun.run("report", fixture("tour-before.json").toString(), "--format", "text", "--verdicts").succeeded().out();
        assertTrue(only.startsWith("Verdicts (") && !only.contains("== cpumask:"), only);
        String one = CliRun.run("report", fixture("tour-before.json").toString(), "--format", "text", "--verdicts", "--family", "locks")
                .succeeded().out();
        assertTrue(one.contains("slub irqsave measurements") && one.contains("locks.irqsave-cost")
                && !one.contains("cpumask_first_but(), June 2025") && !one.contains("cpumask.time-per-call"), one);
        CliRun.run("report", fixture("tour-before.json").toString(), "--verdicts", "-o", dir.resolve("x.html").toString())
                .badInput("--verdicts");
    }

    @Test
    void withoutOutputItIsBadInput() {
        CliRun.run("report", fixture("tour-before.json").toString()).badInput("-o");
    }

    @Test
    void aBadResultsFileIsBadInputAndWritesNothing() throws Exception {
        Path bad = dir.resolve("bad.json");
        Files.writeString(bad, "[1, 2]");
        Path html = dir.resolve("r.html");
        CliRun.run("report", fixture("tour-before.json").toString(), bad.toString(), "-o", html.toString())
                .badInput(bad + ": not a corescope results file (not a JSON object)");
        assertFalse(Files.exists(html));
    }

    @Test
    void anOutputInAMissingFolderIsBadInput() {
        Path html = dir.resolve("no/such/r.html");
        CliRun.run("report", fixture("tour-before.json").toString(), "-o", html.toString()).badInput("does not exist");
    }

    /**
     * The one rule for results files from other corescopes (page and text alike): a file of this
     * schema written before the topology was saved as a model still renders, its saved picture
     * shown; a file of another schema is refused in one line that names the schema it has.
     */
    @Test
    void anOlderFileOfThisSchemaRendersAndAnotherSchemaIsRefusedNamingIt() throws Exception {
        Path old = fixture("tour-before.json");
        var tree = dev.corescope.report.Json.MAPPER.readTree(old.toFile());
        assertTrue(tree.get("topology").has("svg") && !tree.get("topology").has("hwlocXml"), "the fixture is a file from before the model");
        Path html = dir.resolve("old.html");
        CliRun.run("report", old.toString(), "-o", html.toString()).succeeded();
        String page = Files.readString(html);
        assertTrue(page.contains("<figure class=\"topology\" id=\"topology-1\"><figcaption>Topology of the machine the results were measured on</figcaption><svg"), "its saved picture");

        ((com.fasterxml.jackson.databind.node.ObjectNode) tree).put("schema", "corescope-results/2");
        Path newer = dir.resolve("newer.json");
        Files.writeString(newer, dev.corescope.report.Json.MAPPER.writeValueAsString(tree));
        Path out = dir.resolve("newer.html");
        CliRun.run("report", newer.toString(), "-o", out.toString())
                .badInput(newer + ": not a corescope results file (schema 'corescope-results/2', expected corescope-results/1)");
        assertFalse(Files.exists(out));
        CliRun.run("report", newer.toString(), "--format", "text").badInput("schema 'corescope-results/2'");
    }
}
