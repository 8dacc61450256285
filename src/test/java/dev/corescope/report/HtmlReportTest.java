package dev.corescope.report;

import dev.corescope.testing.SavedRuns;
import dev.corescope.bench.Families;
import dev.corescope.topology.HwlocXmlWriter;
import dev.corescope.topology.Topology;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HtmlReportTest {

    private static final Instant NOW = Instant.parse("2025-01-01T00:00:00Z");

    private static ResultsFile file(double score, String variant) {
        Result r = Result.builder().benchmark("timerbase").variant(variant).implementation("java").metric("op").unit("ns/op")
                .score(score).error(0.01).samples(10).cpus("0").params(Map.of("timers", 1024)).runs(List.of(new RunFigures(score * 1.001, 5, 0.01), new RunFigures(score * 0.999, 5, 0.01))).build();
        Histogram h = new Histogram("timerbase", "before", "java", 20, new long[] {0, 500, 40, 3, 0, 0, 7}, 550, 7, 30.0, 70.0, 9000.0);
        Layout l = new Layout("packed", 128, 2, 64, Map.of("offstack", true), List.of(
                new Layout.Row(0, 4, "field", "count"), new Layout.Row(4, 60, "padding", "(padding)"), new Layout.Row(64, 64, "field", "mask")));
        Matrix m = new Matrix(new int[] {0, 1}, "ns", new Double[][] {{null, 30.5}, {27.8, null}}, null);
        Counters c = new Counters("timerbase", Counters.SCOPE_FAMILY_THREAD_INHERIT, List.of(
                new Counters.Counter("task-clock", "ns", 1_500_000L, null, null, null),
                new Counters.Counter("cycles", "count", null, null, null, "perf_event_open(cycles) failed: ENOENT (2)")));
        Environment env = new Environment("Test CPU", "Linux 6.1", "JDK 25", List.of(), "0-1", "0-1", "", "", false, "0-1", "none",
                null, null, null, false, "2025-01-01T00:00:00Z", "2025-01-01T00:01:00Z", List.of("the governor is powersave"),
                null, null, null, null, null, null);
        return ResultsFile.builder().environment(env).results(List.of(r))
                .layouts(List.of(l)).histograms(List.of(h)).matrix(m).failures(List.of(new ResultsFile.Failure("locks", "boom"))).counters(List.of(c)).topology(new MachineTopology("1 package, 2 cores", "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"topo\"><rect/></svg>", null, null, null)).build();
    }

    private static String render(HtmlReport.Input... inputs) {
        return HtmlReport.page(List.of(inputs), Families.views(), NOW);
    }

    /** How often {@code regex} matches in {@code text} (the page tests count rows and bars). */
    static int count(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        int n = 0;
        while (m.find()) n++;
        return n;
    }

    @Test
    void thePageIsSelfContained() {
        String html = render(new HtmlReport.Input("a.json", file(2.5, "before")));
        assertFalse(html.contains("<script"), "no script");
        assertFalse(html.contains("src="), "nothing loaded");
        assertFalse(html.contains("<link"), "no stylesheet link");
        assertFalse(html.contains("@import"), "no CSS import");
        String withoutSvgNamespace = html.replace("xmlns=\"http://www.w3.org/2000/svg\"", "");
        assertFalse(withoutSvgNamespace.contains("http://") || withoutSvgNamespace.contains("https://"), "no URL at all");
    }

    @Test
    void oneFileHasEverySectionAndNoCompare() {
        String html = render(new HtmlReport.Input("a.json", file(2.5, "before")));
        assertFalse(html.contains("id=\"compare\""));
        assertEquals(1, count(html, "<svg[^>]*class=\"topo\""), "the topology picture from the file");
        assertEquals(1, count(html, "<svg[^>]*class=\"histogram\""));
        assertEquals(4, count(html, "<rect class=\"bucket\""), "one bar per non-empty bucket");
        assertTrue(html.contains("<table class=\"results\" data-family=\"timerbase\">"));
        assertTrue(html.contains("1 memory layout not drawn: a family draws its own"), "no family model, no layout drawn by the shell");
        assertTrue(html.contains("<table class=\"doc-table\" data-name=\"counters\">"));
        assertTrue(html.contains("n/a cycles: perf_event_open failed: ENOENT (2)"), "why a counter is missing");
        assertTrue(html.contains("<div class=\"warn\"><b>Warning:</b> the governor is powersave</div>"));
        assertTrue(html.contains("<div class=\"fail\"><b>Failed:</b> locks: boom</div>"));
    }

    @Test
    void twoFilesGetTheCompareTableFirst() {
        String html = render(new HtmlReport.Input("a.json", file(2.5, "before")), new HtmlReport.Input("b.json", file(2.0, "before")));
        int compare = html.indexOf("<section id=\"compare\">");
        assertTrue(compare > 0 && compare < html.indexOf("<section id=\"file-1\""));
        String section = html.substring(compare, html.indexOf("</section>", compare));
        // compare's own document (the parts compare prints as text), its row keyed and classed by its finding
        assertTrue(section.contains("<div class=\"doc\" data-family=\"compare\">"), section);
        assertTrue(section.contains("<tr class=\"significant\"><th scope=\"row\">before</th><th scope=\"row\">java</th>"), section);
        assertTrue(section.contains("<span class=\"ci-text\">[-25.0, -14.7]%</span></td><td>faster</td>"), "the interval and the finding: " + section);
        assertEquals(1, count(section, "<svg class=\"ci\""), "one interval bar per row");
        assertTrue(section.contains("<h4>timerbase op in ns/op: 1 row (timers=1024)</h4>"), section);
        assertTrue(section.contains("<h4>compare: the change from before to after, row by row</h4>"), "the document's title: " + section);
        assertEquals(1, count(html, "<svg[^>]*class=\"histogram overlay\""), "the two histograms laid over each other");
        assertTrue(html.contains("add/remove: 0/0 better/worse: 1/0"));
        assertEquals(2, count(html, "<svg[^>]*class=\"topo\""));
    }

    @Test
    void textFromTheFilesIsEscaped() {
        String html = render(new HtmlReport.Input("<a.json>", file(2.5, "<script>alert(1)</script>")));
        assertFalse(html.contains("<script>alert"));
        assertTrue(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        assertTrue(html.contains("&lt;a.json&gt;"));
    }

    @Test
    void textFromTwoFilesIsEscapedInTheBeforeAndAfterSection() {
        String evil = "<script>alert(1)</script>";
        ResultsFile a = file(2.5, evil), b = file(2.0, evil);
        Result odd = a.results().getFirst().toBuilder().variant("x").params(Map.of("<img src=x onerror=alert(2)>", "\"><svg onload=alert(3)>")).build();
        a = a.toBuilder().results(List.of(a.results().getFirst(), odd)).build();
        b = b.toBuilder().results(List.of(b.results().getFirst(), odd.toBuilder().score(1.0).build())).build();
        String html = render(new HtmlReport.Input("<a.json>", a), new HtmlReport.Input("<b.json>", b));
        int compare = html.indexOf("<section id=\"compare\">");
        String section = html.substring(compare, html.indexOf("</section>", compare));
        assertFalse(section.contains("<script>alert") || section.contains("<img src") || section.contains("<svg onload"), section);
        assertTrue(section.contains("<th scope=\"row\">&lt;script&gt;alert(1)&lt;/script&gt;</th>"), section);
        assertTrue(section.contains("&lt;img src=x onerror=alert(2)&gt;=&quot;&gt;&lt;svg onload=alert(3)&gt;"), section);
        assertTrue(section.contains("before: &lt;a.json&gt;"), section);
    }

    @Test
    void aFileWithoutTopologySaysHowToDrawIt() {
        ResultsFile f = file(1, "before");
        ResultsFile old = ResultsFile.builder().schema(f.schema()).environment(f.environment()).results(f.results())
                .layouts(f.layouts()).histograms(f.histograms()).matrix(f.matrix()).failures(f.failures()).build();
        String html = render(new HtmlReport.Input("old.json", old));
        assertTrue(html.contains("No topology in this file"));
        assertTrue(html.contains("./run.sh topology --format svg -o topology.svg"));
    }

    @Test
    void anXmlDeclarationIsDroppedWhenAnSvgIsInlined() {
        assertEquals("<svg/>", SvgSanitizer.inline("<?xml version=\"1.0\"?>\n<svg/>"));
    }

    static final String HOSTILE_SVG = "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" class=\"topo\" onload=\"document.title='onload'\">"
            + "<script>document.title='script'</script>"
            + "<rect width=\"10\" height=\"10\" fill=\"url(#offline)\" onclick=\"document.title='click'\" style=\"background:url(http://x)\"/>"
            + "<rect width=\"5\" fill=\"url(http://evil.example/x)\"/>"
            + "<a xlink:href=\"javascript:document.title='link'\"><text>click</text></a>"
            + "<foreignObject><body xmlns=\"http://www.w3.org/1999/xhtml\"><img src=\"x\" onerror=\"document.title='img'\"/></body></foreignObject>"
            + "<set attributeName=\"onmouseover\" to=\"document.title='set'\"/>"
            + "<text x=\"1\">&lt;/svg&gt;&lt;script&gt;document.title='text'&lt;/script&gt;</text>"
            + "</svg>";

    static ResultsFile withTopologySvg(String svg) {
        ResultsFile f = file(1, "before");
        return ResultsFile.builder().schema(f.schema()).environment(f.environment()).results(f.results())
                .layouts(f.layouts()).histograms(f.histograms()).matrix(f.matrix()).failures(f.failures()).counters(f.counters()).topology(new MachineTopology("1 package", svg, null, null, null)).build();
    }

    @Test
    void aTopologyPictureKeepsOnlyDrawingElementsAndPresentationAttributes() {
        String html = render(new HtmlReport.Input("a.json", withTopologySvg(HOSTILE_SVG)));
        String lower = html.toLowerCase(java.util.Locale.ROOT);
        assertFalse(lower.contains("<script"), html);
        assertFalse(lower.contains("onload") || lower.contains("onclick") || lower.contains("onerror"), html);
        assertFalse(lower.contains("javascript:"), html);
        assertFalse(lower.contains("foreignobject") || lower.contains("<set") || lower.contains("xlink"), html);
        assertFalse(lower.contains("evil.example") || lower.contains("style=\"background"), html);
        assertTrue(html.contains("<rect fill=\"url(#offline)\" height=\"10\" width=\"10\"></rect>"), "drawing and local references stay: " + html);
        assertTrue(html.contains("&lt;/svg&gt;&lt;script&gt;"), "text stays text");
        assertTrue(html.contains("that are not plain drawing"), "the page says something was left out");
    }

    @Test
    void aTopologyPictureThatIsNotWellFormedOrHasADoctypeIsNotShown() {
        for (String bad : List.of("<svg xmlns=\"http://www.w3.org/2000/svg\"><script>alert(1)</script>",
                "<!DOCTYPE svg [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><svg xmlns=\"http://www.w3.org/2000/svg\"><text>&x;</text></svg>",
                "<html><script>alert(1)</script></html>")) {
            String html = render(new HtmlReport.Input("a.json", withTopologySvg(bad)));
            assertFalse(html.contains("<script"), html);
            assertFalse(html.contains("root:"), "no entity was expanded");
            assertTrue(html.contains("cannot be shown"), html);
        }
    }

    // ---- the topology as a model (hwloc XML), drawn at page time ----------------------------

    static ResultsFile withTopologyModel(String hwlocXml) {
        return file(1, "before").toBuilder().topology(MachineTopology.of("1 package", null, hwlocXml)).build();
    }

    /** A real machine's saved model with script where hwloc keeps names, and attributes hwloc has not. */
    static String hostileModel() {
        String xml = HwlocXmlWriter.write(Topology.read(dev.corescope.topology.Fixtures.root("16amd64-8n2c")));
        String hostile = xml.replaceFirst("<info name=\"CPUModel\" value=\"[^\"]*\"/>",
                        "<info name=\"CPUModel\" value=\"&lt;/svg&gt;&lt;script&gt;document.title='model'&lt;/script&gt;\"/>")
                .replaceFirst("<object type=\"Package\"", "<object onload=\"document.title='onload'\" type=\"Package\"")
                .replaceFirst("<info name=\"Backend\" value=\"Linux\"/>",
                        "<info name=\"Backend\" value=\"Linux\"/><![CDATA[</svg><script>document.title='cdata'</script>]]>");
        assertTrue(hostile.contains("document.title='model'") && hostile.contains("onload=") && hostile.contains("CDATA"), "every hostile part went in");
        return hostile;
    }

    @Test
    void aTopologyModelIsDrawnAtPageTimeAndWhatItNamesStaysText() {
        String html = render(new HtmlReport.Input("a.json", withTopologyModel(hostileModel())));
        String lower = html.toLowerCase(java.util.Locale.ROOT);
        assertEquals(1, count(html, "<figure class=\"topology\" id=\"topology-1\"><figcaption>[^<]*</figcaption><svg "), "the picture is drawn from the model");
        assertTrue(count(html, "<text[^>]*>PU ") >= 16, "every PU of the 16-CPU machine is drawn");
        assertFalse(lower.contains("<script") || lower.contains("onload"), html);
        assertTrue(html.contains("&lt;/svg&gt;&lt;script&gt;document.title=&#39;model&#39;&lt;/script&gt;"), "the CPU model is text in the picture");
        assertFalse(html.contains("that are not plain drawing"), "corescope's own drawing needs nothing left out");
    }

    @Test
    void aTopologyModelWithDeclarationsEntitiesOrNotHwlocsIsNotDrawnAndSaysWhyInOneNote() {
        String xxe = "<?xml version=\"1.0\"?><!DOCTYPE topology [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>"
                + "<topology version=\"2.0\"><object type=\"Machine\" os_index=\"0\" cpuset=\"0x1\"><info name=\"CPUModel\" value=\"&x;\"/>"
                + "<object type=\"PU\" os_index=\"0\" cpuset=\"0x1\"/></object></topology>";
        String laughs = "<?xml version=\"1.0\"?><!DOCTYPE topology [<!ENTITY a \"ha\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;\">]>"
                + "<topology version=\"2.0\"><object type=\"Machine\" cpuset=\"0x1\"><info name=\"x\" value=\"&b;\"/></object></topology>";
        String entity = "<topology version=\"2.0\"><object type=\"Machine\" cpuset=\"0x1\">&x;</object></topology>";
        String svgInstead = "<svg xmlns=\"http://www.w3.org/2000/svg\" onload=\"document.title='svg'\"><script>alert(1)</script></svg>";
        String broken = "<topology version=\"2.0\"><object type=\"Machine\" cpuset=\"0x1\"><script>alert(1)</script>";
        String nested = "<topology version=\"2.0\">" + "<object type=\"Group\">".repeat(200) + "</topology>";
        for (String bad : List.of(xxe, laughs, entity, svgInstead, broken, nested)) {
            String html = render(new HtmlReport.Input("a.json", withTopologyModel(bad)));
            String lower = html.toLowerCase(java.util.Locale.ROOT);
            assertFalse(lower.contains("<script") || lower.contains("onload"), html);
            assertFalse(html.contains("root:") || html.contains("hahaha"), "no entity was expanded");
            assertEquals(1, count(html, "<p class=\"note\">The topology in this file cannot be drawn: the file&#39;s topology \\(hwloc XML\\): [^<\n]+</p>"), html);
            assertEquals(0, count(html, "<svg[^>]*class=\"topology"), "no picture");
        }
    }

    @Test
    void aFileOfBothKindsIsDrawnFromTheModelNotFromTheSavedPicture() {
        ResultsFile both = file(1, "before").toBuilder().topology(new MachineTopology("1 package", HOSTILE_SVG, null, null,
                HwlocXmlWriter.write(Topology.read(dev.corescope.topology.Fixtures.root("16amd64-8n2c"))))).build();
        String html = render(new HtmlReport.Input("a.json", both));
        assertEquals(0, count(html, "class=\"topo\""), "the saved picture is not used when the model is there");
        assertTrue(count(html, "<text[^>]*>PU ") >= 16, html);
    }

    @Test
    void thePageForbidsEveryScriptWithAContentSecurityPolicy() {
        String html = render(new HtmlReport.Input("a.json", file(2.5, "before")));
        int csp = html.indexOf("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; script-src 'none';");
        assertTrue(csp > 0 && csp < html.indexOf("<title>"), "the policy comes before any content");
    }

    @Test
    void corescopesOwnTopologyPictureSurvivesTheSanitiserUnchangedInContent() throws Exception {
        ResultsFile tour = SavedRuns.lenient(java.nio.file.Path.of("src/test/resources/results/tour-before.json"));
        SvgSanitizer.Result r = SvgSanitizer.sanitize(SvgSanitizer.inline(tour.topology().svg()));
        assertEquals(0, r.removed(), "nothing of corescope's own picture is dropped");
        assertEquals(count(tour.topology().svg(), "<(rect|text|line|pattern)\\b"), count(r.svg(), "<(rect|text|line|pattern)\\b"));
    }

    @Test
    void theContentsComeFirstAndNoisyRowsNameTheirCause() {
        String html = render(new HtmlReport.Input("a.json", file(2.5, "before")));
        assertTrue(html.indexOf("<nav class=\"toc\">") < html.indexOf("<section id=\"file-1\""), "contents before the evidence");
        assertTrue(html.contains("<a href=\"#file-1-timerbase\">timerbase</a>"));
    }

    @Test
    void eachLayoutIsDrawnOnceByItsFamilysViewAndTheHeatmapByC2cs() throws Exception {
        for (String name : List.of("cpupri-quick.json", "c2c-quick.json")) {
            ResultsFile f = dev.corescope.testing.SavedRuns.read(name);
            String page = HtmlReport.page(List.of(new HtmlReport.Input(name, f)), Families.views(), NOW);
            java.io.StringWriter views = new java.io.StringWriter();
            for (FamilyViews.View v : Families.views().of(f)) DocHtml.render(new java.io.PrintWriter(views), v.document(), v.family(), v.svgs());
            for (String cell : List.of(">pri_to_cpu[0].count<", ">(object header)<", "<figure class=\"heatmap\"")) {
                assertEquals(count(views.toString(), java.util.regex.Pattern.quote(cell)), count(page, java.util.regex.Pattern.quote(cell)),
                        name + ": " + cell + " as often as the family's own view has it");
            }
        }
    }

    @Test
    void thePageNamesEachFileByItsNameNotItsPath() {
        assertEquals(List.of("a.json", "b.json"), HtmlReport.names(List.of(java.nio.file.Path.of("/tmp/x/a.json"), java.nio.file.Path.of("b.json"))));
        assertEquals(List.of("/tmp/x/a.json", "/tmp/y/a.json"),
                HtmlReport.names(List.of(java.nio.file.Path.of("/tmp/x/a.json"), java.nio.file.Path.of("/tmp/y/a.json"))), "two of one name keep their paths");
    }

    @Test
    void aSeedFamilyOpensWithItsVerdictAndThePageWithAllOfThem() {
        Result before = Result.builder().benchmark("timerbase").variant("before").implementation("java").metric("op").unit("ns/op")
                .score(10.0).error(0.05).samples(10).cpus("0").params(Map.of()).runs(List.of(new RunFigures(10.0, 5, 0.05), new RunFigures(10.02, 5, 0.05))).build();
        Result after = Result.builder().benchmark("timerbase").variant("after").implementation("java").metric("op").unit("ns/op")
                .score(8.0).error(3.0).samples(10).cpus("0").params(Map.of()).runs(List.of(new RunFigures(8.0, 5, 0.05), new RunFigures(8.01, 5, 0.05))).build();
        ResultsFile f = ResultsFile.builder().results(List.of(before, after)).build();
        Claim faster = new Claim("timerbase.faster", "timerbase", "a seed", "it is faster", "time per call", "ns per call",
                Claim.Direction.LESS, null, Claim.Scale.ABSOLUTE, null, Claim.Rows.of("timerbase", "op", "before", "after", "java"), null);
        FamilyViews views = new FamilyViews() {
            @Override
            public List<View> of(ResultsFile file) {
                return List.of();
            }

            @Override
            public List<Claim> claims() {
                return List.of(faster);
            }
        };
        String html = HtmlReport.page(List.of(new HtmlReport.Input("t.json", f)), views, NOW);
        int verdicts = html.indexOf("<section id=\"verdicts\">");
        assertTrue(verdicts > 0 && verdicts < html.indexOf("<section id=\"file-1\""), "verdicts at the top");
        assertTrue(html.contains("<tr class=\"supported\"><th scope=\"row\"><a href=\"#file-1-timerbase\">timerbase</a></th>"), html);
        int claim = html.indexOf("<tr class=\"supports\"><th scope=\"row\">timerbase.faster</th>", verdicts);
        assertTrue(claim > verdicts && html.indexOf("<svg class=\"ci\"", claim) > claim
                && html.indexOf("<svg class=\"ci\"", claim) < html.indexOf("</tr>", claim), "the claim's row, its interval a bar: " + html);
        assertTrue(html.contains("<dl class=\"legend\">"), "the finding words explained where first used");
        assertTrue(html.indexOf("<div class=\"verdict-family") > html.indexOf("id=\"file-1-timerbase\""), "the family's section opens with it");
        assertTrue(html.contains("<tr class=\"noisy\"><td>timerbase after java op"), "3.0 of 8.0 is noisy");
        assertEquals(1, count(html, "<tr class=\"noisy\">"));
    }

    @Test
    void overlayLabelsAreSpacedByTheirWidth() {
        for (int buckets : new int[] {3, 15, 40, 200, 1000}) {
            for (int bucketNs : new int[] {1, 20, 500, 100_000}) {
                double bucketPx = 320.0 / buckets;
                int step = Histogram.labelStep(buckets, bucketPx, (long) buckets * bucketNs);
                double widest = String.valueOf((long) buckets * bucketNs).length() * BeforeAfterHtml.CHAR_PX;
                assertTrue(step * bucketPx >= widest + 4, buckets + " buckets of " + bucketNs + " ns: step " + step);
            }
        }
    }
}
