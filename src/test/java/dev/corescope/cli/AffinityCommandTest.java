package dev.corescope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.corescope.cpumask.CpuMask;
import dev.corescope.report.Json;
import dev.corescope.sys.Pinning;
import dev.corescope.sys.internal.Affinity;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** {@code affinity} end to end, on this machine's real masks. */
class AffinityCommandTest {

    private CpuMask before;

    @BeforeEach
    void rememberMask() {
        before = Affinity.allowed();
    }

    @AfterEach
    void maskIsBack() {
        assertEquals(before, Affinity.allowed());
    }

    @Test
    void jsonReportsThisProcessWithTheContractFields() throws Exception {
        JsonNode json = Json.MAPPER.readTree(CliRun.run("affinity", "--format", "json").succeeded().out());
        assertEquals(List.of("pid", "allowed", "online", "currentCpu"),
                json.properties().stream().map(Map.Entry::getKey).toList());
        assertEquals(ProcessHandle.current().pid(), json.get("pid").asLong());
        assertEquals(before.toList(), json.get("allowed").asText());
        assumeTrue(Files.exists(AffinityCommand.ONLINE), "no " + AffinityCommand.ONLINE + " here");
        assertEquals(CpuMask.parseList(Files.readString(AffinityCommand.ONLINE), Affinity.nrCpuIds()).toList(),
                json.get("online").asText());
        assertTrue(before.test(json.get("currentCpu").asInt()), "currentCpu outside " + before);
    }

    @Test
    void onAPinnedThreadItReportsThePinnedCpuAsAllowedAndCurrent() throws Exception {
        int cpu = before.last();
        String out;
        try (Pinning p = Affinity.pin(cpu)) {
            out = CliRun.run("affinity").succeeded().out();
        }
        CpuMask pinned = CpuMask.of(before.nbits(), cpu);
        String online = Files.exists(AffinityCommand.ONLINE)
                ? CpuMask.parseList(Files.readString(AffinityCommand.ONLINE), Affinity.nrCpuIds()).toList()
                : "not available: " + AffinityCommand.ONLINE + " is missing";
        CliRun.assertApproved("cli/affinity-pinned.txt", out, Map.of(
                "pid", String.valueOf(ProcessHandle.current().pid()),
                "cpu", String.valueOf(cpu),
                "hex", pinned.toHex(),
                "online", online));
    }

    /** The check, in a separate JVM: {@code taskset -c CPU corescope affinity}. */
    @Test
    void underTasksetItReportsTheTasksetCpu() throws Exception {
        assumeTrue(before.weight() >= 2, "needs at least 2 allowed CPUs to restrict to one; allowed: " + before);
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/taskset")), "taskset (util-linux) is not installed");
        int cpu = before.last();
        Process p = new ProcessBuilder("/usr/bin/taskset", "-c", String.valueOf(cpu),
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                Main.class.getName(), "affinity", "--format", "json")
                .redirectErrorStream(false).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "corescope affinity did not finish");
        String err = new String(p.getErrorStream().readAllBytes());
        assertEquals(0, p.exitValue(), err);
        assertEquals("", err);
        JsonNode json = Json.MAPPER.readTree(p.getInputStream());
        assertEquals(String.valueOf(cpu), json.get("allowed").asText());
        assertEquals(cpu, json.get("currentCpu").asInt());
        assertEquals(p.pid(), json.get("pid").asLong());
    }

    @Test
    void pidOfAnotherProcessReportsItsMask() throws Exception {
        int cpu = before.first();
        Process child;
        try (Pinning p = Affinity.pin(cpu)) {
            child = new ProcessBuilder("sleep", "5").start();
        }
        try {
            JsonNode json = Json.MAPPER.readTree(
                    CliRun.run("affinity", "--pid", String.valueOf(child.pid()), "--format", "json").succeeded().out());
            assertEquals(child.pid(), json.get("pid").asLong());
            assertEquals(String.valueOf(cpu), json.get("allowed").asText());
            String text = CliRun.run("affinity", "--pid", String.valueOf(child.pid())).succeeded().out();
            assertTrue(text.contains("(where corescope ran this call, not pid " + child.pid() + ")"), text);
        } finally {
            child.destroy();
            child.waitFor();
        }
    }

    @Test
    void aPidThatDoesNotExistExits2WithEsrch() {
        CliRun.run("affinity", "--pid", String.valueOf(Integer.MAX_VALUE))
                .badInput("--pid 2147483647: no such process (sched_getaffinity(pid=2147483647, cpusetsize=");
        assertTrue(CliRun.run("affinity", "--pid", String.valueOf(Integer.MAX_VALUE)).err().endsWith("failed: ESRCH (3))\n"));
    }

    @Test
    void aPidThatIsNotAProcessIdExits2() {
        CliRun.run("affinity", "--pid", "0").badInput("--pid 0: not a process id");
        CliRun.run("affinity", "--pid", "-7").badInput("--pid -7: not a process id");
        CliRun.run("affinity", "--pid", "abc").badInput("'abc'");
    }

    @Test
    void svgIsNotAFormatOfAffinity() {
        CliRun.run("affinity", "--format", "svg").badInput("expected text or json but was 'svg'");
    }
}
