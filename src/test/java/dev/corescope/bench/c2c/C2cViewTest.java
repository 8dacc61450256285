package dev.corescope.bench.c2c;

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
 * The c2c view of a committed results file ({@code bench c2c --quick -o}, measured on a busy
 * 2-vCPU KVM guest): the text is what that run printed, and the page shows it and the heatmap.
 */
class C2cViewTest {

    private static ResultsFile saved() throws IOException {
        return Json.readResults(Path.of(System.getProperty("corescope.basedir", "."), "src/test/resources/results/c2c-quick.json"));
    }

    @Test
    void aSavedRunRendersTheTextTheLiveRunPrinted() throws IOException {
        Approved.verify("c2c/c2c-quick.txt", new C2cFamily().text(saved()).orElseThrow());
    }

    @Test
    void theHeatmapOfASavedRunIsLabelledWithCoresAsTheLiveOneWas() throws IOException {
        String svg = new C2cFamily().picture(saved()).orElseThrow();
        assertTrue(svg.startsWith("<svg"), svg);
        assertTrue(svg.contains("cpu1 c1"), "labels carry the core: " + svg);
    }

    @Test
    void theReportPagePlacesTheFamilysOwnView() throws IOException {
        ResultsFile file = saved();
        List<FamilyViews.View> views = Families.views().of(file);
        assertEquals(List.of("c2c"), views.stream().map(FamilyViews.View::family).toList());
        String page = HtmlReport.page(List.of(new HtmlReport.Input("c2c-quick.json", file)), Families.views(), Instant.EPOCH);
        assertTrue(page.contains("Min latency: 27.3 \u00b1 0.1 ns, CPUs (0,1)"), "the text report is on the page");
        assertTrue(page.contains("cpu1 c1"), "the labelled heatmap is on the page");
    }

    @Test
    void aFileWithoutAModelStillDrawsItsMatrix() throws IOException {
        ResultsFile file = saved();
        ResultsFile old = new ResultsFile(file.schema(), file.environment(), file.results(), file.layouts(), file.histograms(),
                file.matrix(), file.failures(), file.counters(), file.topology());
        assertTrue(new C2cFamily().text(old).isEmpty());
        assertTrue(new C2cFamily().picture(old).orElseThrow().contains("<svg"));
    }
}
