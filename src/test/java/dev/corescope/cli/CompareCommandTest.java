package dev.corescope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.corescope.report.Json;
import dev.corescope.report.Result;
import dev.corescope.report.ResultsFile;
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
        Json.writeAtomically(p, Json.write(new ResultsFile(ResultsFile.SCHEMA, null, List.of(
                new Result("timerbase", "before", "java", "op", "ns/op", score, 0.01, 10, "0", Map.of("timers", 1024))),
                null, null, null, null)));
        return p;
    }

    @Test
    void comparesTwoFilesAsText() throws Exception {
        CliRun r = CliRun.run("compare", write("a.json", 2.5).toString(), write("b.json", 2.0).toString()).succeeded();
        assertTrue(r.out().contains("timerbase  before   java  op      timers=1024  2.500 ± 0.0100  2.000 ± 0.0100  ns/op  -20.0%"), r.out());
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
        assertTrue(json.get("test").asText().startsWith("Welch's two-sided t-test"));
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
        CliRun.run("compare", p.toString(), write("b.json", 1).toString()).badInput(p + ": a field has the wrong type");
    }

    @Test
    void aFolderIsBadInput() throws Exception {
        CliRun.run("compare", dir.toString(), write("b.json", 1).toString()).badInput(dir + ": is a directory");
    }

    @Test
    void svgIsNotAFormatOfCompare() throws Exception {
        CliRun.run("compare", write("a.json", 1).toString(), write("b.json", 1).toString(), "--format", "svg")
                .badInput("--format svg: compare prints text or json");
    }
}
