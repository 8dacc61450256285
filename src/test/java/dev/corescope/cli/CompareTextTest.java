package dev.corescope.cli;

import dev.corescope.testing.SavedRuns;
import dev.corescope.report.Json;
import dev.corescope.report.ResultsFile;
import dev.corescope.testing.Approved;
import dev.corescope.text.TextDoc;
import dev.corescope.text.Width;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code compare}'s text from committed real results files, laid out at 80, 100 and 120
 * columns by the one document type: approved outputs, no line wider than the width, and every
 * line a table prints starts with its row's key (checked from the document's own tables, not
 * read back out of the text). Two pairs: a before/after of one machine (two tours) and two
 * machines (machine-a, measured, against machine-b-synthetic, docs/fleet.md's example).
 */
class CompareTextTest {

    private static final Path RESULTS = Path.of("src/test/resources/results");

    private static TextDoc document(String pair) throws Exception {
        Path a = pair.equals("tour") ? RESULTS.resolve("tour-before.json") : RESULTS.resolve("machines/machine-a.json");
        Path b = pair.equals("tour") ? RESULTS.resolve("tour-after.json") : RESULTS.resolve("machines/machine-b-synthetic.json");
        List<ResultsFile> fa = List.of(SavedRuns.lenient(a)), fb = List.of(SavedRuns.lenient(b));
        return CompareCommand.document(a.toString(), a.toString(), fa, b.toString(), b.toString(), fb, null);
    }

    @ParameterizedTest(name = "{0} at {1}")
    @CsvSource({"tour, 80", "tour, 100", "tour, 120", "machines, 80", "machines, 100", "machines, 120"})
    void theTextFitsItsWidthWithEveryRowKeyed(String pair, int width) throws Exception {
        TextDoc doc = document(pair);
        String text = doc.render(width);
        Approved.verify("compare/" + pair + "-" + width + ".txt", text);
        for (String l : text.lines().toList()) assertTrue(l.length() <= width, "wider than " + width + ": " + l);
        List<TextDoc.Table> tables = doc.parts().stream().filter(p -> p instanceof TextDoc.Table).map(p -> (TextDoc.Table) p).toList();
        assertTrue(tables.size() >= 3, "the rows as tables: " + tables.size());
        for (TextDoc.Table t : tables) {
            String rendered = t.table().render(t.indent(), width);
            assertTrue(text.contains(rendered), "the text holds the document's table as laid out at " + width);
            FamilyTextTest.assertKeyed(t.table(), t.indent(), rendered);
        }
    }

    @Test
    void wideShowsEveryColumnOnOneLinePerRow() throws Exception {
        TextDoc doc = document("tour");
        String wide = doc.render(Width.NONE);
        assertFalse(wide.contains("left out at"), "nothing left out with --wide");
        assertTrue(wide.contains("old interval") && wide.contains(" runs ") && wide.lines().anyMatch(l -> l.endsWith("  p")), wide);
        for (TextDoc.Table t : doc.parts().stream().filter(p -> p instanceof TextDoc.Table).map(p -> (TextDoc.Table) p).toList()) {
            assertTrue(wide.contains(t.table().render(t.indent(), Width.NONE)), "each table at its natural width");
            assertTrue(t.table().render(t.indent(), Width.NONE).lines().count() == t.table().size() + 1, "one line per row, one header");
        }
        String narrow = doc.render(80);
        assertTrue(narrow.contains("left out at 80 columns"), "what 80 columns leave out is said: " + narrow);
    }

    /**
     * Through the command, at its default width ({@code text.Width}: COLUMNS, else 100): no line
     * is wider, and every line that ends in a row's finding starts with that row's variant (the
     * old layout put the figures on a line of their own, under the row's name).
     */
    @Test
    void theCommandFitsTheTerminalsWidthAndKeepsEachRowsNameOnItsLine() throws Exception {
        Path a = RESULTS.resolve("tour-before.json"), b = RESULTS.resolve("tour-after.json");
        String out = CliRun.run("compare", a.toString(), b.toString()).succeeded().out();
        int width = Width.of(false);
        for (String l : out.lines().toList()) assertTrue(l.length() <= width, "wider than " + width + ": " + l);
        Set<String> variants = SavedRuns.lenient(a).results().stream().map(r -> r.variant()).collect(Collectors.toSet());
        List<String> rowLines = out.lines().filter(l -> l.matches(".*  (faster|slower|larger|smaller|higher|lower|no change|unresolved)\\b.*")).toList();
        assertTrue(rowLines.size() >= 122, "a line per matched row: " + rowLines.size());
        for (String l : rowLines) {
            assertTrue(variants.stream().anyMatch(v -> l.startsWith("  " + v + " ")), "a row's figures without its name: '" + l + "'");
        }
    }

    /**
     * Files written before this round (before-round3: the old layout of rows, params and runs)
     * still compare, against each other and against a new file, at the width, every row keyed;
     * a file of another schema version is refused in one line naming it.
     */
    @Test
    void filesFromBeforeStillCompareAndAnotherSchemaIsRefusedInOneLine() throws Exception {
        Path old = RESULTS.resolve("before-round3/bench-all-quick.json"), full = RESULTS.resolve("before-round3/bench-all-full.json");
        int width = Width.of(false);
        for (Path[] pair : new Path[][]{{old, full}, {old, RESULTS.resolve("tour-after.json")}}) {
            String out = CliRun.run("compare", pair[0].toString(), pair[1].toString()).succeeded().out();
            for (String l : out.lines().toList()) assertTrue(l.length() <= width, "wider than " + width + ": " + l);
            assertTrue(out.contains(" matched)"), out);
            TextDoc doc = CompareCommand.document(pair[0].toString(), pair[0].toString(), List.of(SavedRuns.lenient(pair[0])),
                    pair[1].toString(), pair[1].toString(), List.of(SavedRuns.lenient(pair[1])), null);
            for (TextDoc.Part p : doc.parts()) {
                if (p instanceof TextDoc.Table t) FamilyTextTest.assertKeyed(t.table(), t.indent(), t.table().render(t.indent(), width));
            }
        }
        Path other = java.nio.file.Files.createTempFile("schema2", ".json");
        try {
            java.nio.file.Files.writeString(other, java.nio.file.Files.readString(old).replace("corescope-results/1", "corescope-results/2"));
            CliRun.run("compare", old.toString(), other.toString()).badInput("corescope-results/2");
        } finally {
            java.nio.file.Files.delete(other);
        }
    }
}
