package dev.corescope.cli;

import dev.corescope.testing.SavedRuns;
import dev.corescope.report.Json;
import dev.corescope.report.ResultsFile;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The report page in a real browser: Debian's headless Chromium loads it from a file, with the
 * network and every background service off, and we read back the DOM it built and a screenshot.
 * The screenshot is kept as {@code target/report-screenshot.png} for a person to look at.
 */
@Tag("browser")
class ReportBrowserTest {

    @TempDir
    Path dir;

    private static Path chromium() {
        for (String name : List.of("chromium", "chromium-browser", "google-chrome")) {
            for (String p : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
                Path exe = Path.of(p, name);
                if (Files.isExecutable(exe)) return exe;
            }
        }
        return null;
    }

    private record Browser(int exit, String stdout, String stderr) {
    }

    private Browser run(Path chromium, Path page, String... extra) throws IOException, InterruptedException {
        Path profile = Files.createTempDirectory(dir, "profile");
        List<String> cmd = new ArrayList<>(List.of(chromium.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--user-data-dir=" + profile, "--enable-logging=stderr", "--v=0"));
        cmd.addAll(List.of(extra));
        cmd.add(page.toUri().toString());
        Path out = dir.resolve("chromium.out");
        Path err = dir.resolve("chromium.err");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("chromium did not finish within 120 s: " + cmd);
        }
        return new Browser(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }

    private static int count(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        int n = 0;
        while (m.find()) n++;
        return n;
    }

    /** Lines in which the page itself reported a problem: console messages, failed loads, parse errors. */
    private static List<String> pageErrors(String stderr) {
        return stderr.lines()
                .filter(l -> l.contains("CONSOLE") || l.contains("Uncaught") || l.contains("net::ERR_")
                        || l.contains("Failed to load resource") || l.contains("Refused to"))
                .toList();
    }

    @Test
    void theReportLoadsInChromiumWithEveryChartAndMakesAScreenshot() throws Exception {
        Path chromium = chromium();
        assumeTrue(chromium != null, "chromium is not installed (apt-get install -y chromium; .ci/run installs it)");
        Path before = ReportCommandTest.fixture("tour-before.json");
        Path after = ReportCommandTest.fixture("tour-after.json");
        Path html = dir.resolve("report.html");
        CliRun.run("report", before.toString(), after.toString(), "-o", html.toString()).succeeded();

        Browser dom = run(chromium, html, "--dump-dom");
        assertEquals(0, dom.exit(), dom.stderr());
        assertEquals(List.of(), pageErrors(dom.stderr()), "the page loads without errors");

        ResultsFile a = SavedRuns.lenient(before);
        ResultsFile b = SavedRuns.lenient(after);
        String d = dom.stdout();
        assertTrue(d.contains("<section id=\"compare\">"), "the compare table for two files");
        assertEquals(2, count(d, "<figure class=\"topology\""), "one topology picture per file");
        assertEquals(a.histograms().size() + b.histograms().size(), count(d, "<svg[^>]*class=\"histogram\""), "every histogram is drawn");
        assertTrue(count(d, "<rect class=\"bucket\"") > a.histograms().size(), "histograms have bars");
        assertEquals(2, count(d, "(?s)<section class=\"family\" id=\"file-[12]-c2c\">(?:(?!</section>).)*?<figure class=\"heatmap\"[^>]*>(?:<figcaption>[^<]*</figcaption>)?<svg"),
                "the c2c heatmap of each file, in its family's section");
        assertEquals(2, count(d, "memory layouts not drawn"), "no cpupri model in these files: the shell draws no family's layouts");
        assertTrue(count(d, "<table class=\"results\"") >= 2);

        Path shot = dir.resolve("report.png");
        Browser s = run(chromium, html, "--screenshot=" + shot, "--window-size=1300,2400", "--hide-scrollbars");
        assertEquals(0, s.exit(), s.stderr());
        assertEquals(List.of(), pageErrors(s.stderr()));
        byte[] png = Files.readAllBytes(shot);
        assertArrayEquals(new byte[] {(byte) 0x89, 'P', 'N', 'G'}, java.util.Arrays.copyOf(png, 4), "a PNG");
        assertTrue(png.length > 20_000, "a screenshot with content, " + png.length + " bytes");
        Path keep = Path.of(System.getProperty("corescope.basedir", "."), "target", "report-screenshot.png");
        Files.createDirectories(keep.getParent());
        Files.copy(shot, keep, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        try (Stream<String> lines = d.lines()) {
            assertFalse(lines.anyMatch(l -> l.contains("<parsererror")), "every inline SVG parsed");
        }
    }

    /**
     * A results file is input from anyone: scripts hidden in its topology picture (a
     * {@code <script>}, an {@code onload}, an image's {@code onerror} inside a
     * {@code <foreignObject>}) and in its text fields must not run when the page is opened.
     */
    @Test
    void aHostileResultsFileCannotRunScriptInThePage() throws Exception {
        var tree = (com.fasterxml.jackson.databind.node.ObjectNode) Json.MAPPER.readTree(ReportCommandTest.fixture("tour-before.json").toFile());
        String svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"200\" height=\"50\" onload=\"document.title='pwned-onload'\">"
                + "<script>document.title='pwned-script'</script>"
                + "<foreignObject width=\"10\" height=\"10\"><img xmlns=\"http://www.w3.org/1999/xhtml\" src=\"x\" onerror=\"document.title='pwned-img'\"/></foreignObject>"
                + "<rect width=\"10\" height=\"10\" fill=\"#4a78b5\"/></svg>";
        ((com.fasterxml.jackson.databind.node.ObjectNode) tree.get("topology")).put("svg", svg);
        assertNoScriptRuns(tree, "hostile-picture");
    }

    /**
     * A results file's topology model (hwloc XML) with script where hwloc keeps names, in a CDATA
     * section and as attributes: the page draws the machine from it, and none of it runs.
     */
    @Test
    void aHostileTopologyModelCannotRunScriptInThePage() throws Exception {
        var tree = (com.fasterxml.jackson.databind.node.ObjectNode) Json.MAPPER.readTree(ReportCommandTest.fixture("tour-before.json").toFile());
        String xml = dev.corescope.topology.HwlocXmlWriter.write(dev.corescope.topology.Topology.read(dev.corescope.topology.Fixtures.root("16amd64-8n2c")));
        String hostile = xml.replaceFirst("<info name=\"CPUModel\" value=\"[^\"]*\"/>",
                        "<info name=\"CPUModel\" value=\"&lt;/svg&gt;&lt;/figure&gt;&lt;script&gt;document.title='pwned-model'&lt;/script&gt;&lt;img src=x onerror=document.title='pwned-img'&gt;\"/>")
                .replaceFirst("<object type=\"Package\"", "<object onload=\"document.title='pwned-onload'\" type=\"Package\"")
                .replaceFirst("<info name=\"Backend\" value=\"Linux\"/>", "<info name=\"Backend\" value=\"Linux\"/><![CDATA[<script>document.title='pwned-cdata'</script>]]>");
        assertTrue(hostile.contains("pwned-model") && hostile.contains("pwned-onload") && hostile.contains("pwned-cdata"), "every hostile part went in");
        var topology = (com.fasterxml.jackson.databind.node.ObjectNode) tree.get("topology");
        topology.remove("svg");
        topology.put("hwlocXml", hostile);
        String d = assertNoScriptRuns(tree, "hostile-model");
        assertEquals(1, count(d, "<figure class=\"topology\""), "the machine is drawn from the model");
        assertTrue(count(d, "<text[^>]*>PU ") >= 16, "with every PU of the 16-CPU machine");
        assertTrue(d.contains("pwned-model"), "the CPU model is shown, as text");
    }

    /** {@code tree} with a hostile row label too, as a page in Chromium: its title is the page's own and no markup came in. */
    private String assertNoScriptRuns(com.fasterxml.jackson.databind.node.ObjectNode tree, String name) throws Exception {
        Path chromium = chromium();
        assumeTrue(chromium != null, "chromium is not installed (apt-get install -y chromium; .ci/run installs it)");
        var first = (com.fasterxml.jackson.databind.node.ObjectNode) tree.get("results").get(0);
        first.put("variant", "</title><script>document.title='pwned-variant'</script>");
        Path hostile = dir.resolve(name + ".json");
        Files.writeString(hostile, Json.MAPPER.writeValueAsString(tree));
        Path html = dir.resolve(name + ".html");
        CliRun.run("report", hostile.toString(), "-o", html.toString()).succeeded();

        Browser dom = run(chromium, html, "--dump-dom");
        assertEquals(0, dom.exit(), dom.stderr());
        Matcher title = Pattern.compile("<title>([^<]*)</title>").matcher(dom.stdout());
        assertTrue(title.find(), dom.stdout());
        assertEquals("corescope report: " + hostile.getFileName(), title.group(1), "document.title is the page's own: the file's name, not its path");
        String d = dom.stdout();
        assertFalse(d.contains("<script") || d.contains("<foreignObject") || d.contains("<img"), "nothing of them is markup: " + d);
        assertEquals(0, count(d, "<[^>]*\\son(load|error)="), "no event handler on any element: " + d);
        return d;
    }

    /**
     * No two labels of a histogram (title, captions, legends, axis ticks, percentile marks) may
     * overlap, at a desktop width and at a phone's: the charts of a before/after report are put on
     * a test page of their own, with the report's CSS and a script that compares the bounding
     * boxes Chromium laid out and writes the overlaps into the title.
     */
    @Test
    void histogramLabelsNeverOverlapAtDesktopAndPhoneWidths() throws Exception {
        Path chromium = chromium();
        assumeTrue(chromium != null, "chromium is not installed (apt-get install -y chromium; .ci/run installs it)");
        Path html = dir.resolve("report.html");
        CliRun.run("report", ReportCommandTest.fixture("tour-before.json").toString(), ReportCommandTest.fixture("tour-after.json").toString(),
                "-o", html.toString()).succeeded();
        String report = Files.readString(html);
        Matcher style = Pattern.compile("<style>(.*?)</style>", Pattern.DOTALL).matcher(report);
        assertTrue(style.find());
        Matcher svg = Pattern.compile("<svg[^>]*class=\"histogram[^\"]*\".*?</svg>", Pattern.DOTALL).matcher(report);
        StringBuilder page = new StringBuilder("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>unmeasured</title>"
                + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><style>" + style.group(1) + "</style></head><body><main>");
        int charts = 0;
        while (svg.find()) {
            page.append("<figure class=\"histogram\">").append(svg.group()).append("</figure>");
            charts++;
        }
        assertTrue(charts >= 3, "the before/after report draws histograms and their overlays: " + charts);
        page.append("""
                <script>
                const hits = [];
                document.querySelectorAll('svg').forEach((svg, k) => {
                  const boxes = [...svg.querySelectorAll('text')].map(t => [t.textContent, t.getBoundingClientRect()]);
                  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
                    const a = boxes[i][1], b = boxes[j][1];
                    if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom) hits.push(k + ':' + boxes[i][0] + '|' + boxes[j][0]);
                  }
                });
                document.title = 'overlaps ' + hits.length + ' of ' + document.querySelectorAll('svg').length + ' charts ' + hits.slice(0, 5).join(', ');
                </script></main></body></html>""");
        Path test = dir.resolve("labels.html");
        Files.writeString(test, page.toString());
        for (String size : List.of("1280,4000", "390,4000")) {
            Browser dom = run(chromium, test, "--dump-dom", "--window-size=" + size);
            assertEquals(0, dom.exit(), dom.stderr());
            Matcher title = Pattern.compile("<title>([^<]*)</title>").matcher(dom.stdout());
            assertTrue(title.find(), dom.stdout());
            assertTrue(title.group(1).startsWith("overlaps 0 of " + charts + " charts"), "at " + size + " px: " + title.group(1));
        }
    }

    /**
     * The report's own markup on a test page with a script (the report itself forbids scripts):
     * the script's verdict goes into the title, which {@code --dump-dom} returns.
     */
    private String checkInChromium(Path chromium, String report, String script, String size) throws Exception {
        Matcher style = Pattern.compile("<style>(.*?)</style>", Pattern.DOTALL).matcher(report);
        assertTrue(style.find());
        Matcher body = Pattern.compile("<body>(.*)</body>", Pattern.DOTALL).matcher(report);
        assertTrue(body.find());
        String page = "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>unmeasured</title>"
                + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><style>" + style.group(1) + "</style></head><body>"
                + body.group(1) + "<script>" + script + "</script></body></html>";
        Path test = Files.createTempFile(dir, "check", ".html");
        Files.writeString(test, page);
        Browser dom = run(chromium, test, "--dump-dom", "--window-size=" + size);
        assertEquals(0, dom.exit(), dom.stderr());
        Matcher title = Pattern.compile("<title>([^<]*)</title>").matcher(dom.stdout());
        assertTrue(title.find(), dom.stdout());
        return title.group(1);
    }

    /**
     * A tour's report opens with one verdict line per seed, each linking to its family's section;
     * every link of the page (the verdicts, the table of contents) lands on an element; and each
     * family's section starts with its verdict, then its notes, then the Java/C table, then the
     * pictures.
     */
    @Test
    void theVerdictsOpenThePageLinkToTheirSectionsAndEachSectionLeadsWithItsAnswer() throws Exception {
        Path chromium = chromium();
        assumeTrue(chromium != null, "chromium is not installed (apt-get install -y chromium; .ci/run installs it)");
        Path html = dir.resolve("tour.html");
        CliRun.run("report", ReportCommandTest.fixture("tour-before.json").toString(), "-o", html.toString()).succeeded();
        String report = Files.readString(html);

        Browser dom = run(chromium, html, "--dump-dom");
        assertEquals(0, dom.exit(), dom.stderr());
        String d = dom.stdout();
        int verdicts = d.indexOf("<section id=\"verdicts\">");
        assertTrue(verdicts > 0 && verdicts < d.indexOf("<section id=\"file-1\""), "the verdicts come before the evidence");
        assertEquals(4, count(d.substring(verdicts, d.indexOf("</section>", verdicts)), "<tr class=\"[a-z-]+\"><th scope=\"row\"><a href=\"#file-1-[a-z0-9]+\">"),
                "one linked row per seed: " + d.substring(verdicts, d.indexOf("</section>", verdicts)));

        String script = """
                const links = [...document.querySelectorAll('a[href^="#"]')];
                const broken = links.filter(a => !document.getElementById(decodeURIComponent(a.getAttribute('href').slice(1))))
                    .map(a => a.getAttribute('href'));
                const bad = [];
                document.querySelectorAll('#verdicts a').forEach(a => {
                  const target = document.getElementById(a.getAttribute('href').slice(1));
                  if (!target || !target.matches('section.family')) bad.push('not a family section: ' + a.getAttribute('href'));
                });
                document.querySelectorAll('section.family').forEach(sec => {
                  const kids = [...sec.children].map(e => e.matches('h3') ? 'h' : e.matches('div.verdict-family') ? 'v'
                      : e.matches('ul.family-notes') ? 'n' : e.matches('div.scroll') && e.querySelector('table.results') ? 't'
                      : e.matches('div.histograms, figure') ? 'p' : 'o').join('');
                  if (!/^hv?n?t?[po]*$/.test(kids)) bad.push(sec.id + ':' + kids);
                  const v = document.querySelector('#verdicts a[href="#' + sec.id + '"]');
                  if (v && kids.slice(0, 2) !== 'hv') bad.push(sec.id + ' does not open with its verdict: ' + kids);
                });
                document.title = 'links ' + links.length + ' broken ' + broken.length + ' bad ' + bad.length + ' ' + broken.concat(bad).slice(0, 6).join(', ');
                """;
        String title = checkInChromium(chromium, report, script, "1280,4000");
        assertTrue(title.matches("links [0-9]+ broken 0 bad 0 "), title);
        assertTrue(Integer.parseInt(title.split(" ")[1]) >= 10, "the verdicts and the contents link: " + title);

        // A file that holds the family's model: its verdict, then its document (notes, tables, figures), then the saved rows folded.
        Path quick = dir.resolve("timerbase.html");
        CliRun.run("report", ReportCommandTest.fixture("timerbase-quick.json").toString(), "-o", quick.toString()).succeeded();
        String timerbase = Files.readString(quick);
        String t = checkInChromium(chromium, timerbase, script + """
                const sec = document.getElementById('file-1-timerbase');
                const order = [...sec.children].map(e => e.tagName + '.' + e.className).join(' ');
                document.title += ' notes ' + sec.querySelectorAll('ul.family-notes li').length + ' | ' + order;
                """, "390,4000");
        assertTrue(t.matches("links [0-9]+ broken 0 bad 0 +notes [1-9][0-9]* \\| H3\\. DIV\\.verdict-family [a-z-]+ DIV\\.doc DETAILS\\.rows.*"), t);
    }

    /**
     * {@code report a.json b.json}: the before/after view (compare's document) shows each matched
     * row keyed, classed by its finding, with its change and interval, and each histogram of one file laid over the other's, two outlines per chart.
     */
    @Test
    void theBeforeAfterViewShowsEachRowsEffectAndFindingWithOverlaidHistograms() throws Exception {
        Path chromium = chromium();
        assumeTrue(chromium != null, "chromium is not installed (apt-get install -y chromium; .ci/run installs it)");
        Path before = ReportCommandTest.fixture("tour-before.json"), after = ReportCommandTest.fixture("tour-after.json");
        Path html = dir.resolve("change.html");
        CliRun.run("report", before.toString(), after.toString(), "-o", html.toString()).succeeded();
        String report = Files.readString(html);
        int matched = dev.corescope.report.Comparison.of(before.toString(), List.of(SavedRuns.lenient(before)), after.toString(),
                List.of(SavedRuns.lenient(after)), null, List.of())
                .rows().size();
        String script = """
                const rows = [...document.querySelectorAll('#compare table.doc-table tr[class]')];
                const findings = ['significant', 'no-change-detectable-here', 'not-resolvable-here'];
                const bad = rows.filter(r => !findings.includes(r.className) || !r.querySelector('th[scope=row]')
                    || !/^[+-]?[0-9.e+-]+$|^n.a$/.test(r.querySelector('td.ci').previousElementSibling.textContent)
                    || !r.querySelector('td.ci')).length;
                const overlays = [...document.querySelectorAll('#compare svg.histogram.overlay')];
                const twoSeries = overlays.filter(s => s.querySelectorAll('polyline.series').length === 2).length;
                const compare = document.getElementById('compare').getBoundingClientRect();
                document.title = 'rows ' + rows.length + ' bad ' + bad + ' overlays ' + overlays.length + ' twoSeries ' + twoSeries
                    + ' visible ' + (compare.height > 100);
                """;
        for (String size : List.of("1280,4000", "390,4000")) {
            String title = checkInChromium(chromium, report, script, size);
            Matcher m = Pattern.compile("rows ([0-9]+) bad ([0-9]+) overlays ([0-9]+) twoSeries ([0-9]+) visible (true|false)").matcher(title);
            assertTrue(m.matches(), title);
            assertEquals(matched, Integer.parseInt(m.group(1)), "a line per matched row: " + title);
            assertEquals(0, Integer.parseInt(m.group(2)), "each keyed, classed by its finding, with its change and interval: " + title);
            assertTrue(Integer.parseInt(m.group(3)) >= 3, "histograms overlaid: " + title);
            assertEquals(m.group(3), m.group(4), "before and after in every overlay: " + title);
            assertEquals("true", m.group(5), title);
        }
    }
}
