package dev.corescope.jitter;

import dev.corescope.bench.Families;
import dev.corescope.report.HtmlReport;
import dev.corescope.report.Json;
import dev.corescope.report.ResultsFile;
import dev.corescope.testing.Approved;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Text, HTML and JSON of a crafted run. */
public class JitterViewsTest {

    /** A crafted run of two CPUs, the noisy one's worst gaps put down to {@code cause}. */
    public static JitterReport report(String cause) {
        List<Cause> causes = List.of(new Cause("irq", "local timer", "LOC", 250.0, null, null),
                new Cause("irq", "eth0-TxRx-3", "41", 1200.0, null, "0-1"));
        CpuJitter quiet = new CpuJitter(1, 0, "1", 2.0, 25, 200, 600, 300, 1.5, 0, 4_000, 30_000, 45_000, 0.05,
                0.2, 0L, 0L, "isolated, nohz_full", causes, "local timer 250/s");
        CpuJitter noisy = new CpuJitter(0, 0, "0", 2.0, 25, 200, 5000, 2500, 40, 3, 9_000, 900_000, 4_000_000, 1.2,
                4.0, 12L, 0L, "", causes, cause);
        Map<String, String> kernel = new LinkedHashMap<>();
        kernel.put("isolcpus", "1");
        kernel.put("nohz_full", "1");
        kernel.put("rcu_nocbs", "");
        kernel.put("irqaffinity", "");
        kernel.put("isolated", "1");
        kernel.put("nohzFullActive", "1");
        List<CpuJitter> ranked = Ranking.rank(List.of(noisy, quiet));
        return new JitterReport("in turn", 2.0, "KVM", kernel, ranked, Ranking.quietestFirst(ranked),
                List.of(JitterProbe.hypervisorNote("KVM")));
    }

    @Test
    void textRanksQuietestFirstAndNamesTheEvidence() {
        String text = JitterText.render(report("steal 4.0%"), Integer.MAX_VALUE);
        Approved.verify("jitter/two-cpus-unlimited.txt", text);
        List<String> ranked = text.lines().filter(l -> l.matches("\\s*[12]\\s+[01]\\s.*")).toList();
        assertEquals(2, ranked.size(), text);
        assertTrue(ranked.get(0).matches("\\s*1\\s+1\\s.*"), ranked.get(0));
        assertTrue(ranked.get(1).matches("\\s*2\\s+0\\s.*") && ranked.get(1).endsWith("steal 4.0%"), ranked.get(1));
    }

    @Test
    void textIsLaidOutAtTheWidth() {
        String cause = "the timer interrupt and a softirq storm from eth0 and a kworker that woke on this CPU every millisecond";
        String wide = JitterText.render(report(cause), Integer.MAX_VALUE);
        assertTrue(wide.lines().anyMatch(l -> l.length() > 120), "the unlimited layout has long lines");
        String text = JitterText.render(report(cause), 80);
        assertEquals(List.of(), text.lines().filter(l -> l.codePointCount(0, l.length()) > 80).toList(), text);
        Approved.verify("jitter/two-cpus-80-columns.txt", text);
    }

    @Test
    void thePageDrawsTheJitterViewAndEscapesEverythingFromTheFile() {
        ResultsFile f = ResultsFile.builder().jitter(report("<script>document.title='x'</script>")).build();
        String html = HtmlReport.page(List.of(new HtmlReport.Input("j.json", f)), Families.views(), java.time.Instant.EPOCH);
        assertFalse(html.contains("<script"), html);
        assertTrue(html.contains("&lt;script&gt;"), html);
        assertTrue(html.contains("#1 CPU 1"), "the chart");
        assertTrue(html.contains("jitter: the quiet CPUs"), "the document");
        assertFalse(html.contains("This file has no results"), html);
    }

    @Test
    void theReportRoundTripsThroughAResultsFile() throws Exception {
        JitterReport r = report("steal 4.0%");
        ResultsFile f = ResultsFile.builder().jitter(r).build();
        String json = Json.write(f);
        ResultsFile back = Json.MAPPER.readerFor(ResultsFile.class).readValue(json);
        assertEquals(r, back.jitter());
        assertTrue(json.contains("\"over10usPerSecond\" : 1.5"), json);
    }
}
