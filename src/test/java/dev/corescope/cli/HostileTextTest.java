package dev.corescope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.corescope.report.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Strings from a file reach the terminal escaped, in every command (issue 23, point 6): no
 * ESC, BEL or CR, and no newline that would start a forged line.
 */
class HostileTextTest {

    static final String EVIL = "\u001b]0;PWNED\u0007\u001b[2J\r\nFAKE LINE";
    static final String SHOWN = "\\e]0;PWNED\\x07\\e[2J\\r\\nFAKE LINE";

    @TempDir
    Path tmp;

    private static void assertSafe(String out) {
        assertFalse(out.chars().anyMatch(c -> c == 0x1b || c == 0x07 || c == '\r'), out);
        assertFalse(out.lines().anyMatch(l -> l.startsWith("FAKE LINE")), "a forged line: " + out);
    }

    /** cpumask-quick.json with the CPU model, a benchmark name and a param value made hostile. */
    private Path hostileResults() throws Exception {
        ObjectNode root = (ObjectNode) Json.MAPPER.readTree(Path.of("src/test/resources/results/cpumask-quick.json").toFile());
        ((ObjectNode) root.get("environment")).put("cpuModel", EVIL);
        int i = 0;
        java.util.Map<JsonNode, JsonNode> renamed = new java.util.HashMap<>();
        for (JsonNode r : root.get("results")) {
            JsonNode params = r.get("params");
            if (params instanceof ObjectNode p && p.size() > 0) {
                JsonNode before = pointer(r);
                String k = p.fieldNames().next();
                p.put(k, p.get(k).asText() + EVIL + i++);
                renamed.put(before, p);
            }
        }
        repoint(root.get("models"), renamed);
        Path out = tmp.resolve("evil.json");
        Json.MAPPER.writeValue(out.toFile(), root);
        return out;
    }

    /** A row as a model points at it: its key fields. */
    private static JsonNode pointer(JsonNode row) {
        ObjectNode key = Json.MAPPER.createObjectNode();
        for (String f : new String[]{"benchmark", "variant", "implementation", "metric", "params"}) if (row.has(f)) key.set(f, row.get(f).deepCopy());
        return key;
    }

    /** The models' pointers at rows whose params changed, changed the same way. */
    private static void repoint(JsonNode node, java.util.Map<JsonNode, JsonNode> renamed) {
        if (node instanceof ObjectNode o && renamed.containsKey(o)) {
            o.set("params", renamed.get(o).deepCopy());
            return;
        }
        for (JsonNode child : node) repoint(child, renamed);
    }

    @Test
    void compareEscapesTheEnvironmentAndTheRows() throws Exception {
        Path evil = hostileResults();
        for (String width : new String[]{"--wide", "--format=text"}) {
            CliRun run = CliRun.run("compare", "src/test/resources/results/cpumask-quick.json", evil.toString(), width);
            assertEquals(0, run.exitCode(), run.err());
            assertSafe(run.out());
            assertTrue(run.out().contains("cpuModel") && run.out().contains(SHOWN), run.out());
        }
    }

    @Test
    void reportTextEscapesWhatTheFileSays() throws Exception {
        CliRun run = CliRun.run("report", hostileResults().toString(), "--format", "text");
        assertEquals(0, run.exitCode(), run.err());
        assertSafe(run.out());
        assertTrue(run.out().contains(SHOWN), run.out());
    }

    /** A JMH {@code -rf json} file's params, read by compare. */
    @Test
    void jmhParamsAreEscaped() throws Exception {
        ArrayNode jmh = (ArrayNode) Json.MAPPER.readTree(Path.of("src/test/resources/results/jmh-calibration.json").toFile());
        ((ObjectNode) jmh.get(0).get("params")).put("tokens", "200" + EVIL);
        Path evil = tmp.resolve("jmh.json");
        Json.MAPPER.writeValue(evil.toFile(), jmh);
        CliRun run = CliRun.run("compare", evil.toString(), evil.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertSafe(run.out());
        assertTrue(run.out().contains("200" + SHOWN), run.out());
    }

    /** An error that quotes its input: one line, escaped. */
    @Test
    void anErrorQuotingItsInputIsOneEscapedLine() throws Exception {
        Path missing = tmp.resolve("no" + EVIL + ".json");
        CliRun run = CliRun.run("compare", missing.toString(), missing.toString());
        assertEquals(2, run.exitCode(), run.err());
        assertSafe(run.err());
        assertEquals(1, run.err().lines().count(), run.err());
    }

    @Test
    void topologyRootEscapesTheModelName() throws Exception {
        Path tree = Files.createDirectories(tmp.resolve("tree"));
        // the smallest tree topology reads: two CPUs and a cpuinfo
        String cpu = "sys/devices/system/cpu/";
        Files.createDirectories(tree.resolve(cpu + "cpu0/topology"));
        Files.createDirectories(tree.resolve(cpu + "cpu1/topology"));
        for (String f : new String[]{"online", "possible", "present"}) Files.writeString(tree.resolve(cpu + f), "0-1\n");
        for (int c = 0; c < 2; c++) {
            Files.writeString(tree.resolve(cpu + "cpu" + c + "/topology/core_id"), c + "\n");
            Files.writeString(tree.resolve(cpu + "cpu" + c + "/topology/physical_package_id"), "0\n");
        }
        Files.createDirectories(tree.resolve("proc"));
        Files.writeString(tree.resolve("proc/cpuinfo"), "processor\t: 0\nmodel name\t: \u001b]0;PWNED\u0007\u001b[2J FAKE\n");
        CliRun run = CliRun.run("topology", "--root", tree.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertSafe(run.out());
        assertTrue(run.out().contains("\\e]0;PWNED\\x07\\e[2J FAKE"), run.out());
    }
}
