package dev.corescope.bench.cpupri;

import dev.corescope.bench.Families;
import dev.corescope.report.FamilyViews;
import dev.corescope.report.Json;
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

    /**
     * The notes are worded from the model's fields: the counts each C find read are one table row
     * per C run (they were one sentence per row, which repeated its words six times), and no note
     * is printed twice.
     */
    @Test
    void theCountsPerFindAreATableAndEveryNoteIsWordedOnce() throws IOException {
        ResultsFile file = saved();
        CpupriModel m = CpupriView.model(file).orElseThrow();
        assertTrue(m.notes().isEmpty(), "a new file saves facts, not sentences: " + m.notes());
        long counted = m.runs().stream().filter(r -> r.countsPerFind() != null).count();
        assertEquals(m.runs().stream().filter(r -> r.implementation().equals("native") && r.rt() != null).count(), counted);
        assertTrue(counted > 0, "the committed run has C rows");
        var doc = new CpupriFamily().document(file).orElseThrow();
        var table = doc.tables().stream().filter(t -> t.columns().stream().anyMatch(c -> c.name().equals("counts per find")))
                .findFirst().orElseThrow();
        assertEquals(counted, table.rows().size());
        String text = doc.render(dev.corescope.text.Width.NONE);
        assertTrue(!text.contains("counts on average"), text);
        List<String> notes = CpupriView.notes(m);
        assertEquals(notes.size(), notes.stream().distinct().count(), notes.toString());
        assertTrue(notes.stream().anyMatch(n -> n.contains("not testable here")), "2 CPUs: " + notes);
    }

    /** A file written before the notes were fields (committed, from the round before) renders its notes as it saved them. */
    @Test
    void aFileWrittenBeforeTheNotesWereDataShowsItsSavedNotes() throws IOException {
        ResultsFile old = SavedRuns.read("before-notes-as-data/cpupri-quick.json");
        CpupriModel m = CpupriView.model(old).orElseThrow();
        assertTrue(m.usable() == null && !m.notes().isEmpty());
        String text = new CpupriFamily().document(old).orElseThrow().render(dev.corescope.text.Width.NONE);
        assertTrue(text.contains("C aligned, rt=all: a find read 11.05 counts on average"), text);
        assertTrue(text.contains("writers > 1 needs 3 or more usable CPUs; this run has 2"), text);
        assertTrue(!text.contains("counts per find"), "no table of figures the file does not have: " + text);
    }

    /**
     * The model saves names, not sentences: a layout is its kind's name, a run's placement its key; the view words them.
     * A file that saved the sentences ({@code description}, {@code placementDescription}) still reads and renders.
     */
    @Test
    void theModelSavesNamesAndTheViewWordsThem() throws IOException {
        ResultsFile old = saved();
        assertTrue(old.models().get("cpupri").toString().contains("placementDescription"), "the committed file holds the sentences");
        CpupriModel m = CpupriView.model(old).orElseThrow();
        String json = Json.write(m);
        assertTrue(!json.contains("description") && !json.contains("Description"), json);
        String text = new CpupriFamily().document(old).orElseThrow().render(dev.corescope.text.Width.NONE);
        assertTrue(text.contains("packed: today's kernel") && text.contains("aligned: the patch: mask ____cacheline_aligned"), text);
        assertTrue(text.contains("writer(s) on CPU 1 (same L3)"), text);
    }
}
