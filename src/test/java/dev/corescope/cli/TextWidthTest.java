package dev.corescope.cli;

import dev.corescope.testing.SavedRuns;
import dev.corescope.bench.BenchFamily;
import dev.corescope.bench.Families;
import dev.corescope.report.Json;
import dev.corescope.report.ResultsFile;
import dev.corescope.text.Width;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The text of every family, rendered from each committed results file as {@code bench},
 * {@code report --format text} print it, fits the default width (100) without {@code --wide}
 * and loses no word but in columns it says it left out; with {@code --wide} every table is at its natural width, a row a line.
 */
class TextWidthTest {

    private static List<Path> resultsFiles() throws IOException {
        try (Stream<Path> s = Files.list(Path.of("src/test/resources/results"))) {
            // corescope's results files; JMH's own -rf json (an array) is compare's input, not report's
            return s.filter(p -> p.toString().endsWith(".json") && !p.getFileName().toString().startsWith("jmh-")).sorted().toList();
        }
    }

    private static List<String> words(String text) {
        return Arrays.stream(text.split("\\s+")).filter(w -> !w.isEmpty()).toList();
    }

    /**
     * Every word of {@code raw} is in {@code fitted} as often (fitting may repeat a table's first
     * cells above each group of columns and a {@code #} at the start of a wrapped comment line,
     * never drop or change a word); the first difference, or null.
     */
    private static String lost(String raw, String fitted) {
        java.util.Map<String, Integer> count = new java.util.HashMap<>();
        for (String w : words(fitted)) count.merge(w, 1, Integer::sum);
        for (String w : words(raw)) {
            if (count.merge(w, -1, Integer::sum) < 0) return w;
        }
        return null;
    }

    private static void fits(String what, String text) {
        List<String> wide = text.lines().filter(l -> l.length() > Width.DEFAULT).toList();
        assertEquals(List.of(), wide, what + ": lines wider than " + Width.DEFAULT);
    }

    @Test
    void eachFamilysTextFromEachCommittedResultsFileFitsTheDefaultWidthAndLosesNoWord() throws IOException {
        int families = 0, wideBefore = 0;
        for (Path p : resultsFiles()) {
            ResultsFile file = SavedRuns.lenient(p);
            for (BenchFamily f : Families.all()) {
                if (file.results().stream().noneMatch(r -> r.benchmark().equals(f.name())) && f.document(file).isEmpty()) continue;
                String wide = reportText(file, Families.all(), f.name(), p, Width.NONE, false);
                String fitted = reportText(file, Families.all(), f.name(), p, Width.DEFAULT, false);
                fits(p.getFileName() + " " + f.name(), fitted);
                String lost = lost(wide, fitted);
                assertTrue(lost == null || fitted.contains("; --wide shows them)"),
                        p.getFileName() + " " + f.name() + ": '" + lost + "' was lost and no line says which columns were left out");
                families++;
                if (wide.lines().anyMatch(l -> l.length() > Width.DEFAULT)) wideBefore++;
            }
        }
        assertTrue(families >= 8, "families rendered: " + families);
        assertTrue(wideBefore > 0, "some family's text is wider than " + Width.DEFAULT + " columns at --wide, so fitting is tested, not assumed");
    }

    @Test
    void reportFormatTextFitsAndWideKeepsEveryRowOnOneLine() throws IOException {
        for (Path p : resultsFiles()) {
            CliRun narrow = CliRun.run("report", p.toString(), "--format", "text").succeeded();
            fits(p.getFileName().toString(), narrow.out());
            CliRun wide = CliRun.run("report", p.toString(), "--format", "text", "--wide").succeeded();
            String lost = lost(wide.out(), narrow.out());
            assertTrue(lost == null || narrow.out().contains("; --wide shows them)"), p.getFileName() + ": '" + lost + "' was lost unsaid");
            assertEquals(reportText(SavedRuns.lenient(p), Families.all(), null, p, Width.NONE, false), wide.out(),
                    "--wide: every table at its natural width");
        }
        CliRun.run("report", resultsFiles().getFirst().toString(), "--wide", "-o", "x.html").badInput("--wide: goes with --format text");
    }

    /** {@code ReportText.write}'s text as a string. */
    private static String reportText(dev.corescope.report.ResultsFile file, java.util.List<dev.corescope.bench.BenchFamily> families,
                                     String only, java.nio.file.Path path, int width, boolean explain) {
        java.io.StringWriter s = new java.io.StringWriter();
        ReportText.write(new java.io.PrintWriter(s), file, families, only, path, width, explain);
        return s.toString();
    }
}
