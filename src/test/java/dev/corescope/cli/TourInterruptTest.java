package dev.corescope.cli;

import dev.corescope.testing.SavedRuns;
import dev.corescope.report.Json;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Ctrl-C during the tour, in a folder that already holds a results file: the earlier file is
 * left as it was and what finished goes beside it. The tour runs in a child JVM with the test
 * families ({@link InterruptibleMain}), so SIGINT comes while a family blocks, a second or
 * two after start, not minutes into real benchmarks.
 */
class TourInterruptTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"the default name", "-o"})
    void ctrlCKeepsTheEarlierResultsFileAndSavesWhatFinishedBesideIt(String how) throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self")), "needs Linux /proc");
        Path results = dir.resolve("corescope-results.json");
        String earlier = "{\"schema\": \"corescope-results/1\", \"results\": [], \"note\": \"an earlier run\"}\n";
        Files.writeString(results, earlier);

        List<String> cmd = new ArrayList<>(InterruptTest.signalDefaultPrefix());
        cmd.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                "-Dcorescope.tour=" + results, InterruptibleMain.class.getName()));
        if (how.equals("-o")) cmd.addAll(List.of("-o", results.toString()));
        try (SignalledChild child = new SignalledChild(new ProcessBuilder(cmd).directory(dir.toFile()), "blocking: started")) {
            int exit = child.interruptOnceStarted("INT");
            child.stdout();
            List<String> err = child.err();
            assertEquals(130, exit, () -> "128 + SIGINT; stderr: " + err);

            assertEquals(earlier, Files.readString(results), "the earlier run is untouched");
            List<Path> beside;
            try (var files = Files.list(dir)) {
                beside = files.filter(p -> !p.equals(results)).toList();
            }
            assertEquals(1, beside.size(), "one new file and no temporary one: " + beside);
            Path partial = beside.getFirst();
            assertTrue(partial.getFileName().toString().matches("corescope-results-(run|interrupted)-\\d{8}T\\d{6}Z\\.json"), partial::toString);
            assertEquals(List.of("finishes"), SavedRuns.lenient(partial).results().stream().map(r -> r.benchmark()).toList());
            assertTrue(err.stream().anyMatch(l -> l.startsWith("corescope: interrupted by SIGINT (Ctrl-C): 1 finished family saved to " + partial)),
                    err::toString);
        }
    }
}
