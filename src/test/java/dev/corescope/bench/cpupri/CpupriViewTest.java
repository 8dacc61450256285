package dev.corescope.bench.cpupri;

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
 * The cpupri picture of a committed results file ({@code bench cpupri --quick -o}; the text and
 * the page: {@code SavedRunViewsTest}).
 */
class CpupriViewTest {

    private static ResultsFile saved() throws IOException {
        return SavedRuns.read("cpupri-quick.json");
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
}
