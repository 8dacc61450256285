package dev.corescope.bench.c2c;

import dev.corescope.bench.Families;
import dev.corescope.report.FamilyViews;
import dev.corescope.report.ResultsFile;
import dev.corescope.testing.Approved;
import dev.corescope.testing.SavedRuns;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The c2c view of a committed results file ({@code bench c2c --quick -o}, measured on a busy
 * 2-vCPU KVM guest): its heatmap, labelled as the live run's was (the text: {@code SavedRunViewsTest}).
 */
class C2cViewTest {

    private static ResultsFile saved() throws IOException {
        return SavedRuns.read("c2c-quick.json");
    }

    @Test
    void theHeatmapOfASavedRunIsLabelledWithCoresAsTheLiveOneWas() throws IOException {
        String svg = new C2cFamily().picture(saved()).orElseThrow();
        assertTrue(svg.startsWith("<svg"), svg);
        assertTrue(svg.contains("cpu1 c1"), "labels carry the core: " + svg);
    }

    @Test
    void aFileWithoutAModelStillDrawsItsMatrix() throws IOException {
        ResultsFile file = saved();
        ResultsFile old = SavedRuns.withoutModels(file);
        assertTrue(new C2cFamily().text(old).isEmpty());
        assertTrue(new C2cFamily().picture(old).orElseThrow().contains("<svg"));
    }
}
