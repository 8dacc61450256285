package dev.corescope.jitter;

import dev.corescope.bench.Families;
import dev.corescope.report.HtmlReport;
import dev.corescope.report.Json;
import dev.corescope.report.MachineSummary;
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
        return new JitterReport("in turn", 2.0, "KVM", kernel, ranked, Ranking.quietestFirst(ranked), List.of(), List.of(), List.of());
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
        ResultsFile f = ResultsFile.builder().jitter(JitterView.json(report("<script>document.title='x'</script>"))).build();
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
        ResultsFile f = ResultsFile.builder().jitter(JitterView.json(r)).build();
        String json = Json.write(f);
        ResultsFile back = Json.MAPPER.readerFor(ResultsFile.class).readValue(json);
        assertEquals(r, JitterView.report(back).orElseThrow());
        MachineSummary.JitterQuantiles q = MachineSummary.of(back, Families.views()).jitter();
        assertEquals(2, q.cpus(), "the machine summary reads the run through its view");
        assertEquals(4_000_000, q.maxGapNs().max());
        assertTrue(json.contains("\"over10usPerSecond\" : 1.5"), json);
    }

    /**
     * The run saves data, not sentences: the hypervisor, the CPUs not measured and the files not read, each with why; the
     * view words the notes, a busy machine from the rows. A file that saved the sentences shows them as saved.
     */
    @Test
    void theNotesAreWordedFromTheRunsDataAndAnOlderFileShowsItsSentences() throws Exception {
        JitterReport r = report("steal 4.0%");
        JitterReport more = new JitterReport(r.mode(), r.secondsPerCpu(), r.hypervisor(), r.kernel(), r.rows(), r.quietest(),
                List.of(new JitterReport.NotMeasured(3, "EINVAL"), new JitterReport.NotMeasured(4, null)),
                List.of(new JitterReport.Unread("/proc/stat", "missing"), new JitterReport.Unread("/proc/softirqs", "EACCES")), List.of());
        String json = Json.write(JitterView.json(more));
        assertFalse(json.contains("\"notes\"") || json.contains("hypervisor ("), "no sentence is saved: " + json);
        assertEquals(more, Json.MAPPER.treeToValue(Json.MAPPER.readTree(json), JitterReport.class));
        List<String> notes = JitterText.notes(more);
        assertEquals(5, notes.size(), notes.toString());
        assertTrue(notes.getFirst().startsWith("Under a hypervisor (KVM) each vCPU is a thread on the host"), notes.toString());
        assertEquals(List.of("/proc/stat not read (missing): steal time unknown",
                "/proc/softirqs not read (EACCES): its sources are not attributed",
                "CPU 3: not measured (EINVAL)", "CPU 4: not measured (the batch did not start)"), notes.subList(1, 5));
        assertTrue(JitterText.render(more, 200).contains("note: CPU 3: not measured (EINVAL)"));

        JitterReport old = Json.MAPPER.treeToValue(Json.MAPPER.readTree("{\"mode\": \"in turn\", \"secondsPerCpu\": 1, "
                + "\"hypervisor\": \"KVM\", \"rows\": [], \"notes\": [\"CPU 2: not measured (as saved)\"]}"), JitterReport.class);
        assertEquals(List.of("CPU 2: not measured (as saved)"), JitterText.notes(old), "an older file's sentences, as saved");
    }

    @Test
    void aMachineWhoseQuietestCpuLostFivePercentIsCalledBusy() {
        JitterReport r = report("steal 4.0%");
        assertTrue(JitterText.notes(r).stream().noneMatch(n -> n.startsWith("Every CPU lost")), "the quiet CPU lost 0.05%");
        List<CpuJitter> busy = r.rows().stream().map(c -> new CpuJitter(c.cpu(), c.rank(), c.batch(), c.seconds(), c.clockCostNs(),
                c.thresholdNs(), c.gaps(), c.over1usPerSecond(), c.over10usPerSecond(), c.over100usPerSecond(), c.p99Ns(), c.p9999Ns(),
                c.maxNs(), 6.0, c.stealPercent(), c.contextSwitches(), c.migrations(), c.kernelFlags(), c.causes(), c.likelyCause())).toList();
        JitterReport loaded = new JitterReport(r.mode(), r.secondsPerCpu(), null, r.kernel(), busy, r.quietest(), List.of(), List.of(), List.of());
        assertEquals(List.of("Every CPU lost at least 6% of its window to gaps: other tasks are running here (see the context switches)."
                + " The ranking shows where that load fell during the run, not the kernel's own noise; measure again when the machine"
                + " is idle, or isolate the CPUs you care about."), JitterText.notes(loaded));
    }
}
