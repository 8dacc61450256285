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
        assertTrue(page.contains("<table class=\"layout-rows\">"));
        assertFalse(page.contains("<script"));
        try (var files = Files.list(dir)) {
            assertEquals(1, files.count(), "no temporary file left");
        }
    }

    @Test
    void theTextOpensWithTheVerdictsAndTheirLegendAndVerdictsAlonePrintsOnlyThem() {
        String text = CliRun.run("report", fixture("tour-before.json").toString(), "--format", "text").succeeded().out();
        assertTrue(text.startsWith("Verdicts ("), text);
        assertTrue(text.indexOf("| inconclusive: ") < text.indexOf("cpumask (cpumask_first_but(), June 2025): "), "the legend first");
        assertTrue(text.indexOf("locks (slub irqsave") < text.indexOf("== cpumask:"), "the verdicts before the evidence");
        String only = CliRun.run("report", fixture("tour-before.json").toString(), "--format", "text", "--verdicts").succeeded().out();
        assertTrue(only.startsWith("Verdicts (") && !only.contains("== cpumask:"), only);
        String one = CliRun.run("report", fixture("tour-before.json").toString(), "--format", "text", "--verdicts", "--family", "locks")
                .succeeded().out();
        assertTrue(one.contains("locks (slub irqsave") && !one.contains("cpumask (cpumask_first_but"), one);
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
}
