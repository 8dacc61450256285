package dev.corescope.cli;

import dev.corescope.testing.SavedRuns;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code report --format text}: what bench printed, from a saved results file. */
class ReportTextTest {

    private static final String TOUR = Path.of("src/test/resources/results/tour-before.json").toString();

    @Test
    void printsEachFamilyOfASavedRunWithItsRowsThenTheEnvironment() {
        CliRun r = CliRun.run("report", TOUR, "--format", "text").succeeded();
        assertTrue(r.out().contains("== cpumask: "), r.out());
        assertTrue(r.out().contains("== timerbase: "), r.out());
        assertTrue(r.out().contains("first_but"), r.out());
        assertTrue(r.out().contains("\nEnvironment\n"), r.out());
    }

    @Test
    void familyLimitsTheTextToThatFamily() {
        CliRun r = CliRun.run("report", TOUR, "--format", "text", "--family", "timerbase").succeeded();
        assertTrue(r.out().startsWith("Verdicts ") && r.out().contains("\n== timerbase: "), "its verdicts, then its text: " + r.out());
        assertTrue(r.out().contains("\n  timerbase  ") && r.out().contains("\n  timerbase.time-per-call ")
                && !r.out().contains("\n  cpumask  ") && !r.out().contains("cpumask.time-per-call"), "only its own verdicts: " + r.out());
        assertTrue(!r.out().contains("== cpumask"), r.out());
        assertTrue(r.out().contains("\nEnvironment\n"), "the machine is named under every figure: " + r.out());
    }

    /** A file written before the round-two cpumask model (rows keyed by input, no callers) still renders. */
    @Test
    void aResultsFileFromBeforeTheRoundTwoModelsStillRenders() {
        String old = Path.of("src/test/resources/results/before-round3/bench-all-quick.json").toString();
        CliRun r = CliRun.run("report", old, "--format", "text", "--family", "cpumask").succeeded();
        assertTrue(r.out().contains("first_but"), r.out());
    }

    @Test
    void anUnknownFamilyOrFormatIsBadInput() {
        CliRun.run("report", TOUR, "--format", "text", "--family", "nosuch").badInput("--family nosuch: not a family");
        CliRun.run("report", TOUR, "--format", "pdf").badInput("expected html, text or svg but was 'pdf'");
        CliRun.run("report", TOUR).badInput("-o FILE.html is needed");
    }

    /**
     * Files written before this round's documents (the round-three start's bench-all, the tour
     * before the round-two models) render: every family they hold rows of has its section, laid
     * out at the default width.
     */
    @Test
    void filesFromBeforeTheDocumentsRenderEveryFamilyTheyHold() throws Exception {
        for (String old : java.util.List.of("src/test/resources/results/before-round3/bench-all-quick.json", TOUR)) {
            var file = SavedRuns.lenient(Path.of(old));
            CliRun r = CliRun.run("report", old, "--format", "text").succeeded();
            for (var f : dev.corescope.bench.Families.all()) {
                if (file.results().stream().anyMatch(x -> x.benchmark().equals(f.name()))) {
                    assertTrue(r.out().contains("== " + (f.document(file).isPresent() ? "bench " + f.name() : f.name() + ": ")),
                            old + ": no section for " + f.name() + "\n" + r.out());
                }
            }
            assertTrue(r.out().lines().allMatch(l -> l.length() <= dev.corescope.text.Width.DEFAULT), old + ":\n" + r.out());
        }
    }

    /** A file of another schema version is refused in one line naming that version, by text, page and compare alike. */
    @Test
    void aFileOfAnotherSchemaVersionIsRefusedInOneLineNamingIt(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path other = dir.resolve("future.json");
        java.nio.file.Files.writeString(other, java.nio.file.Files.readString(Path.of(TOUR))
                .replaceFirst("\"corescope-results/1\"", "\"corescope-results/2\""));
        String named = "schema 'corescope-results/2', expected corescope-results/1";
        CliRun.run("report", other.toString(), "--format", "text").badInput(named);
        CliRun.run("report", other.toString(), "-o", dir.resolve("p.html").toString()).badInput(named);
        CliRun.run("compare", TOUR, other.toString()).badInput(named);
    }

    @Test
    void aJitterRunPrintsItsTable(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path file = dir.resolve("jitter.json");
        java.nio.file.Files.writeString(file, dev.corescope.report.Json.write(
                dev.corescope.report.ResultsFile.builder().jitter(dev.corescope.jitter.JitterView.json(dev.corescope.jitter.JitterViewsTest.report("steal 4.0%"))).build()));
        String text = CliRun.run("report", file.toString(), "--format", "text").succeeded().out();
        assertTrue(text.contains("jitter: the quiet CPUs"), text);
        assertTrue(text.contains("Quietest CPU: 1"), text);
        assertTrue(!text.contains("No results."), text);
    }
}
