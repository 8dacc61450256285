package dev.corescope.report;

import dev.corescope.testing.SavedRuns;
import dev.corescope.bench.Families;
import dev.corescope.text.Markup;
import dev.corescope.text.TextDoc;
import dev.corescope.text.TextTable;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The before/after page and compare's text come from one document: the page's compare section
 * holds exactly the document's tables (same columns, same rows, each row classed by its finding,
 * each measured interval drawn as a bar), on two committed real tours.
 */
class ComparisonPageTest {

    @Test
    void thePageShowsTheTextsDocumentTableByTable() throws Exception {
        ResultsFile a = SavedRuns.lenient(Path.of("src/test/resources/results/tour-before.json"));
        ResultsFile b = SavedRuns.lenient(Path.of("src/test/resources/results/tour-after.json"));
        String html = HtmlReport.page(List.of(new HtmlReport.Input("before.json", a), new HtmlReport.Input("after.json", b)),
                Families.views(), Instant.EPOCH);
        int at = html.indexOf("<section id=\"compare\">");
        String section = html.substring(at, html.indexOf("</section>", at));
        TextDoc doc = ComparisonText.document(Comparison.of("before.json", List.of(a), "after.json", List.of(b), null, Families.allowances()));
        List<TextTable> tables = doc.parts().stream().filter(p -> p instanceof TextDoc.Table).map(p -> ((TextDoc.Table) p).table()).toList();
        assertEquals(tables.size(), HtmlReportTest.count(section, "<table class=\"doc-table\""), "one page table per table of the document");
        int from = 0, bars = 0, rows = 0;
        for (TextTable t : tables) {
            int start = section.indexOf("<table class=\"doc-table\"", from);
            int end = section.indexOf("</table>", start);
            String table = section.substring(start, end);
            from = end;
            for (TextTable.Column c : t.columns()) assertTrue(table.contains(">" + Markup.escape(c.name())), c.name() + " in " + table);
            for (TextTable.Row r : t.typedRows()) {
                rows++;
                String key = Markup.escape(String.valueOf(r.cells().getFirst())) + "</th>";
                assertTrue(table.contains(key), "row " + r.cells() + " in " + table);
                for (Object cell : r.cells()) {
                    if (cell instanceof TextTable.Interval iv && iv.measured()) bars++;
                }
            }
            assertEquals(t.size(), HtmlReportTest.count(table, "<tr class=\"") + HtmlReportTest.count(table, "<tr><th scope=\"row\""), "a page row per row: " + table);
        }
        assertEquals(122, rows - onlyRows(a, b), "every matched row");
        assertEquals(bars, HtmlReportTest.count(section, "<svg class=\"ci\""), "a bar per measured interval");
        assertEquals(HtmlReportTest.count(section, "<tr class=\"not-resolvable-here\">") + HtmlReportTest.count(section, "<tr class=\"no-change-detectable-here\">")
                + HtmlReportTest.count(section, "<tr class=\"significant\">"), 122, "every matched row classed by its finding");
    }

    private static int onlyRows(ResultsFile a, ResultsFile b) {
        Comparison c = Comparison.of("a", List.of(a), "b", List.of(b), null, List.of());
        return c.onlyBefore().size() + c.onlyAfter().size();
    }
}
