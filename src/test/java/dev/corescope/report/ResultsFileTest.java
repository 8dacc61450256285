package dev.corescope.report;

import dev.corescope.testing.SavedRuns;
import dev.corescope.sys.internal.AtomicFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ResultsFileTest {

    @TempDir
    Path dir;

    static ResultsFile sample() {
        Environment env = new Environment("AMD EPYC", "Linux 6.1", "JDK 25", List.of("-Xmx1g"), "0-1", "0-1", "", "", false,
                "0-1", "none", null, Map.of("mean", 2596.1, "source", "/proc/cpuinfo cpu MHz"), "KVM", false,
                "2025-01-01T00:00:00Z", "2025-01-01T00:01:00Z", List.of("running under a hypervisor"),
                "perf_event_open(cycles) failed: ENOENT (2)", null, 0.1, "0", "/", null);
        Result r = Result.builder().benchmark("cpumask").variant("first_but").implementation("java").metric("op").unit("ns/op")
                .score(1.25).error(0.01).samples(10).cpus("0").params(Map.of("nrCpus", 64)).build();
        Counters c = new Counters("cpumask", Counters.SCOPE_FAMILY_THREAD_INHERIT, List.of(
                new Counters.Counter("cpu-migrations", "count", 0L, null, null, null),
                new Counters.Counter("cycles", "count", null, null, null, "perf_event_open(cycles) failed: ENOENT (2)")));
        return ResultsFile.builder().environment(env).results(List.of(r))
                .failures(List.of(new ResultsFile.Failure("locks", "boom"))).counters(List.of(c)).topology(new MachineTopology("1 package, 2 cores, 2 PUs, 1 NUMA node", "<svg></svg>", null, null, null)).build();
    }

    @Test
    void aResultsFileReadsBackAsWritten() throws IOException {
        ResultsFile f = sample();
        Path p = dir.resolve("r.json");
        AtomicFile.write(p, Json.write(f));
        ResultsFile back = SavedRuns.lenient(p);
        assertEquals(f, back);
        assertEquals(Json.write(f), Json.write(back));
    }

    @Test
    void resultsIsAlwaysThereWhileOtherEmptyListsAndNullsAreLeftOut() {
        String json = Json.write(ResultsFile.builder().build());
        assertEquals("{\n  \"schema\" : \"corescope-results/1\",\n  \"results\" : [ ]\n}\n", json);
    }

    @Test
    void aRowsRunsReadBackAndARowWithoutRunsHasNoRunsField() throws IOException {
        Result forked = Result.builder().benchmark("cpumask").variant("first_but").implementation("java").metric("op").unit("ns/op")
                .score(10.5).error(0.2).samples(20).cpus("0").params(Map.of("nrCpus", 64)).runs(List.of(new RunFigures(10.0, 10, 0.1), new RunFigures(11.0, 10, null))).build();
        Result single = Result.builder().benchmark("cpumask").variant("first_but").implementation("native").metric("op").unit("ns/op")
                .score(10.5).error(0.2).samples(20).cpus("0").params(Map.of()).build();
        Path p = dir.resolve("runs.json");
        AtomicFile.write(p, Json.write(ResultsFile.builder().results(List.of(forked, single)).build()));
        ResultsFile back = SavedRuns.lenient(p);
        assertEquals(forked, back.results().get(0));
        assertEquals(List.of(), back.results().get(1).runs());
        String text = Files.readString(p);
        assertEquals(1, text.split("\"runs\"", -1).length - 1, "only the forked row says runs: " + text);
    }

    @Test
    void unknownFieldsFromANewerCorescopeAreIgnoredOnRead() throws IOException {
        Path p = dir.resolve("newer.json");
        Files.writeString(p, "{\"schema\": \"corescope-results/1\", \"somethingNew\": 1, \"results\": []}");
        assertEquals(List.of(), SavedRuns.lenient(p).results());
    }

    @Test
    void anAtomicWriteReplacesTheFileWholeAndLeavesNoTemporaryFile() throws IOException {
        Path p = dir.resolve("r.json");
        Files.writeString(p, "old");
        AtomicFile.write(p, "new content\n");
        assertEquals("new content\n", Files.readString(p));
        try (var s = Files.list(dir)) {
            assertEquals(List.of(p), s.toList());
        }
    }

    @Test
    void anAtomicWriteIntoAMissingFolderFailsAndCreatesNothing() {
        Path p = dir.resolve("missing/r.json");
        assertThrows(IOException.class, () -> AtomicFile.write(p, "x"));
        assertTrue(Files.notExists(dir.resolve("missing")));
    }
}
