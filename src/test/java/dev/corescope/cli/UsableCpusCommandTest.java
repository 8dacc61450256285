package dev.corescope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.corescope.cpumask.CpuMask;
import dev.corescope.report.Json;
import dev.corescope.sys.internal.Os;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The usable-CPU rule from the command line: {@code affinity --why} on the saved isolcpus host,
 * selectors in {@code --cpus}, and, live, a start mask narrower than the cgroup's cpuset
 * ({@code taskset -c A corescope pin --cpus B}), which taskset itself allows.
 */
class UsableCpusCommandTest {

    private static final Path HOST = Path.of("src/test/resources/fixtures/isolcpus");

    @Test
    void whyOnASavedIsolcpusHostSaysWhichCpusAreUsableAndWhy() throws Exception {
        JsonNode json = Json.MAPPER.readTree(CliRun.run("affinity", "--why", "--root", HOST.toString(), "--format", "json").succeeded().out());
        assertEquals(List.of("source", "start", "startMeasured", "usable", "pinnable", "cgroupCpuset", "isolated", "nohzFull", "cpus"),
                json.properties().stream().map(Map.Entry::getKey).toList());
        assertEquals("0-3", json.get("start").asText());
        assertEquals("0-5", json.get("usable").asText());
        assertEquals("4-7", json.get("isolated").asText());
        assertEquals(8, json.get("cpus").size(), "every possible CPU");
        JsonNode five = json.get("cpus").get(5);
        assertEquals(5, five.get("cpu").asInt());
        assertTrue(five.get("usable").asBoolean());
        assertEquals("isolated", five.get("reasons").get(0).get("reason").asText());
        JsonNode six = json.get("cpus").get(6);
        assertFalse(six.get("pinnable").asBoolean());
        assertEquals("outsideCpuset", six.get("reasons").get(0).get("reason").asText());
    }

    @Test
    void whyTextNamesEachCpuAndTakesSelectors() {
        String out = CliRun.run("affinity", "--why", "core:2-3", "--root", HOST.toString()).succeeded().out();
        CliRun.assertApproved("cli/affinity-why-isolcpus-core-2-3.txt", out, Map.of());
        CliRun.run("affinity", "--why", "socket:0", "--root", HOST.toString()).badInput("unknown selector socket");
        CliRun.run("affinity", "--root", HOST.toString()).badInput("only with --why");
    }

    @Test
    void pinTakesSelectorsStridesAndHexMasks() {
        CpuMask start = Os.live().processAllowed();
        int first = start.first();
        CliRun.run("pin", "--cpus", "0x" + Long.toHexString(1L << first), "--", "true").succeeded();
        CliRun.run("pin", "--cpus", first + "-" + first + ":2", "--", "true").succeeded();
        CliRun.run("pin", "--cpus", "package:0", "--", "true");  // may cover CPUs outside the cpuset on odd machines: no assertion on the code
        CliRun.run("pin", "--cpus", "node:99", "--", "true").badInput("--cpus node:99: no node 99");
        CliRun.run("pin", "--cpus", "kind:medium", "--", "true").badInput("kind:performance or kind:efficiency");
    }

    /**
     * {@code taskset -c A corescope pin --cpus B -- grep Cpus_allowed_list /proc/self/status}
     * prints B, as {@code taskset -c A taskset -c B} does: the start mask narrows what corescope
     * chooses by itself, not what it may be told.
     */
    @Test
    void aStartMaskNarrowerThanTheCpusetDoesNotStopANamedPin() throws Exception {
        CpuMask start = Os.live().processAllowed();
        assumeTrue(start.weight() >= 2, "needs two allowed CPUs");
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/taskset")), "needs taskset");
        int a = start.first();
        int b = start.next(a);
        List<String> cmd = new ArrayList<>(List.of("/usr/bin/taskset", "-c", String.valueOf(a),
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "--enable-native-access=ALL-UNNAMED",
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        Process pin = new ProcessBuilder(concat(cmd, "pin", "--cpus", String.valueOf(b), "--", "grep", "Cpus_allowed_list", "/proc/self/status"))
                .redirectErrorStream(true).start();
        String out = new String(pin.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(pin.waitFor(120, TimeUnit.SECONDS));
        assertEquals(0, pin.exitValue(), out);
        assertEquals("Cpus_allowed_list:\t" + b, out.strip());

        Process why = new ProcessBuilder(concat(cmd, "affinity", "--why", String.valueOf(b), "--format", "json")).redirectErrorStream(true).start();
        String json = new String(why.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(why.waitFor(120, TimeUnit.SECONDS));
        JsonNode cpu = Json.MAPPER.readTree(json).get("cpus").get(0);
        assertEquals(String.valueOf(a), Json.MAPPER.readTree(json).get("start").asText());
        assertTrue(cpu.get("pinnable").asBoolean(), json);
        assertEquals("outsideStartMask", cpu.get("reasons").get(0).get("reason").asText(), json);
    }

    private static List<String> concat(List<String> head, String... tail) {
        List<String> out = new ArrayList<>(head);
        out.addAll(List.of(tail));
        return out;
    }
}
