package dev.corescope.bench.cpumask;

import dev.corescope.report.ResultsFile;
import dev.corescope.testing.SavedRuns;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The cpumask notes from the committed results files: a new file's are worded from its saved
 * facts, an older file's are shown as it saved them (the text and the page: {@code SavedRunViewsTest}).
 */
class CpumaskViewTest {

    private static final String OLD = "before-notes-as-data/cpumask-quick.json";

    /** The committed run's model saves facts: the left-out counts it saved are the ones its notes say. */
    @Test
    void theNotesAreWordedFromTheSavedFacts() throws IOException {
        CpumaskModel m = new CpumaskFamily().model(SavedRuns.read("cpumask-quick.json")).orElseThrow();
        assertTrue(m.notes().isEmpty() && m.javaIterations() != null, "a new file saves facts, not sentences");
        List<String> notes = CpumaskView.notes(m);
        assertTrue(notes.contains("java iterations: " + m.javaIterations().words("runs", "iteration", "") + "."), notes.toString());
        assertTrue(notes.stream().anyMatch(n -> n.startsWith("--quick: Java measures 4 of ")), notes.toString());
        assertEquals(notes.size(), notes.stream().distinct().count(), notes.toString());
    }

    /**
     * The notes the view words from an older run's facts are the sentences that run saved: the
     * masks and the resolution of each row come from the saved CPUs and figures, not from prose.
     */
    @Test
    void theMasksAndResolutionNotesFromSavedFactsAreTheOnesTheOldRunSaid() throws IOException {
        CpumaskModel old = new CpumaskFamily().model(SavedRuns.read(OLD)).orElseThrow();
        CpumaskModel asFacts = new CpumaskModel(old.pinning(), old.allowed(), old.nrCpuIds(), old.javaSettings(), old.nativeBatches(),
                old.load(), old.comparisons(), old.splits(), old.callers(), old.callerFlags(), old.hsdis(), List.of(), true,
                new dev.corescope.bench.Undisturbed(0, 1, 0, 1), null, null, List.of(), null);
        List<String> worded = CpumaskView.notes(asFacts);
        for (String saved : old.notes()) {
            if (saved.startsWith("Masks (") || saved.startsWith("--quick: ")) {
                assertTrue(worded.contains(saved), "not worded the same: " + saved + "\n" + worded);
            }
        }
        // the resolution note speaks of the rows the time claim counts, not of rows it sets aside (mask=high, online=host)
        long counted = old.comparisons().stream().filter(c -> !"high".equals(c.mask()) && !"host".equals(c.online())).count();
        assertTrue(worded.stream().anyMatch(n -> n.startsWith("The seed's effect is ") && n.contains(" of the " + counted + " rows the time claim counts")),
                counted + "\n" + worded);
    }

    /** A file written before the notes were fields (committed, from the round before) renders its notes as it saved them. */
    @Test
    void aFileWrittenBeforeTheNotesWereDataShowsItsSavedNotes() throws IOException {
        ResultsFile file = SavedRuns.read(OLD);
        CpumaskModel m = new CpumaskFamily().model(file).orElseThrow();
        assertTrue(m.javaIterations() == null && !m.notes().isEmpty());
        String text = new CpumaskFamily().document(file).orElseThrow().render(dev.corescope.text.Width.NONE);
        for (String n : m.notes()) assertTrue(text.contains("  - " + n + "\n"), n);
    }
}
