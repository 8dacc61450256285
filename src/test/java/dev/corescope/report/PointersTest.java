package dev.corescope.report;

import dev.corescope.testing.SavedRuns;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A family's saved model against the rows of its file. */
class PointersTest {

    /** An older file (models hold whole rows) with every C first_but row made 1.5 times slower, as the issue measured. */
    private static ResultsFile editedCpumask() throws Exception {
        ResultsFile f = SavedRuns.read("before-notes-as-data/cpumask-quick.json");
        List<Result> rows = f.results().stream().map(r -> r.variant().equals("first_but") && r.implementation().equals("native")
                ? r.toBuilder().score(r.score() * 1.5).build() : r).toList();
        return f.toBuilder().results(rows).build();
    }

    @Test
    void aModelWhoseSavedRowsTheFileNoLongerHoldsSaysSoOnThePage() throws Exception {
        ResultsFile f = SavedRuns.read("before-notes-as-data/cpumask-quick.json");
        assertEquals(List.of(), Pointers.disagreements(f, "cpumask"), "as saved, model and rows agree");
        assertFalse(SavedRuns.page("c.json", f).contains("was saved with"));
        ResultsFile edited = editedCpumask();
        List<RowKey> differ = Pointers.disagreements(edited, "cpumask");
        assertFalse(differ.isEmpty());
        assertTrue(differ.stream().allMatch(k -> k.variant().equals("first_but") && k.implementation().equals("native")), differ.toString());
        String page = SavedRuns.page("c.json", edited);
        assertTrue(page.contains("models.cpumask was saved with " + differ.size() + " rows that results[] holds with other figures"),
                "the family's text says the model and the rows disagree");
    }

    @Test
    void aWholeRowSavedInAModelReadsAsTheFilesRowOfItsKey() throws Exception {
        ResultsFile edited = editedCpumask();
        var model = dev.corescope.bench.SavedModel.read(edited, "cpumask", dev.corescope.bench.cpumask.CpumaskModel.class).orElseThrow();
        var shown = model.comparisons().stream().map(c -> c.approach().result())
                .filter(r -> r.variant().equals("first_but") && r.implementation().equals("native")).toList();
        assertFalse(shown.isEmpty());
        for (Result r : shown) {
            Result row = edited.results().stream().filter(x -> x.key().equals(r.key())).findFirst().orElseThrow();
            assertEquals(row.score(), r.score(), "the table shows the file's row, not the model's copy");
        }
    }
}
