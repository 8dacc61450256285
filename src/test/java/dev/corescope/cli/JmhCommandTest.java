package dev.corescope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.corescope.report.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** JMH prints on {@code System.out} itself, so these tests catch it there. */
class JmhCommandTest {

    @TempDir
    Path dir;

    record Captured(CliRun run, String jmhOut) {
    }

    private static Captured capture(Supplier<CliRun> body) {
        PrintStream old = System.out;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
        try {
            return new Captured(body.get(), buf.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(old);
        }
    }

    @Test
    void dashLListsTheBenchmarksInThisBuild() {
        Captured c = capture(() -> CliRun.run("jmh", "-l"));
        assertEquals(0, c.run().exitCode(), c.run().err());
        assertTrue(c.jmhOut().startsWith("Benchmarks: "), c.jmhOut());
        assertTrue(c.jmhOut().contains("dev.corescope.bench.timerbase.TimerbaseBenchmark.after"), c.jmhOut());
    }

    @Test
    void aBenchmarkRunsWithJmhsOwnOptionsAndWritesJsonResults() throws Exception {
        Path json = dir.resolve("jmh.json");
        Captured c = capture(() -> CliRun.run("jmh", "TimerbaseBenchmark.after", "-f", "0", "-wi", "0", "-i", "1", "-r", "50ms",
                "-foe", "true", "-rf", "json", "-rff", json.toString()));
        assertEquals(0, c.run().exitCode(), c.run().err() + c.jmhOut());
        JsonNode results = Json.MAPPER.readTree(json.toFile());
        assertEquals("dev.corescope.bench.timerbase.TimerbaseBenchmark.after", results.get(0).get("benchmark").asText());
        assertTrue(results.get(0).get("primaryMetric").get("score").asDouble() > 0);
    }

    @Test
    void anOptionJmhDoesNotKnowIsBadInput() {
        capture(() -> CliRun.run("jmh", "-nosuchoption")).run().badInput("jmh: ");
    }

    @Test
    void aPatternThatMatchesNothingIsBadInput() {
        capture(() -> CliRun.run("jmh", "NoSuchBenchmark", "-f", "0")).run()
                .badInput("jmh NoSuchBenchmark: no benchmark matches (list them: ./run.sh jmh -l)");
    }
}
