package dev.corescope.bench;

import dev.corescope.report.FamilyViews;
import dev.corescope.report.ResultsFile;
import dev.corescope.testing.Approved;
import dev.corescope.testing.SavedRuns;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each family's view of a committed results file ({@code ./run.sh bench NAME --quick -o
 * src/test/resources/results/NAME-quick.json}, measured on a busy 2-vCPU KVM guest): the text is
 * byte for byte the family's section of what that run printed (from its first line to the
 * machine-code table, which the session adds), the report page places it with the family's
 * pictures, and a file written before models has no text view.
 */
class SavedRunViewsTest {

    private static BenchFamily family(String name) {
        return Families.all().stream().filter(f -> f.name().equals(name)).findFirst().orElseThrow();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "c2c       | Min latency: 27.3 [27.1, 27.4] ns, CPUs (0,1)",
            "cpumask   | Where a Java gap comes from",
            "timerbase | Per-call latency as the seed measured it",
            "cpupri    | The Java-heap analogue",
            "locks     | Where the analogy holds"})
    void aSavedRunRendersTheTextTheLiveRunPrintedAndThePagePlacesIt(String name, String onPage) throws IOException {
        BenchFamily f = family(name);
        ResultsFile file = SavedRuns.read(name + "-quick.json");
        Approved.verify(name + "/" + name + "-quick.txt", f.text(file).orElseThrow());

        List<FamilyViews.View> views = Families.views().of(file);
        assertEquals(List.of(name), views.stream().map(FamilyViews.View::family).toList());
        assertEquals(f.pictures(file), views.getFirst().svgs(), "the page has the family's pictures");
        assertEquals(f.draws(), f.picture(file).isPresent(), "a family that draws has its picture");
        if (f.draws()) assertEquals(f.picture(file).orElseThrow(), views.getFirst().svgs().getFirst(), "its own picture first");
        String page = SavedRuns.page(name + "-quick.json", file);
        assertTrue(page.contains(onPage), "the text report is on the page");

        assertTrue(f.text(SavedRuns.withoutModels(file)).isEmpty(), "no model, no text view");
    }
}
