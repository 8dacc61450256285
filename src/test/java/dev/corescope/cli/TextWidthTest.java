package dev.corescope.cli;

import dev.corescope.bench.BenchFamily;
import dev.corescope.bench.Families;
import dev.corescope.report.ComparisonText;
import dev.corescope.report.Json;
import dev.corescope.report.ResultsFile;
import dev.corescope.report.ResultsText;
import dev.corescope.report.SeedVerdicts;
import dev.corescope.report.TextFit;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The text of every family, rendered from each committed results file as {@code bench},
 * {@code report --format text} and the tour print it, fits 120 columns without {@code --wide}
 * and loses no word; with {@code --wide} it is what the families wrote, long lines and all.
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
        List<String> wide = text.lines().filter(l -> l.length() > ComparisonText.WIDTH).toList();
        assertEquals(List.of(), wide, what + ": lines wider than " + ComparisonText.WIDTH);
    }

    @Test
    void eachFamilysTextFromEachCommittedResultsFileFits120Columns() throws IOException {
        int families = 0, wideBefore = 0;
        for (Path p : resultsFiles()) {
            ResultsFile file = Json.readResults(p);
            for (BenchFamily f : Families.all()) {
                if (file.results().stream().noneMatch(r -> r.benchmark().equals(f.name())) && f.text(file).isEmpty()) continue;
                String raw = ReportCommand.render(file, Families.all(), f.name());
                String fitted = TextFit.fit(raw, ComparisonText.WIDTH);
                fits(p.getFileName() + " " + f.name(), fitted);
                assertEquals(null, lost(raw, fitted), p.getFileName() + " " + f.name() + ": a word was lost");
                families++;
                if (raw.lines().anyMatch(l -> l.length() > ComparisonText.WIDTH)) wideBefore++;
            }
            String whole = TextFit.fit(SeedVerdicts.text(SeedVerdicts.of(file, Families.claims()), ComparisonText.WIDTH) + ResultsText.full(file), ComparisonText.WIDTH);
            fits(p.getFileName() + " (the tour's summary)", whole);
        }
        assertTrue(families >= 8, "families rendered: " + families);
        assertTrue(wideBefore > 0, "some family's own text is wider than 120 columns, so fitting is tested, not assumed");
    }

    @Test
    void reportFormatTextFitsAndWideKeepsEveryRowOnOneLine() throws IOException {
        for (Path p : resultsFiles()) {
            CliRun narrow = CliRun.run("report", p.toString(), "--format", "text").succeeded();
            fits(p.getFileName().toString(), narrow.out());
            CliRun wide = CliRun.run("report", p.toString(), "--format", "text", "--wide").succeeded();
            assertEquals(null, lost(wide.out(), narrow.out()), p.getFileName() + ": a word was lost");
            assertEquals(ReportCommand.render(Json.readResults(p), Families.all(), null), wide.out(), "--wide: as the families wrote it");
        }
        CliRun.run("report", resultsFiles().getFirst().toString(), "--wide", "-o", "x.html").badInput("--wide: goes with --format text");
    }

    @Test
    void aWideTableIsCutIntoGroupsOfColumnsThatRepeatTheFirst() {
        StringBuilder sb = new StringBuilder("Histogram:\n");
        List<String> header = new ArrayList<>(List.of("  bucket"));
        for (int c = 0; c < 12; c++) header.add(String.format("%12s", "column" + c));
        sb.append(String.join("  ", header)).append('\n');
        for (int r = 0; r < 3; r++) {
            List<String> row = new ArrayList<>(List.of(String.format("  %-6s", "[" + r + "]")));
            for (int c = 0; c < 12; c++) row.add(String.format("%12d", r * 1000 + c));
            sb.append(String.join("  ", row)).append('\n');
        }
        sb.append("# WARNING: ").append("a long warning that goes on and on ".repeat(6)).append('\n');
        String fitted = TextFit.fit(sb.toString(), 80);
        assertTrue(fitted.lines().allMatch(l -> l.length() <= 80), fitted);
        assertEquals(null, lost(sb.toString(), fitted), fitted);
        List<String> firsts = fitted.lines().filter(l -> l.startsWith("  [1]")).toList();
        assertTrue(firsts.size() >= 2, "each group of columns repeats the row's first cell: " + fitted);
        assertTrue(firsts.getFirst().endsWith(" 1007") && firsts.get(1).matches("  \\[1\\] +1008 +1009 +1010 +1011"),
                "columns in order, right-aligned: " + fitted);
        assertTrue(fitted.contains("\n#   a long warning"), "a comment wraps as a comment: " + fitted);
        assertFalse(TextFit.fit(sb.toString(), Integer.MAX_VALUE).lines().allMatch(l -> l.length() <= 80), "--wide keeps the long lines");
    }
}
