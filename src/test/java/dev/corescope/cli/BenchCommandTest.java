package dev.corescope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.corescope.bench.BenchFamily;
import dev.corescope.report.Json;
import dev.corescope.report.ResultsFile;
import dev.corescope.sys.internal.Affinity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class BenchCommandTest {

    @TempDir
    Path dir;

    record Run(int code, String out, String err) {
    }

    private Run run(Supplier<List<BenchFamily>> families, String... args) {
        CommandLine cl = Main.commandLine(families, dir.resolve("tour.json"));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int code = cl.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    private static List<BenchFamily> threeWithOneFailing() {
        return List.of(new TestFamilies.Sleeping("first"), new TestFamilies.Failing(), new TestFamilies.Sleeping("third"));
    }

    @Test
    void aFailingFamilyIsReportedTheOthersStillRunAndTheExitCodeIsThree() throws Exception {
        Path file = dir.resolve("r.json");
        Run r = run(BenchCommandTest::threeWithOneFailing, "bench", "all", "--format", "json", "-o", file.toString());

        assertEquals(Main.EXIT_PARTIAL, r.code());
        assertEquals("corescope: 1 of 3 families failed: failing (IllegalStateException: boom: this test family fails on purpose)\n",
                r.err().lines().filter(l -> !l.startsWith("corescope: [")).reduce("", (a, b) -> a + b + "\n"));
        JsonNode json = Json.MAPPER.readTree(r.out());
        assertEquals(List.of("first", "third"), json.get("results").findValuesAsText("benchmark"));
        assertEquals("failing", json.get("failures").get(0).get("benchmark").asText());
        assertEquals(List.of("first", "third"), json.get("counters").findValuesAsText("benchmark"));
        assertEquals(r.out(), Files.readString(file), "-o holds what stdout printed");
    }

    @Test
    void whenEveryFamilyFailsTheExitCodeIsOneWithNothingOnStdoutAndNoFile() {
        Path file = dir.resolve("r.json");
        Run r = run(() -> List.of(new TestFamilies.Failing()), "bench", "failing", "--format", "json", "-o", file.toString());

        assertEquals(Main.EXIT_FAILURE, r.code());
        assertEquals("", r.out());
        assertEquals(List.of("corescope: 1 of 1 family failed: failing (IllegalStateException: boom: this test family fails on purpose); nothing was saved"),
                r.err().lines().filter(l -> !l.startsWith("corescope: [")).toList());
        assertFalse(Files.exists(file), "nothing is saved when nothing finished");
    }

    @Test
    void everyResultsFileCarriesTheEnvironment() throws Exception {
        Run r = run(() -> List.of(new TestFamilies.Sleeping("only")), "bench", "only", "--format", "json");
        assertEquals(0, r.code(), r.err());
        ResultsFile f = Json.MAPPER.readValue(r.out(), ResultsFile.class);
        assertEquals(Affinity.processAllowed().toList(), f.environment().allowed());
        assertTrue(f.environment().startedAt().compareTo(f.environment().endedAt()) <= 0);
        assertEquals(f.environment().hardwareCounters(), f.environment().hardwareCountersReason() == null);
        assertEquals(Affinity.processAllowed().toList(), f.environment().pinnedCpus());
    }

    @Test
    void aFamilyPinnedToOneCpuShowsZeroMigrationsInItsCounters() throws Exception {
        Run r = run(() -> List.of(new TestFamilies.Sleeping("pinned", true)), "bench", "pinned", "--format", "json");
        assertEquals(0, r.code(), r.err());
        ResultsFile f = Json.MAPPER.readValue(r.out(), ResultsFile.class);
        var counters = f.counters().getFirst();
        var migrations = counters.get("cpu-migrations");
        assumeTrue(migrations.value() != null, () -> "software perf events not available: " + migrations.unavailable());
        // The family pins itself to the CPU it reads it is on; if the scheduler moves it between
        // the read and the pin, the pin moves it back: one migration, counted. None after that.
        assertTrue(migrations.value() <= 1L, "the family's only thread sat on CPU " + f.results().getFirst().cpus()
                + ": " + migrations.value() + " migrations");
        assertTrue(counters.get("context-switches").value() >= 20, "20 sleeps");
        assertEquals(1, CpuMaskWeight.of(f.results().getFirst().cpus()), "pinned to one CPU");
        assertEquals(Affinity.processAllowed().toList(), Affinity.allowed().toList(), "this thread was never pinned");

        Run text = run(() -> List.of(new TestFamilies.Sleeping("pinned", true)), "bench", "pinned");
        assertTrue(text.out().lines().anyMatch(l -> l.matches("  pinned +[0-9.,]+ +[0-9,]+ +0 +[0-9,]+ .*")),
                "the text shows 0 in the cpu-migrations column:\n" + text.out());
    }

    /** The number of CPUs in a cpulist. */
    private static final class CpuMaskWeight {
        static int of(String list) {
            return dev.corescope.cpumask.CpuMask.parseList(list, 1 << 16).weight();
        }
    }

    @Test
    void theTextReportHasTheFamilyCountersFailuresAndEnvironment() {
        Run r = run(BenchCommandTest::threeWithOneFailing, "bench", "all");
        assertEquals(Main.EXIT_PARTIAL, r.code());
        assertTrue(r.out().contains("first: mean sleep(1) "), r.out());
        assertTrue(r.out().contains("Counters (perf_event_open; "), r.out());
        assertTrue(r.out().contains("FAILED:\n  failing: IllegalStateException: boom"), r.out());
        assertTrue(r.out().contains("\nEnvironment\n"), r.out());
        assertTrue(r.out().contains("\n  hw counters "), r.out());
    }

    @Test
    void progressGoesToStderrOneLinePerStepWhenNotATerminal() {
        Run r = run(() -> List.of(new TestFamilies.Sleeping("p")), "bench", "p");
        assertEquals(0, r.code());
        List<String> lines = r.err().lines().toList();
        assertEquals("corescope: [1/1] p: running", lines.getFirst());
        assertEquals(20, lines.stream().filter(l -> l.matches("corescope: \\[1/1] p \\d+/20 sleep \\d+ \\(\\d+:\\d\\d\\)")).count(), r.err());
        assertTrue(lines.getLast().matches("corescope: \\[1/1] p: done in \\d+:\\d\\d"), lines.getLast());
        assertFalse(r.out().contains("corescope: ["));
    }

    @Test
    void anUnknownFamilyIsExitTwoWithNothingOnStdout() {
        Run r = run(() -> List.of(new TestFamilies.Sleeping("a")), "bench", "nope");
        assertEquals(2, r.code());
        assertEquals("", r.out());
        assertEquals("corescope: bench nope: no such benchmark family (one of: a, all)\n", r.err());
    }

    @Test
    void anOutputInAMissingFolderIsBadInputBeforeAnythingRuns() {
        Path missing = dir.resolve("missing/dir/r.json");
        Run r = run(() -> List.of(new TestFamilies.Failing()), "bench", "failing", "-o", missing.toString());
        assertEquals(2, r.code());
        assertEquals("", r.out());
        assertEquals("corescope: -o " + missing + ": folder " + missing.getParent() + " does not exist\n", r.err(), "no family ran");
    }
}
