package dev.corescope.bench.cpumask;

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
 * The cpumask view of a committed results file ({@code bench cpumask --quick -o}, measured on a
 * busy 2-vCPU KVM guest): the text is byte for byte the family's section of what that run printed
 * (lines 8-65 of its stdout; the verdict above and the machine-code table below come from the
 * session, not the family), and the page shows it.
 */
class CpumaskViewTest {

    private static ResultsFile saved() throws IOException {
        return Json.readResults(Path.of(System.getProperty("corescope.basedir", "."), "src/test/resources/results/cpumask-quick.json"));
    }

    @Test
    void aSavedRunRendersTheTextTheLiveRunPrinted() throws IOException {
        Approved.verify("cpumask/cpumask-quick.txt", new CpumaskFamily().text(saved()).orElseThrow());
    }

    @Test
    void theReportPagePlacesTheFamilysOwnView() throws IOException {
        ResultsFile file = saved();
        List<FamilyViews.View> views = Families.views().of(file);
        assertEquals(List.of("cpumask"), views.stream().map(FamilyViews.View::family).toList());
        String page = HtmlReport.page(List.of(new HtmlReport.Input("cpumask-quick.json", file)), Families.views(), Instant.EPOCH);
        assertTrue(page.contains("Code size in bytes"), "the code-size table is on the page");
        assertTrue(page.contains("Where a Java gap comes from"), "the split is on the page");
    }
}
