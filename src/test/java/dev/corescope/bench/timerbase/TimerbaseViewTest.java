package dev.corescope.bench.timerbase;

import dev.corescope.bench.Families;
import dev.corescope.report.FamilyViews;
import dev.corescope.report.HtmlReport;
import dev.corescope.report.Json;
import dev.corescope.report.ResultsFile;
import dev.corescope.testing.Approved;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The timerbase view of a committed results file ({@code bench timerbase --quick -o}, measured on
 * a busy 2-vCPU KVM guest): the text is byte for byte the family's section of what that run
 * printed (from its {@code # bench timerbase} line to the machine-code table, which comes from
 * the session), and the picture and the page show the histograms.
 */
class TimerbaseViewTest {

    private static ResultsFile saved() throws IOException {
        return Json.readResults(Path.of(System.getProperty("corescope.basedir", "."), "src/test/resources/results/timerbase-quick.json"));
    }

    @Test
    void aSavedRunRendersTheTextTheLiveRunPrinted() throws IOException {
        Approved.verify("timerbase/timerbase-quick.txt", new TimerbaseFamily().text(saved()).orElseThrow());
    }

    @Test
    void thePictureDrawsTheSeedsColumnsBesideEachImplementations() throws IOException {
        String svg = new TimerbaseFamily().picture(saved()).orElseThrow();
        assertTrue(svg.startsWith("<svg"), svg);
        assertTrue(svg.contains(">seed (x86 KVM guest, in the kernel)<"), svg);
        assertTrue(svg.contains(">java (System.nanoTime)<") && svg.contains(">C (clock_gettime)<"), svg);
        // the seed's biggest before bucket, 5262 of 13031 samples, as a bar with its count
        assertTrue(svg.contains("before [100-119] ns: 5262 (40.4%)"), svg);
    }

    @Test
    void theReportPagePlacesTheFamilysOwnView() throws IOException {
        ResultsFile file = saved();
        List<FamilyViews.View> views = Families.views().of(file);
        assertEquals(List.of("timerbase"), views.stream().map(FamilyViews.View::family).toList());
        assertEquals(1, views.getFirst().svgs().size());
        String page = HtmlReport.page(List.of(new HtmlReport.Input("timerbase-quick.json", file)), Families.views(), Instant.EPOCH);
        assertTrue(page.contains("Per-call latency as the seed measured it"), "the histogram table is on the page");
        assertTrue(page.contains("seed (x86 KVM guest, in the kernel)"), "the picture is on the page");
    }

    @Test
    void aFileWithoutAModelHasNoView() throws IOException {
        ResultsFile file = saved();
        ResultsFile old = new ResultsFile(file.schema(), file.environment(), file.results(), file.layouts(), file.histograms(),
                file.matrix(), file.failures(), file.counters(), file.topology());
        assertTrue(new TimerbaseFamily().text(old).isEmpty());
        assertTrue(new TimerbaseFamily().picture(old).isEmpty());
    }
}
