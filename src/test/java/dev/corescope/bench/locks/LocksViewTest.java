package dev.corescope.bench.locks;

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
 * The locks view of a committed results file ({@code bench locks --quick -o}, measured on a busy
 * 2-vCPU KVM guest): the text is byte for byte the family's section of what that run printed
 * (from its {@code bench locks:} line to the machine-code table, which comes from the session).
 */
class LocksViewTest {

    private static ResultsFile saved() throws IOException {
        return Json.readResults(Path.of(System.getProperty("corescope.basedir", "."), "src/test/resources/results/locks-quick.json"));
    }

    @Test
    void aSavedRunRendersTheTextTheLiveRunPrinted() throws IOException {
        Approved.verify("locks/locks-quick.txt", new LocksFamily().text(saved()).orElseThrow());
    }

    @Test
    void theReportPagePlacesTheFamilysOwnView() throws IOException {
        ResultsFile file = saved();
        List<FamilyViews.View> views = Families.views().of(file);
        assertEquals(List.of("locks"), views.stream().map(FamilyViews.View::family).toList());
        String page = HtmlReport.page(List.of(new HtmlReport.Input("locks-quick.json", file)), Families.views(), Instant.EPOCH);
        assertTrue(page.contains("Where the analogy holds"), "the text report is on the page");
        assertTrue(page.contains("Contended: one thread per CPU"), "the contended list is on the page");
    }

    @Test
    void aFileWithoutAModelHasNoView() throws IOException {
        ResultsFile file = saved();
        ResultsFile old = new ResultsFile(file.schema(), file.environment(), file.results(), file.layouts(), file.histograms(),
                file.matrix(), file.failures(), file.counters(), file.topology());
        assertTrue(new LocksFamily().text(old).isEmpty());
    }
}
