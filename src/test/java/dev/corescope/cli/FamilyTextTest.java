package dev.corescope.cli;

import dev.corescope.testing.SavedRuns;
import dev.corescope.bench.BenchFamily;
import dev.corescope.bench.Families;
import dev.corescope.report.Json;
import dev.corescope.report.ResultsFile;
import dev.corescope.testing.Approved;
import dev.corescope.text.TextDoc;
import dev.corescope.text.TextTable;
import dev.corescope.text.Width;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each family's full text ({@code bench NAME}, {@code report --format text --family NAME}) from
 * its committed real results file, at 80, 100 and 120 columns: approved outputs, and on each:
 * no line is wider than the width, no line appears more than twice (the tour's rule), and every
 * line a table prints starts with its row's key. The tables are the family's document's own (its model rendered
 * as data), so the check reads no structure back out of the text.
 */
class FamilyTextTest {

    @ParameterizedTest(name = "{0} at {1}")
    @CsvSource({"cpumask, 80", "cpumask, 100", "cpumask, 120",
            "timerbase, 80", "timerbase, 100", "timerbase, 120",
            "cpupri, 80", "cpupri, 100", "cpupri, 120",
            "locks, 80", "locks, 100", "locks, 120",
            "c2c, 80", "c2c, 100", "c2c, 120"})
    void eachFamilysTextFitsItsWidthWithEveryRowKeyed(String family, int width) throws Exception {
        Path path = Path.of("src/test/resources/results", family + "-quick.json");
        ResultsFile file = SavedRuns.lenient(path);
        List<BenchFamily> families = Families.all();
        BenchFamily f = families.stream().filter(x -> x.name().equals(family)).findFirst().orElseThrow();
        String text = reportText(file, families, family, path, width, false);
        Approved.verify("cli/family/" + family + "-" + width + ".txt", text);

        for (String l : text.lines().toList()) assertTrue(l.length() <= width, "wider than " + width + ": " + l);
        // the tour's rule: no line of the text more than twice (a repeated sentence per row is a table's column)
        Map<String, Integer> seen = new java.util.HashMap<>();
        for (String l : text.lines().toList()) if (!l.isBlank()) seen.merge(l, 1, Integer::sum);
        seen.forEach((l, n) -> assertTrue(n <= 2, n + " times at " + width + ": " + l));

        TextDoc doc = f.document(file).orElseThrow();
        List<TextDoc.Table> tables = doc.parts().stream().filter(p -> p instanceof TextDoc.Table).map(p -> (TextDoc.Table) p).toList();
        assertFalse(tables.isEmpty(), family + " shows its rows as tables");
        for (TextDoc.Table t : tables) {
            String rendered = t.table().render(t.indent(), width);
            assertTrue(text.contains(rendered), "the text holds the document's table as laid out at " + width);
            assertKeyed(t.table(), t.indent(), rendered);
        }
    }

    /**
     * Every line of {@code rendered} is a header, the left-out line, a row's line starting with
     * its key cells (padded as the table pads them), or the continuation of a wrapped last cell,
     * blank as wide as the keys (so it never reads as a row of its own).
     */
    static void assertKeyed(TextTable table, String indent, String rendered) {
        List<TextTable.Column> key = table.columns().stream().filter(TextTable.Column::key).toList();
        assertFalse(key.isEmpty(), "a table without a row key: " + table.columns());
        TextTable keys = new TextTable(key);
        List<Integer> at = key.stream().map(c -> table.columns().indexOf(c)).toList();
        for (List<String> r : table.rows()) keys.row(at.stream().map(r::get).toArray());
        List<String> keyLines = keys.render(indent, Width.NONE).lines().toList();
        String header = keyLines.getFirst();
        List<String> rowKeys = keyLines.subList(1, keyLines.size());
        int keyWidth = keyLines.stream().mapToInt(String::length).max().orElseThrow();
        boolean leftOut = false;
        for (String l : rendered.lines().toList()) {
            if (l.isBlank()) continue;
            if (l.startsWith(indent + "(") || leftOut) {
                leftOut = true; // the line naming the columns left out, and its wrapped continuation
                continue;
            }
            if (l.startsWith(header)) continue;
            if (l.length() > keyWidth && l.substring(0, keyWidth).isBlank()) continue;
            assertTrue(rowKeys.stream().anyMatch(k -> l.startsWith(k) && (l.length() == k.length() || l.charAt(k.length()) == ' ')),
                    "a line without its row's key: '" + l + "'");
        }
    }

    /** {@code ReportText.write}'s text as a string. */
    private static String reportText(dev.corescope.report.ResultsFile file, java.util.List<dev.corescope.bench.BenchFamily> families,
                                     String only, java.nio.file.Path path, int width, boolean explain) {
        java.io.StringWriter s = new java.io.StringWriter();
        ReportText.write(new java.io.PrintWriter(s), file, families, only, path, width, explain);
        return s.toString();
    }
}
