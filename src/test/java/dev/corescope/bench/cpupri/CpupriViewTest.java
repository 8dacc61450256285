package dev.corescope.bench.cpupri;

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
 * The cpupri view of a committed results file ({@code bench cpupri --quick -o}, measured on a
 * busy 2-vCPU KVM guest): the text is byte for byte the family's section of what that run
 * printed (from its {@code # cpupri} line to the machine-code table, which comes from the
 * session), and the picture shows which counts and masks share a cache line in each layout.
 */
class CpupriViewTest {

    private static ResultsFile saved() throws IOException {
        return Json.readResults(Path.of(System.getProperty("corescope.basedir", "."), "src/test/resources/results/cpupri-quick.json"));
    }

    @Test
    void aSavedRunRendersTheTextTheLiveRunPrinted() throws IOException {
        Approved.verify("cpupri/cpupri-quick.txt", new CpupriFamily().text(saved()).orElseThrow());
    }

    @Test
    void thePictureShowsThePackedLayoutsFalseSharingAndTheAlignedOnesAbsence() throws IOException {
        String svg = new CpupriFamily().picture(saved()).orElseThrow();
        assertTrue(svg.startsWith("<svg"), svg);
        // packed: 16-byte vecs, four to a line, each count beside its own mask
        assertTrue(svg.contains("line 0, bytes 0-63: count[0..3]; mask[0..3] (cpupri_set() writes here)"), svg);
        // aligned (the patch): count[0] alone on line 0, its mask on line 1
        assertTrue(svg.contains("line 0, bytes 0-63: count[0] (cpupri_set() writes here)"), svg);
        assertTrue(svg.contains("line 1, bytes 64-127: mask[0]<"), svg);
        assertTrue(svg.contains("count[99] and mask[99] share a line") && svg.contains("count[99] and mask[99] are on different lines"), svg);
    }

    @Test
    void theReportPagePlacesTheFamilysOwnView() throws IOException {
        ResultsFile file = saved();
        List<FamilyViews.View> views = Families.views().of(file);
        assertEquals(List.of("cpupri"), views.stream().map(FamilyViews.View::family).toList());
        String page = HtmlReport.page(List.of(new HtmlReport.Input("cpupri-quick.json", file)), Families.views(), Instant.EPOCH);
        assertTrue(page.contains("The Java-heap analogue"), "the text report is on the page");
        assertTrue(page.contains("what shares each 64-byte line"), "the cache-line picture is on the page");
    }

    @Test
    void aFileWithoutAModelHasNoView() throws IOException {
        ResultsFile file = saved();
        ResultsFile old = new ResultsFile(file.schema(), file.environment(), file.results(), file.layouts(), file.histograms(),
                file.matrix(), file.failures(), file.counters(), file.topology());
        assertTrue(new CpupriFamily().text(old).isEmpty());
        assertTrue(new CpupriFamily().picture(old).isEmpty());
    }
}
