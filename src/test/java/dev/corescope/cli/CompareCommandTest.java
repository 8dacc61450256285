package dev.corescope.cli;

import dev.corescope.sys.internal.AtomicFile;
import com.fasterxml.jackson.databind.JsonNode;
import dev.corescope.report.Json;
import dev.corescope.report.Result;
import dev.corescope.report.ResultsFile;
import dev.corescope.report.RunFigures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CompareCommandTest {

    @TempDir
    Path dir;

    private Path write(String name, double score) throws Exception {
        Path p = dir.resolve(name);
        AtomicFile.write(p, Json.write(ResultsFile.builder().results(List.of(
                Result.builder().benchmark("timerbase").variant("before").implementation("java").metric("op").unit("ns/op")
                        .score(score).error(0.01).samples(10).cpus("0").params(Map.of("timers", 1024)).runs(List.of(new RunFigures(score * 1.001, 5, 0.01), new RunFigures(score * 0.999, 5, 0.01))).build())).build()));
        return p;
    }

    private Path writeRaw(String name, String json) throws Exception {
        Path p = dir.resolve(name);
        Files.writeString(p, json);
        return p;
    }

    @Test
    void comparesTwoFilesAsText() throws Exception {
        CliRun r = CliRun.run("compare", write("a.json", 2.5).toString(), write("b.json", 2.0).toString()).succeeded();
        assertTrue(r.out().contains("timerbase op in ns/op: 1 row (timers=1024)\n"), r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.matches("  before +java +2\\.50 +\\[2\\.49, 2\\.51\\] +2\\.00 +(\\[1\\.99, 2\\.01\\] +)?-20\\.0 +\\[-25\\.0, -14\\.7\\]% +faster +2\\+2 .*")), r.out());
        assertTrue(r.out().strip().endsWith("add/remove: 0/0 better/worse: 1/0 same: 0 untested: 0 geomean time: -20.0% (1 matched)"), r.out());
    }

    @Test
    void comparesTwoFilesAsJson() throws Exception {
        CliRun r = CliRun.run("compare", write("a.json", 2.5).toString(), write("b.json", 2.0).toString(), "--format", "json").succeeded();
        JsonNode json = Json.MAPPER.readTree(r.out());
        assertEquals("better", json.get("rows").get(0).get("verdict").asText());
        assertEquals(-20.0, json.get("rows").get(0).get("deltaPercent").asDouble(), 1e-9);
        assertTrue(json.get("rows").get(0).get("significant").asBoolean());
        assertEquals(1, json.get("summary").get("better").asInt());
        assertTrue(json.get("summaryLine").asText().startsWith("add/remove: 0/0 better/worse: 1/0"));
        assertEquals("significant", json.get("rows").get(0).get("finding").asText());
        assertEquals(2, json.get("rows").get(0).get("runsBefore").asInt());
        assertTrue(json.get("rows").get(0).get("ciHighPercent").asDouble() < 0);
        assertTrue(json.get("test").asText().contains("Kalibera & Jones"));
    }

    @Test
    void aMissingFileIsBadInput() throws Exception {
        CliRun.run("compare", dir.resolve("nope.json").toString(), write("b.json", 1).toString())
                .badInput(dir.resolve("nope.json") + ": no such file");
    }

    @Test
    void aFileThatIsNotJsonIsBadInput() throws Exception {
        Path p = dir.resolve("text.json");
        Files.writeString(p, "hello\n");
        CliRun.run("compare", p.toString(), write("b.json", 1).toString()).badInput(p + ": not JSON (line 1, column");
    }

    @Test
    void anotherSchemaIsBadInput() throws Exception {
        Path p = dir.resolve("topology.json");
        Files.writeString(p, "{\"summary\": {}}\n");
        CliRun.run("compare", write("a.json", 1).toString(), p.toString())
                .badInput(p + ": not a corescope results file (schema missing, expected corescope-results/1)");
    }

    @Test
    void aFieldOfTheWrongTypeIsBadInput() throws Exception {
        Path p = dir.resolve("broken.json");
        Files.writeString(p, "{\"schema\": \"corescope-results/1\", \"results\": [{\"score\": \"fast\"}]}\n");
        CliRun.run("compare", p.toString(), write("b.json", 1).toString()).badInput(p + ": results[0].score: expected a number, found a string");
    }

    @Test
    void aFolderIsBadInput() throws Exception {
        CliRun.run("compare", dir.toString(), write("b.json", 1).toString()).badInput(dir + ": is a directory");
    }

    @Test
    void svgIsNotAFormatOfCompare() throws Exception {
        CliRun.run("compare", write("a.json", 1).toString(), write("b.json", 1).toString(), "--format", "svg")
                .badInput("expected text, json or html but was 'svg'");
    }

    @Test
    void textFitsTheWidthUnlessWide() throws Exception {
        Path a = Path.of("src/test/resources/results/tour-before.json"), b = Path.of("src/test/resources/results/tour-after.json");
        CliRun narrow = CliRun.run("compare", a.toString(), b.toString()).succeeded();
        int width = dev.corescope.text.Width.of(false);
        assertTrue(narrow.out().lines().allMatch(l -> l.length() <= width),
                narrow.out().lines().filter(l -> l.length() > width).findFirst().orElse(""));
        CliRun wide = CliRun.run("compare", a.toString(), b.toString(), "--wide").succeeded();
        assertTrue(wide.out().lines().anyMatch(l -> l.length() > 120 && l.contains("not measured") && l.endsWith("  -")), wide.out());
    }

    @Test
    void singleForkFilesAreNotResolvableWithoutAFloorAndResolvableWithOne() throws Exception {
        Path a = Path.of("src/test/resources/results/tour-before.json"), b = Path.of("src/test/resources/results/tour-after.json");
        JsonNode none = Json.MAPPER.readTree(CliRun.run("compare", a.toString(), b.toString(), "--format", "json").succeeded().out());
        assertEquals(0, none.get("summary").get("better").asInt() + none.get("summary").get("worse").asInt(),
                "one fork per row: nothing may be called better or worse");
        JsonNode floor = Json.MAPPER.readTree(CliRun.run("compare", a.toString(), b.toString(), "--noise-floor", "5",
                "--format", "json").succeeded().out());
        assertTrue(floor.get("summary").get("notResolvable").asInt() < none.get("summary").get("notResolvable").asInt());
    }

    @Test
    void repeatedRunsGivenAsMoreFilesAreMergedIntoRuns() throws Exception {
        CliRun r = CliRun.run("compare", write("a1.json", 2.5).toString(), write("b1.json", 2.0).toString(),
                "--before", write("a2.json", 2.6).toString(), "--after", write("b2.json", 2.1).toString(), "--format", "json").succeeded();
        JsonNode row = Json.MAPPER.readTree(r.out()).get("rows").get(0);
        assertEquals(4, row.get("runsBefore").asInt(), "two files of two forks each");
        assertEquals(2.55, row.get("before").asDouble(), 1e-9);
    }

    @Test
    void aRepeatedRowIsRefused() throws Exception {
        String row = "{\"benchmark\":\"cpumask\",\"variant\":\"first_but\",\"implementation\":\"java\",\"metric\":\"op\","
                + "\"unit\":\"ns/op\",\"score\":1.0,\"error\":0.1,\"samples\":5,\"params\":{\"nrCpus\":64}}";
        Path p = writeRaw("dup.json", "{\"schema\":\"corescope-results/1\",\"results\":[" + String.join(",", java.util.Collections.nCopies(3000, row)) + "]}");
        CliRun.run("compare", p.toString(), write("b.json", 1).toString())
                .badInput(p + ": results[1] repeats results[0] (cpumask first_but java op nrCpus=64)");
    }

    @Test
    void malformedRowsAreBadInput() throws Exception {
        String head = "{\"schema\":\"corescope-results/1\",\"results\":";
        String ok = "\"benchmark\":\"cpumask\",\"variant\":\"v\",\"implementation\":\"java\",\"metric\":\"op\",\"unit\":\"ns/op\",\"score\":1.0";
        Path b = write("b.json", 1);
        Path nul = writeRaw("null.json", head + "null}");
        CliRun.run("compare", nul.toString(), b.toString()).badInput(nul + ": \"results\" is null");
        Path empty = writeRaw("empty.json", head + "[{}]}");
        CliRun.run("compare", empty.toString(), b.toString()).badInput(empty + ": results[0] has no \"benchmark\"");
        Path negative = writeRaw("neg.json", head + "[{" + ok + ",\"error\":-1.0,\"samples\":5}]}");
        CliRun.run("compare", negative.toString(), b.toString()).badInput(negative + ": results[0]: error -1.000 is negative");
        Path zero = writeRaw("zero.json", head + "[{" + ok + ",\"error\":0.1,\"samples\":0}]}");
        CliRun.run("compare", zero.toString(), b.toString()).badInput(zero + ": results[0]: samples 0");
        CliRun.run("compare", b.toString(), b.toString(), "--noise-floor", "lots").badInput("--noise-floor lots: not a percentage");
    }

    @Test
    void jmhsOwnJsonOutputIsReadWithItsForksAsRuns() throws Exception {
        String jmh = Path.of("src/test/resources/results/jmh-calibration.json").toString();
        JsonNode row = Json.MAPPER.readTree(CliRun.run("compare", jmh, jmh, "--format", "json").succeeded().out()).get("rows").get(0);
        assertEquals("CompareCalibrationBenchmark", row.get("benchmark").asText());
        assertEquals("work", row.get("variant").asText());
        assertEquals("avgt", row.get("metric").asText());
        assertEquals(2, row.get("runsBefore").asInt(), "two forks in rawData");
        assertEquals("no change detectable here", row.get("finding").asText());
        Path broken = writeRaw("jmh-broken.json", "[{\"benchmark\": \"a.B.c\"}]");
        CliRun.run("compare", broken.toString(), jmh).badInput(broken + ": [0] has no primaryMetric");
    }

    @Test
    void htmlIsTheReportsBeforeAndAfterView() throws Exception {
        CliRun r = CliRun.run("compare", write("a.json", 2.5).toString(), write("b.json", 2.0).toString(), "--format", "html").succeeded();
        assertTrue(r.out().startsWith("<!DOCTYPE html>"), r.out());
        assertTrue(r.out().contains("<section id=\"compare\">") && r.out().contains("<svg class=\"ci\""), r.out());
    }
}
