package dev.corescope.report;

import dev.corescope.text.TextDoc;
import dev.corescope.text.TextTable;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A family's document on the page: its parts as HTML, read from the parts, never from text. */
class DocHtmlTest {

    private static final String HOSTILE = "</table><script>alert(1)</script>";

    private static int count(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        int n = 0;
        while (m.find()) n++;
        return n;
    }

    private static TextDoc document(String s, String svg) {
        TextTable t = new TextTable(TextTable.Column.key("variant"), TextTable.Column.key("params"),
                TextTable.Column.number("java", "ns/op"), TextTable.Column.text("note" + s).optional(1));
        t.row("before", "timers=1024", "12.5", s);
        t.row(s, "", "13.0", "");
        return new TextDoc().title("timerbase" + s).heading("Per call" + s).paragraph("what it measures" + s).table(t)
                .figure("histogram", "latency" + s, svg).notes(List.of("a note" + s, "another"))
                .findings(List.of(new TextDoc.Finding("supports", "fewer instructions" + s, "-3 [-3, -3]" + s)));
    }

    private static String render(TextDoc doc, List<String> pictures) {
        java.io.StringWriter h = new java.io.StringWriter();
        DocHtml.render(new java.io.PrintWriter(h), doc, "timerbase", pictures);
        return h.toString();
    }

    @Test
    void everyPartIsMarkupOfItsKindAndEveryStringInItIsText() {
        String svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" onload=\"alert(2)\"><script>alert(3)</script><rect width=\"4\" height=\"4\"/></svg>";
        String html = render(document(HOSTILE, svg), List.of());
        assertFalse(html.contains("<script") || html.contains("onload"), html);
        assertEquals(10, count(html, "&lt;/table&gt;&lt;script&gt;alert\\(1\\)&lt;/script&gt;"), "each hostile string once, as text: " + html);
        assertEquals(1, count(html, "<h4>timerbase&lt;"), "the title");
        assertEquals(1, count(html, "<h4>Per call&lt;"), "the heading");
        assertEquals(1, count(html, "<p>what it measures&lt;"), "the paragraph");
        assertEquals(1, count(html, "<table class=\"doc-table\">"), html);
        assertEquals(2, count(html, "<li>a note&lt;|<li>another</li>"), "the notes as a list");
        assertEquals(1, count(html, "<li class=\"supports\"><span class=\"finding\">supports</span>: fewer instructions&lt;"), html);
        assertEquals(1, count(html, "<figure class=\"heatmap\" data-figure=\"histogram\"><figcaption>latency&lt;[^<]*</figcaption><svg"), html);
        assertTrue(html.contains("<rect height=\"4\" width=\"4\"></rect>"), "the drawing stays: " + html);
        assertTrue(html.contains("that are not plain drawing"), "the page says what of the figure it left out");
    }

    @Test
    void aTableKeepsItsTypesTheKeyAsRowHeadersNumbersRightAndTheUnitInTheHeader() {
        String html = render(document("", null), List.of());
        assertTrue(html.contains("<tr><th scope=\"col\">variant</th><th scope=\"col\">params</th><th scope=\"col\" class=\"num\">java <span class=\"unit\">ns/op</span></th><th scope=\"col\">note</th></tr>"), html);
        assertTrue(html.contains("<tr><th scope=\"row\">before</th><th scope=\"row\">timers=1024</th><td class=\"num\">12.5</td><td></td></tr>"), html);
    }

    @Test
    void aFigureWithoutItsOwnPictureTakesTheFamilysPictureAndTheRestFollowTheDocument() {
        String a = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"first\"><rect/></svg>";
        String b = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"second\"><rect/></svg>";
        String html = render(document("", null), List.of(a, b));
        int figure = html.indexOf("data-figure=\"histogram\"");
        assertTrue(figure > 0 && html.indexOf("class=\"first\"") > figure && html.indexOf("class=\"first\"") < html.indexOf("</figure>", figure), html);
        assertTrue(html.indexOf("class=\"second\"") > html.indexOf("<ul class=\"findings\">"), "a picture no figure took comes after the document");

        String none = render(document("", null), List.of());
        assertTrue(none.contains("<p class=\"note\">This file holds nothing to draw this from.</p>"), none);
    }

    @Test
    void thePageShowsADocumentedFamilyFromItsDocumentWithItsSavedRowsFolded() {
        Result r = Result.builder().benchmark("timerbase").variant("before").implementation("java").metric("op").unit("ns/op")
                .score(12.5).error(0.1).samples(5).params(Map.of("timers", 1024)).build();
        ResultsFile f = ResultsFile.builder().results(List.of(r)).build();
        FamilyViews views = file -> List.of(new FamilyViews.View("timerbase", List.of(), document("", null)));
        String html = HtmlReport.page(List.of(new HtmlReport.Input("a.json", f)), views, Instant.EPOCH);
        String section = html.substring(html.indexOf("<section class=\"family\" id=\"file-1-timerbase\">"));
        section = section.substring(0, section.indexOf("</section>"));
        assertTrue(section.contains("<div class=\"doc\" data-family=\"timerbase\">"), section);
        assertFalse(section.contains("THE TEXT") || section.contains("parsed back"), "nothing of the text is shown or read back: " + section);
        assertTrue(section.indexOf("<details class=\"rows\"><summary>every saved row (1)") > section.indexOf("<div class=\"doc\""), section);
        assertTrue(section.contains("<table class=\"results\" data-family=\"timerbase\">"), "the saved rows are still there, folded");
    }

    @Test
    void anIntervalCellIsABarToScaleARowStatusItsClassAndDefinitionsAList() {
        TextTable t = new TextTable(TextTable.Column.key("claim"), TextTable.Column.text("interval"));
        t.statusRow("supports", "time", TextTable.Interval.of(-10.0, -20.0, -5.0).claimed(-10.0).unit("%").scaled(50.0));
        t.statusRow("not testable here", "size", TextTable.Interval.none(null, "not measured"));
        t.statusRow(HOSTILE, HOSTILE, TextTable.Interval.of(1.0, 0.5, 200.0).unit(HOSTILE).scaled(50.0));
        String html = render(new TextDoc().table(t).definitions(List.of(new TextDoc.Term("supports" + HOSTILE, "meaning" + HOSTILE))), List.of());
        assertFalse(html.contains("<script"), html);
        assertTrue(html.contains("<tr class=\"supports\"><th scope=\"row\">time</th><td class=\"ci\"><svg class=\"ci\""), html);
        // 50% either side of 0 over 160 px: 0 at 80, -20% at 48, -5% at 72, the claim and the estimate at 64
        assertTrue(html.contains("<line class=\"ci-bar\" x1=\"48.0\" y1=\"7\" x2=\"72.0\""), html);
        assertTrue(html.contains("<line class=\"ci-claim\" x1=\"64.0\""), html);
        assertTrue(html.contains("<circle cx=\"64.0\""), html);
        assertTrue(html.contains("<span class=\"ci-text\">[-20.0, -5.00]%</span>"), html);
        assertTrue(html.contains("<tr class=\"not-testable-here\"><th scope=\"row\">size</th><td class=\"ci\"><span class=\"note\">not measured</span>"), html);
        assertTrue(html.contains("<tr class=\"-table-script-alert-1-script\">"), "a hostile status is a class name of letters: " + html);
        assertTrue(html.contains("M160 7"), "an interval beyond its scale gets an arrow: " + html);
        assertTrue(html.contains("<dl class=\"legend\">\n<dt>supports&lt;/table&gt;"), html);
        assertEquals(5, count(html, "&lt;/table&gt;&lt;script&gt;"), "key, unit (title and text), term, meaning as text: " + html);
    }
}
