package dev.corescope.report;

import dev.corescope.testing.SavedRuns;
import dev.corescope.bench.Families;
import dev.corescope.text.TextDoc;
import dev.corescope.text.TextTable;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The verdicts are one document ({@link SeedVerdicts#document}): their text is it laid out at a
 * width, the page's verdicts section is it rendered by {@link DocHtml}; neither is built apart.
 */
class VerdictsDocumentTest {

    private static String page(List<SeedVerdicts.Verdict> v) {
        java.io.StringWriter h = new java.io.StringWriter();
        VerdictsHtml.section(new java.io.PrintWriter(h), "Verdicts", v, 1);
        return h.toString();
    }

    @Test
    void thePagesVerdictsAreTheRowsOfTheDocumentTheTextIsLaidOutFrom() throws Exception {
        ResultsFile tour = SavedRuns.lenient(Path.of("src/test/resources/results/tour-before.json"));
        List<SeedVerdicts.Verdict> v = SeedVerdicts.of(tour, Families.claims());
        TextDoc doc = VerdictsText.document(v, true);
        assertEquals(doc.render(100) + "(each claim's reasoning in full: --explain)\n\n", VerdictsText.text(v, 100), "the text is the document's");
        assertEquals(VerdictsText.document(v, true, true).render(100) + "\n", VerdictsText.text(v, 100, true), "and --explain's");
        String html = page(v);
        String text = VerdictsText.text(v, 100);
        TextTable seeds = doc.tables().get(0), claims = doc.tables().get(1);
        assertEquals(v.size(), seeds.size());
        for (TextTable.Row r : seeds.typedRows()) {
            TextTable.Link family = (TextTable.Link) r.cells().getFirst();
            assertTrue(html.contains("<tr class=\"" + VerdictsHtml.cssClass(r.status()) + "\"><th scope=\"row\"><a href=\"#file-1-"
                    + family.target() + "\">" + family.text() + "</a></th>"), "the seed's row, linked to its family: " + family + "\n" + html);
            assertTrue(text.contains("\n  " + family.text() + " "), family.text());
        }
        assertEquals(v.stream().mapToInt(x -> x.claims().size()).sum(), claims.size());
        for (TextTable.Row r : claims.typedRows()) {
            String id = (String) r.cells().getFirst();
            int row = html.indexOf("<tr class=\"" + VerdictsHtml.cssClass(r.status()) + "\"><th scope=\"row\">" + id + "</th>");
            assertTrue(row > 0, "the claim's row with its finding as class: " + id + "\n" + html);
            assertTrue(html.indexOf("<td class=\"ci\">", row) < html.indexOf("</tr>", row), "its interval cell: " + id);
            assertTrue(text.contains("\n  " + id + " "), "the same row keyed in the text: " + id + "\n" + text);
        }
        for (VerdictsText.Term t : VerdictsText.TERMS) {
            assertTrue(html.contains("<dt>" + t.words().replace("\"", "&quot;") + "</dt>"), t.words());
            assertTrue(text.contains("| " + t.words() + ": "), t.words());
        }
        assertFalse(html.contains("<ul class=\"verdicts\">"), "no list built apart from the document");
    }

    @Test
    void aMeasuredClaimsIntervalIsLowHighInTextAndABarWithTheClaimOnThePage() {
        ClaimResult r = new ClaimResult("x.faster", "x", "a seed", "it is faster", "time per call", "ns per call",
                Claim.Direction.LESS, Claim.Scale.ABSOLUTE, 1.0, "-1 ns per call", null, Finding.SUPPORTS, -1.2, -2.0, -0.5,
                -12.0, -20.0, -5.0, true, null, null, "every counted interval excludes zero",
                List.of(new ClaimResult.RowFinding("java", Map.of(), 10, 8.8, "ns/op", -1.2, -2.0, -0.5, -20.0, -5.0, true,
                        Finding.SUPPORTS, "2 runs per side", null)), List.of());
        List<SeedVerdicts.Verdict> v = List.of(new SeedVerdicts.Verdict("x", "a seed", SeedVerdicts.summary(List.of(r)), List.of(r)));
        String text = VerdictsText.text(v, 100);
        assertTrue(text.lines().anyMatch(l -> l.startsWith("  x.faster ") && l.contains("supports") && l.endsWith("[-2.00, -0.500] ns per call")), text);
        String html = page(v);
        // auto scale: 1.25 x the largest of |low|, |high|, |estimate|, |claim| = 2.5 ns over 80 px: -2 at 16, -0.5 at 64, the claim -1 at 48
        assertTrue(html.contains("<line class=\"ci-bar\" x1=\"16.0\" y1=\"7\" x2=\"64.0\""), html);
        assertTrue(html.contains("<line class=\"ci-claim\" x1=\"48.0\""), html);
    }

    @Test
    void aHostileSavedClaimIsTextOnThePageAndEscapedInTheTerminal() {
        String s = "</table><script>alert(1)</script>\u001b]0;PWNED\u0007";
        ClaimResult r = new ClaimResult("x.id" + s, "fam" + s, "seed" + s, "words" + s, "quantity" + s, "unit" + s,
                Claim.Direction.LESS, Claim.Scale.ABSOLUTE, 1.0, "claimed" + s, "conditions" + s, Finding.INCONCLUSIVE, -1.0, -2.0, 0.5,
                -1.0, -2.0, 0.5, true, null, null, "reason" + s, List.of(), List.of());
        ResultsFile file = ResultsFile.builder().claims(List.of(r)).build();
        List<SeedVerdicts.Verdict> v = SeedVerdicts.of(file, List.of());
        String html = page(v);
        assertFalse(html.contains("<script") || html.contains("\u001b") || html.contains("\u0007"), html);
        assertTrue(html.contains("<a href=\"#file-1-fam&lt;/table&gt;&lt;script&gt;"), "the link's target escaped: " + html);
        String text = VerdictsText.text(v, 100);
        assertFalse(text.contains("\u001b") || text.contains("\u0007"), text);
        assertTrue(text.contains("\\e]0;PWNED\\x07"), text);
    }
}
