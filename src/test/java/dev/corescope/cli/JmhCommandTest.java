package dev.corescope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.corescope.report.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.nio.file.Files;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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

    @Test
    void aValueOutsideAClosedStringParamIsBadInputListingTheAllowedValues() {
        Captured c = capture(() -> CliRun.run("jmh", "CpumaskBenchmark.first_but", "-p", "mask=bogus", "-f", "0", "-wi", "0", "-i", "1", "-r", "10ms"));
        c.run().badInput("-p mask=bogus: allowed values are online, high");
        assertEquals("", c.jmhOut(), "nothing runs");
    }

    @Test
    void aNumberParamTakesAsciiDigitsOnly() {
        capture(() -> CliRun.run("jmh", "CpumaskBenchmark", "-p", "nrCpus=abc")).run()
                .badInput("-p nrCpus=abc: not a whole number");
        capture(() -> CliRun.run("jmh", "CpumaskBenchmark", "-p", "nrCpus=64,\u0661")).run()
                .badInput("-p nrCpus=\u0661: not a whole number");
    }

    @Test
    void aParamNoSelectedBenchmarkHasIsBadInputNamingTheirs() {
        capture(() -> CliRun.run("jmh", "CpumaskBenchmark", "-p", "foo=1")).run()
                .badInput("no parameter foo (theirs: mask, nrCpus, online)");
    }

    @Test
    void aFreeFormParamIsCheckedByTheBenchmarksOwnRule() {
        capture(() -> CliRun.run("jmh", "C2cBenchmark", "-p", "placement=bogus")).run()
                .badInput("-p placement=bogus: allowed values are same-core, same-l3, other-l3, other-package, any");
        capture(() -> CliRun.run("jmh", "C2cBenchmark", "-p", "cpus=abc")).run().badInput("-p cpus=abc: not a CPU list");
    }

    @Test
    void aBadEnumOptionNamesTheValuesInPlainWords() {
        CliRun r = capture(() -> CliRun.run("jmh", "CpumaskBenchmark", "-rf", "bogus")).run()
                .badInput("'BOGUS' is not a value this option takes (one of TEXT, CSV, SCSV, JSON, LATEX)");
        assertTrue(!r.err().contains("org.openjdk"), r.err());
        capture(() -> CliRun.run("jmh", "CpumaskBenchmark", "-bm", "bogus")).run().badInput("Unable to parse benchmark mode");
    }

    @Test
    void aBenchmarkThatFailsIsExitOneWithItsReasonAndNoStackTrace() {
        // every valid value of placement, yet one this benchmark refuses at run time: a CPU list of one CPU has no pair
        Captured c = capture(() -> CliRun.run("jmh", "C2cBenchmark", "-p", "cpus=0", "-f", "0", "-wi", "0", "-i", "1", "-r", "10ms"));
        assertEquals(1, c.run().exitCode(), c.run().err() + c.jmhOut());
        assertTrue(c.run().err().startsWith("corescope: jmh: 1 benchmark run failed: "), c.run().err());
        assertEquals(1, c.run().err().lines().count(), c.run().err());
        assertTrue(c.jmhOut().contains("<failure>"), c.jmhOut());
        assertTrue(!c.jmhOut().contains("\tat "), "no stack trace without --debug: " + c.jmhOut());
    }

    /** A failed run never replaces a result file with less (issue 23, point 12): the old results stay. */
    @Test
    void aFailedRunKeepsTheResultFile() throws Exception {
        Path keep = dir.resolve("keep.json");
        Files.copy(Path.of("src/test/resources/results/jmh-calibration.json"), keep);
        byte[] before = Files.readAllBytes(keep);
        Captured c = capture(() -> CliRun.run("jmh", "C2cBenchmark", "-p", "cpus=0", "-f", "0", "-wi", "0", "-i", "1", "-r", "10ms",
                "-rf", "json", "-rff", keep.toString()));
        assertEquals(1, c.run().exitCode(), c.run().err() + c.jmhOut());
        assertArrayEquals(before, Files.readAllBytes(keep), "the earlier results are kept");
        try (var files = Files.list(dir)) {
            assertEquals(List.of("keep.json"), files.map(p -> p.getFileName().toString()).toList(), "no temporary file left");
        }
    }

    @Test
    void aPatternThatMatchesNothingCreatesNoResultFile() {
        Path none = dir.resolve("none.json");
        capture(() -> CliRun.run("jmh", "NoSuchBenchmark", "-f", "0", "-rf", "json", "-rff", none.toString())).run()
                .badInput("no benchmark matches");
        assertFalse(Files.exists(none));
    }

    /** {@code -p cpus=65000} (as {@code cpus=99} on a 2-CPU machine): refused before JMH starts a fork. */
    @Test
    void cpusOutsideTheUsableSetAreRefusedBeforeJmhRuns() {
        Captured c = capture(() -> CliRun.run("jmh", "C2cBenchmark", "-p", "cpus=65000", "-f", "0"));
        c.run().badInput("-p cpus=65000: CPU 65000 is not in the allowed set");
        assertEquals("", c.jmhOut(), "JMH did not start");
    }

    /** {@code -jvm /nonexistent/java} is bad input, not "a bug in corescope" (issue 23, point 18). */
    @Test
    void aJvmThatDoesNotExistIsBadInput() {
        Captured c = capture(() -> CliRun.run("jmh", "CpumaskBenchmark.first_but", "-jvm", "/nonexistent/java", "-f", "1"));
        c.run().badInput("jmh -jvm /nonexistent/java: no such file");
    }

    @Test
    void aProfilerJmhDoesNotKnowIsBadInput() {
        capture(() -> CliRun.run("jmh", "CpumaskBenchmark.first_but", "-prof", "nosuchprofiler", "-f", "0")).run()
                .badInput("jmh -prof nosuchprofiler: no such profiler (./run.sh jmh -lprof lists them)");
    }
}
