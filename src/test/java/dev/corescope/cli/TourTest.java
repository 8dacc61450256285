package dev.corescope.cli;

import dev.corescope.testing.SavedRuns;
import dev.corescope.report.Json;
import dev.corescope.report.ResultsFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TourTest {

    @TempDir
    Path dir;

    @Test
    void theTourRunsEveryFamilySavesTheResultsAndSaysHowToMakeAReport() throws Exception {
        Path saved = dir.resolve("corescope-results.json");
        CommandLine cl = Main.commandLine(() -> List.of(new TestFamilies.Sleeping("one"), new TestFamilies.Failing(),
                new TestFamilies.Sleeping("two")), saved);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));

        int code = cl.execute();

        assertEquals(Main.EXIT_PARTIAL, code, "one family failed");
        String text = out.toString();
        assertTrue(text.startsWith("corescope tour: "), text);
        assertTrue(text.contains("\n  CPUs online "), text);
        assertTrue(text.contains(" package"), "the topology summary line: " + text);
        assertTrue(text.contains("Running 3 families in quick mode (one, failing, two)"), text);
        assertTrue(text.contains("Where to look next"), text);
        assertTrue(text.contains("Saved " + saved), text);
        assertTrue(text.contains(Tour.launcher() + " report " + Tour.shell(saved.toString()) + " -o corescope-report.html"), text);
        ResultsFile f = SavedRuns.lenient(saved);
        assertEquals(List.of("one", "two"), f.results().stream().map(r -> r.benchmark()).toList());
        assertEquals("failing", f.failures().getFirst().benchmark());
        assertTrue(err.toString().contains("corescope: [2/3] failing: FAILED after "), err.toString());
        assertTrue(err.toString().endsWith("corescope: 1 of 3 families failed: failing (IllegalStateException: boom: this test family fails on purpose)\n"), err.toString());
    }

    @Test
    void withNoFamiliesTheTourStillSavesTheEnvironment() throws Exception {
        Path saved = dir.resolve("corescope-results.json");
        CommandLine cl = Main.commandLine(List::of, saved);
        StringWriter out = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(new StringWriter()));
        assertEquals(0, cl.execute());
        assertTrue(out.toString().contains("No benchmark families are registered in this build."));
        assertTrue(Files.exists(saved));
        assertTrue(SavedRuns.lenient(saved).environment() != null);
    }

    @Test
    void aFolderThatCannotTakeTheResultsIsBadInputBeforeAnythingRuns() {
        Path saved = dir.resolve("gone/corescope-results.json");
        CommandLine cl = Main.commandLine(() -> List.of(new TestFamilies.Failing()), saved);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        assertEquals(2, cl.execute());
        assertEquals("", out.toString());
        assertEquals("corescope: saving corescope-results.json: " + saved + ": folder " + saved.getParent() + " does not exist\n", err.toString());
    }

    @Test
    void whatAFamilyCouldNotMeasureIsListedWithItsReasonFromItsModelNotFromItsWords() {
        // a note that merely says "not measured" decides nothing: the family's data does
        var worded = noted("cpumask", "mask=allowed: the allowed CPUs", "not measured: the words alone");
        var file = dev.corescope.report.ResultsFile.builder().build();
        assertEquals(List.of(), Tour.notMeasured(file, List.of(worded)));

        // c2c on one usable CPU: no plan in its saved facts
        var oneCpu = new dev.corescope.bench.c2c.C2cModel(List.of(), List.of(), null, null,
                new dev.corescope.bench.c2c.C2cModel.Facts("1", null, 2, null, null, List.of()));
        var saved = dev.corescope.report.ResultsFile.builder()
                .model("c2c", dev.corescope.report.Json.MAPPER.valueToTree(oneCpu)).build();
        assertEquals(List.of("c2c: not measured: a ping-pong needs 2 CPUs, none is usable"),
                Tour.notMeasured(saved, List.of(worded, new dev.corescope.bench.c2c.C2cFamily())));
    }

    /** A family whose view of any file has {@code notes}. */
    private static dev.corescope.bench.BenchFamily noted(String name, String... notes) {
        return new dev.corescope.bench.BenchFamily() {
            public String name() {
                return name;
            }

            public String summary() {
                return name;
            }

            public dev.corescope.bench.FamilyRun run(dev.corescope.bench.BenchContext context) {
                throw new UnsupportedOperationException();
            }

            public java.util.Optional<dev.corescope.text.TextDoc> document(dev.corescope.report.ResultsFile file) {
                return java.util.Optional.of(new dev.corescope.text.TextDoc().notes(List.of(notes)));
            }
        };
    }

    private static CliRun tour(Path defaultSave, String... args) {
        CommandLine cl = Main.commandLine(() -> List.of(new TestFamilies.Sleeping("one")), defaultSave);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int code = cl.execute(args);
        return new CliRun(code, out.toString(), err.toString());
    }

    @Test
    void anEarlierTourIsKeptAndTheNewRunGetsItsOwnNameWithACompareOfTheTwo() throws Exception {
        Path saved = dir.resolve("corescope-results.json");
        String earlier = Json.write(ResultsFile.builder().build());
        Files.writeString(saved, earlier);

        CliRun r = tour(saved, "--wide");
        assertEquals(0, r.exitCode(), r.err());

        assertEquals(earlier, Files.readString(saved), "the earlier run is untouched");
        Path fresh;
        try (var files = Files.list(dir)) {
            fresh = files.filter(p -> !p.equals(saved)).findFirst().orElseThrow();
        }
        assertTrue(fresh.getFileName().toString().matches("corescope-results-run-\\d{8}T\\d{6}Z\\.json"), fresh.toString());
        assertEquals(List.of("one"), SavedRuns.lenient(fresh).results().stream().map(x -> x.benchmark()).toList());
        assertTrue(r.out().contains("Saved " + fresh), r.out());
        assertTrue(r.out().contains("(" + saved + " from an earlier run was kept.)"), r.out());
        assertTrue(r.out().contains(Tour.launcher() + " compare " + saved + " " + fresh), r.out());
    }

    @Test
    void theTourTakesDashOAndReplacesTheFileItNames() throws Exception {
        Path named = dir.resolve("mine.json");
        Files.writeString(named, "old");
        CliRun r = tour(dir.resolve("unused.json"), "-o", named.toString());
        assertEquals(0, r.exitCode(), r.err());
        assertEquals(List.of("one"), SavedRuns.lenient(named).results().stream().map(x -> x.benchmark()).toList());
        assertTrue(Files.notExists(dir.resolve("unused.json")));
        assertTrue(r.out().contains(" report " + named + " -o corescope-report.html"), r.out());
    }

    /** A family that runs while another tour in the same folder saves its results there. */
    private static dev.corescope.bench.BenchFamily another(Path saved, String content) {
        return new TestFamilies.Sleeping("one") {
            @Override
            public dev.corescope.bench.FamilyRun run(dev.corescope.bench.BenchContext context) throws Exception {
                Files.writeString(saved, content);
                return super.run(context);
            }
        };
    }

    @Test
    void twoToursInOneFolderBothKeepTheirResults() throws Exception {
        Path saved = dir.resolve("corescope-results.json");
        String theOther = Json.write(ResultsFile.builder().failures(List.of(new ResultsFile.Failure("other", "the other tour's file"))).build());
        CommandLine cl = Main.commandLine(() -> List.of(another(saved, theOther)), saved);
        cl.setOut(new PrintWriter(new StringWriter()));
        cl.setErr(new PrintWriter(new StringWriter()));
        assertEquals(0, cl.execute());

        assertEquals(theOther, Files.readString(saved), "the tour that saved first keeps its file");
        List<Path> mine;
        try (var files = Files.list(dir)) {
            mine = files.filter(p -> !p.equals(saved)).toList();
        }
        assertEquals(1, mine.size(), mine::toString);
        assertEquals(List.of("one"), SavedRuns.lenient(mine.getFirst()).results().stream().map(x -> x.benchmark()).toList());
    }

    @Test
    void aFinishedFamilyIsSavedBeforeTheNextOneStarts() throws Exception {
        Path saved = dir.resolve("corescope-results.json");
        List<String> seenByTheSecond = new java.util.ArrayList<>();
        dev.corescope.bench.BenchFamily second = new TestFamilies.Sleeping("two") {
            @Override
            public dev.corescope.bench.FamilyRun run(dev.corescope.bench.BenchContext context) throws Exception {
                if (Files.exists(saved)) SavedRuns.lenient(saved).results().forEach(r -> seenByTheSecond.add(r.benchmark()));
                return super.run(context);
            }
        };
        CommandLine cl = Main.commandLine(() -> List.of(new TestFamilies.Sleeping("one"), second), saved);
        cl.setOut(new PrintWriter(new StringWriter()));
        cl.setErr(new PrintWriter(new StringWriter()));
        assertEquals(0, cl.execute());
        assertEquals(List.of("one"), seenByTheSecond, "the first family's results were on disk while the second ran");
        assertEquals(List.of("one", "two"), SavedRuns.lenient(saved).results().stream().map(x -> x.benchmark()).toList());
        try (var files = Files.list(dir)) {
            assertEquals(List.of(saved), files.toList(), "one file, no checkpoint left beside it");
        }
    }

    @Test
    void aTourInWhichEveryFamilyFailedWritesNothingAndSaysSo() throws Exception {
        Path saved = dir.resolve("corescope-results.json");
        CommandLine cl = Main.commandLine(() -> List.of(new TestFamilies.Failing()), saved);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        assertEquals(Main.EXIT_FAILURE, cl.execute());
        try (var files = Files.list(dir)) {
            assertEquals(List.of(), files.toList(), "no file, not even an empty one");
        }
        assertTrue(out.toString().contains("Nothing was saved: no family finished."), out.toString());
        assertTrue(err.toString().endsWith("failed: failing (IllegalStateException: boom: this test family fails on purpose); nothing was saved\n"),
                err.toString());
    }

    @Test
    void nextStepsWorkFromTheCurrentFolder() {
        Path cwd = Path.of("").toAbsolutePath();
        assertEquals("./run.sh", Tour.fromHere(cwd.resolve("run.sh")));
        assertEquals("./sub/run.sh", Tour.fromHere(cwd.resolve("sub/run.sh")));
        // a sibling folder, named unlike the checkout (a clone in a folder called "x" is this folder)
        String sibling = cwd.getFileName() + "-sibling";
        assertEquals("../" + sibling + "/run.sh", Tour.fromHere(cwd.getParent().resolve(sibling + "/run.sh")));
        assertEquals("'my results.json'", Tour.shell("my results.json"));
        assertEquals("'it'\\''s.json'", Tour.shell("it's.json"));
        String next = TourText.next("../corescope/run.sh", Path.of("out/r.json"), null).render(100);
        assertTrue(next.contains("../corescope/run.sh report out/r.json -o corescope-report.html"), next);
    }
}
