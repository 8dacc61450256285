package dev.corescope.bench.timerbase;

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
 * The timerbase picture of a committed results file ({@code bench timerbase --quick -o}; the text and
 * the page: {@code SavedRunViewsTest}).
 */
class TimerbaseViewTest {

    private static ResultsFile saved() throws IOException {
        return SavedRuns.read("timerbase-quick.json");
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
}
