package dev.corescope.cli;

import dev.corescope.testing.SavedRuns;
import dev.corescope.report.Json;
import dev.corescope.report.ResultsFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Ctrl-C on a real child JVM: SIGINT while a family is running. */
class InterruptTest {

    @TempDir
    Path dir;

    @Test
    void sigintStopsThreadsRestoresAffinityAndKeepsTheFinishedResults() throws Exception {
        Path results = dir.resolve("partial.json");
        List<String> err = interrupt("INT", results);
        assertTrue(err.contains("corescope: interrupted by SIGINT (Ctrl-C): 1 finished family saved to " + results), err::toString);
        ResultsFile f = SavedRuns.lenient(results);
        assertEquals(List.of("finishes"), f.results().stream().map(r -> r.benchmark()).toList());
        assertEquals(List.of("finishes"), f.counters().stream().map(c -> c.benchmark()).toList());
        assertEquals(List.of(
                new ResultsFile.Failure("blocking", "interrupted before it finished: interrupted by SIGINT (Ctrl-C)"),
                new ResultsFile.Failure("never", "not run: interrupted by SIGINT (Ctrl-C)")), f.failures());
        assertTrue(f.environment() != null && f.environment().endedAt() != null);
        try (var files = Files.list(dir)) {
            assertEquals(List.of(results), files.toList(), "no temporary file left behind");
        }
    }

    @Test
    void sigtermIsNamedAndAnEarlierResultsFileIsKeptWithThePartialRunBesideIt() throws Exception {
        Path results = dir.resolve("corescope-results.json");
        String earlier = "{\"schema\": \"corescope-results/1\", \"results\": [], \"note\": \"an earlier run\"}\n";
        Files.writeString(results, earlier);
        List<String> err = interrupt("TERM", results);
        assertEquals(earlier, Files.readString(results), "the earlier run is untouched");
        List<Path> beside;
        try (var files = Files.list(dir)) {
            beside = files.filter(p -> !p.equals(results)).toList();
        }
        assertEquals(1, beside.size(), beside::toString);
        assertTrue(beside.getFirst().getFileName().toString().matches("corescope-results-interrupted-\\d{8}T\\d{6}Z\\.json"), beside::toString);
        assertTrue(err.contains("corescope: interrupted by SIGTERM: 1 finished family saved to " + beside.getFirst()
                + " (" + results + " holds an earlier run and was kept)"), err::toString);
        assertTrue(err.stream().noneMatch(l -> l.contains("Ctrl-C")), err::toString);
        assertEquals(List.of("finishes"), SavedRuns.lenient(beside.getFirst()).results().stream().map(r -> r.benchmark()).toList());
    }

    @Test
    void anInterruptBeforeAnyFamilyFinishedSaysSoInASentence() throws Exception {
        Path results = dir.resolve("none.json");
        List<String> err = interrupt("INT", results, "blocking");
        assertTrue(err.contains("corescope: interrupted by SIGINT (Ctrl-C): no family had finished; nothing saved"), err::toString);
        assertTrue(Files.notExists(results));
    }

    private List<String> interrupt(String signal, Path results) throws Exception {
        return interrupt(signal, results, "all");
    }

    /** Runs {@code bench FAMILY -o results} in a child JVM, sends SIG{@code signal} while a family runs, returns stderr. */
    private List<String> interrupt(String signal, Path results, String family) throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self")), "needs Linux /proc");
        List<String> cmd = new ArrayList<>(signalDefaultPrefix());
        cmd.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                InterruptibleMain.class.getName(), "bench", family, "-o", results.toString()));
        try (SignalledChild child = new SignalledChild(new ProcessBuilder(cmd), "blocking: started")) {
            int exit = child.interruptOnceStarted(signal);
            List<String> err = child.err();
            int expected = 128 + (signal.equals("INT") ? 2 : 15);
            assertEquals(expected, exit, () -> "128 + the signal; stderr: " + err);
            assertTrue(err.contains("blocking: helper stopped=true, affinity restored=true"), err::toString);
            assertEquals("", child.stdout(), "nothing on stdout after an interrupt");
            return err;
        }
    }

    /**
     * A child inherits an ignored SIGINT (a background job of a non-interactive shell), and the
     * JVM then never installs its handler; {@code env --default-signal=INT} undoes that.
     */
    static List<String> signalDefaultPrefix() throws IOException, InterruptedException {
        Process p = new ProcessBuilder("env", "--default-signal=INT", "true").redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        if (p.waitFor() == 0) return List.of("env", "--default-signal=INT");
        String status = Files.readString(Path.of("/proc/self/status"));
        String ignored = status.lines().filter(l -> l.startsWith("SigIgn:")).findFirst().orElse("SigIgn: 0").substring(7).strip();
        assumeTrue((Long.parseUnsignedLong(ignored, 16) & (1L << 1)) == 0,
                "SIGINT is ignored in this process and env --default-signal is missing: a child could not receive Ctrl-C");
        return List.of();
    }
}
