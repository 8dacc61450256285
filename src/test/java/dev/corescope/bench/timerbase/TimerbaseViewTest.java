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

    /** The committed run's notes are worded from its saved facts: the left-out counts it saved are the ones its text says. */
    @Test
    void theNotesAreWordedFromTheSavedFacts() throws IOException {
        TimerbaseModel m = new TimerbaseFamily().model(saved()).orElseThrow();
        assertTrue(m.notes().isEmpty() && m.javaIterations() != null, "a new file saves facts, not sentences");
        List<String> notes = TimerbaseView.notes(m);
        var u = m.javaIterations();
        assertTrue(notes.contains("java iterations: " + u.words("runs", "iteration", "") + "."), notes.toString());
        assertTrue(notes.stream().anyMatch(n -> n.startsWith("java iterations: " + u.leftOut() + " of " + u.total() + " left out")), notes.toString());
        var common = m.clockValues().get("native").getFirst();
        assertTrue(notes.stream().anyMatch(n -> n.startsWith("native histograms: an empty sample (two clock reads, nothing between) is mostly "
                + common.ns() + " ns (")), notes.toString());
    }

    /** A file written before the notes were fields (committed, from the round before) renders its notes as it saved them. */
    @Test
    void aFileWrittenBeforeTheNotesWereDataShowsItsSavedNotes() throws IOException {
        ResultsFile old = SavedRuns.read("before-notes-as-data/timerbase-quick.json");
        TimerbaseModel m = new TimerbaseFamily().model(old).orElseThrow();
        assertTrue(m.javaIterations() == null && !m.notes().isEmpty());
        String text = new TimerbaseFamily().document(old).orElseThrow().render(dev.corescope.text.Width.NONE);
        for (String n : m.notes()) assertTrue(text.contains("  - " + n + "\n"), n);
        assertTrue(text.contains("the Java model has no lock"), "the old file says what its run did: " + text);
    }
}
