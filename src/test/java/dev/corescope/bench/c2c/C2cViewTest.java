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
        Approved.verify("c2c/c2c-quick.svg", svg);
    }

    @Test
    void aFileWithoutAModelStillDrawsItsMatrix() throws IOException {
        ResultsFile file = saved();
        ResultsFile old = SavedRuns.withoutModels(file);
        assertTrue(new C2cFamily().text(old).isEmpty());
        assertTrue(new C2cFamily().picture(old).orElseThrow().contains("<svg"));
    }

    /** A file written before the notes were facts (committed as it was) renders the sentences it saved. */
    @Test
    void aFileWrittenBeforeTheNotesWereDataShowsItsSavedNotes() throws IOException {
        ResultsFile old = SavedRuns.read("before-notes-as-data/c2c-quick.json");
        C2cModel m = new C2cFamily().model(old).orElseThrow();
        assertTrue(m.notesAsSentences() && m.notes().size() == 4, m.toString());
        String text = new C2cFamily().document(old).orElseThrow().render(dev.corescope.text.Width.NONE);
        Approved.verify("c2c/before-notes-as-data.txt", text);
    }

    /**
     * The notes worded from facts say what the older file's sentences said: facts matching that
     * run (load 26.0 on 2 CPUs, the JMH placement, its two twinned pairs) give the same busy,
     * cross-check and ratio sentences; no facts of a missing thing, no sentence about it.
     */
    @Test
    void theNotesAreWordedFromTheSavedFactsAsTheOlderRunSaidThem() throws IOException {
        C2cModel old = new C2cFamily().model(SavedRuns.read("before-notes-as-data/c2c-quick.json")).orElseThrow();
        C2cModel.Plan plan = new C2cModel.Plan(false, 2, 1, 4, 4, 20, 50, 1000, 1.5, 3.0);
        C2cModel.Facts facts = new C2cModel.Facts("0-1", 26.0, 2, null, plan, List.of());
        C2cModel m = new C2cModel(old.cpus(), old.pairs(), old.jmh(), facts);
        List<String> notes = C2cView.notes(m);
        assertEquals(old.notes().get(0), notes.get(0));
        // the cross-check's pair is worded from its row's params: the placement's phrase, not the cache's size
        assertEquals(old.notes().get(1).replace("different cores, same L3 (32 MiB)", "same L3"), notes.get(2));
        assertEquals(old.notes().get(3), notes.getLast());
        assertTrue(notes.get(1).startsWith("plan: by relation, 2 CPUs, 1 pair classes, 4 measurements (at most 4), 20-50 samples of 1000 round trips"), notes.get(1));
        assertTrue(notes.get(3).contains("score = median of 20 to 50 samples per pair"), notes.get(3));
        assertEquals(5, notes.size(), notes.toString());
        C2cModel quiet = new C2cModel(old.cpus(), old.pairs(), null,
                new C2cModel.Facts("0-1", 0.3, 2, "libcorescope.so is not loaded", plan, List.of("same-l3", "SAME_CORE")));
        List<String> q = C2cView.notes(quiet);
        assertTrue(q.stream().noneMatch(n -> n.contains("busy") || n.contains("ping_pong_jmh")), q.toString());
        assertTrue(q.contains("C twin not run: libcorescope.so is not loaded"), q.toString());
        // the key, and the constant name files of older versions saved
        assertTrue(q.stream().anyMatch(n -> n.startsWith("both directions measured for [same L3, same core]")), q.toString());
        assertEquals("not measured: a ping-pong needs 2 CPUs, only CPU 1 is usable", C2cView.notes(new C2cModel(old.cpus().subList(0, 1), List.of(), null,
                new C2cModel.Facts("1", null, 2, null, null, List.of()))).getFirst());
    }

    @Test
    void aMediansIntervalIsItsOrderStatisticsNeverBelowTheSamples() {
        double[] skewed = new double[60];
        for (int i = 0; i < skewed.length; i++) skewed[i] = i < 40 ? 260 + i % 10 : 9000 + i;
        C2cModel.Stats s = C2cModel.Stats.of(dev.corescope.bench.SampleStats.of(skewed));
        String shown = C2cView.median(s);
        double low = Double.parseDouble(shown.substring(shown.indexOf('[') + 1, shown.indexOf(',')));
        assertTrue(low >= 260, shown);
        assertTrue(shown.startsWith("26"), shown);
        // a file from before the order statistics: median +- error, the low end not below the smallest sample
        C2cModel.Stats old = new C2cModel.Stats(269, 4681.0, null, null, 3000, 250, 60);
        assertEquals("269 [250, 4950]", C2cView.median(old));
    }

    /** A pair saved with an older spelling of its relation counts under the relation's one key, in the table and the summary. */
    @Test
    void aRelationSavedInAnOlderSpellingIsReadAsItsKey() {
        C2cModel.Stats s = new C2cModel.Stats(30, null, null, null, 30, 29, 1);
        C2cModel.Pair smt = new C2cModel.Pair(0, 1, s, null, "smt");
        C2cModel.Pair l3 = new C2cModel.Pair(0, 2, s, null, "same_l3");
        assertEquals(List.of("same-core", "same-l3", "other-l3"),
                List.of(smt.relation(), l3.relation(), new C2cModel.Pair(0, 3, s, null, "cross-l3").relation()));
        assertEquals("unknown-kind", new C2cModel.Pair(0, 3, s, null, "unknown-kind").relation(), "a word it does not know stays");
    }
}
