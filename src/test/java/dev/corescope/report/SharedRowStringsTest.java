package dev.corescope.report;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 28: a big results file's rows repeat a few names, units and parameter values; each is
 * one String in the heap, not one per row (60,000 rows held ~500,000 Strings, half the live set
 * of a {@code report}). Checks instances, not bytes.
 */
class SharedRowStringsTest {

    @Test
    void rowsReadFromAFileShareTheirNamesUnitsAndParameterValues() {
        ResultsFile f = Json.readResultsChecked(Path.of("src/test/resources/results/cpumask-quick.json"));
        List<Result> rows = f.results();
        assertTrue(rows.size() > 2, rows.size() + " rows");
        Result a = rows.get(0);
        int pairs = 0;
        for (Result b : rows.subList(1, rows.size())) {
            if (b.benchmark().equals(a.benchmark())) assertSame(a.benchmark(), b.benchmark());
            if (b.unit().equals(a.unit())) assertSame(a.unit(), b.unit());
            if (b.implementation().equals(a.implementation())) assertSame(a.implementation(), b.implementation());
            for (var e : b.params().entrySet()) {
                Object v = a.params().get(e.getKey());
                if (v instanceof String s && s.equals(e.getValue())) {
                    assertSame(s, e.getValue(), e.getKey());
                    pairs++;
                }
            }
        }
        assertTrue(pairs > 0, "some rows share a string parameter value");
    }
}
