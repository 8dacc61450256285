package dev.corescope.cli;

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
        assertTrue(r.out().startsWith("== timerbase: "), r.out());
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
        CliRun.run("report", TOUR, "--format", "pdf").badInput("expected html or text but was 'pdf'");
        CliRun.run("report", TOUR).badInput("-o FILE.html is needed");
    }
}
