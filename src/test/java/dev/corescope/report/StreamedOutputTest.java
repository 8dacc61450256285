package dev.corescope.report;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.Writer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 35: the page and the text of many rows are written as they are made, never held whole:
 * no single write to the output is more than a small part of what is written (the old page was
 * one string, written in one piece). Counts characters, times nothing.
 */
class StreamedOutputTest {

    /** A writer that keeps only the total and its largest single write. */
    private static final class Counting extends Writer {
        long total;
        long largest;

        @Override
        public void write(char[] buf, int off, int len) {
            total += len;
            largest = Math.max(largest, len);
        }

        @Override
        public void write(String s, int off, int len) {
            total += len;
            largest = Math.max(largest, len);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    }

    private static ResultsFile rows(int n) {
        List<Result> rows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            for (String impl : List.of("java", "native")) {
                rows.add(Result.builder().benchmark("cpumask").variant("first_but").implementation(impl).metric("op").unit("ns/op")
                        .score(8.5 + i % 7).error(0.2).samples(10).cpus("0").params(Map.of("nrCpus", 64, "copy", i)).build());
            }
        }
        return ResultsFile.builder().results(rows).build();
    }

    @Test
    void thePageOfManyRowsIsWrittenAsItIsMade() {
        Counting out = new Counting();
        PrintWriter w = new PrintWriter(out);
        HtmlReport.page(w, List.of(new HtmlReport.Input("big.json", rows(3000))), FamilyViews.NONE, Instant.EPOCH);
        assertTrue(out.total > 1_000_000, "a page of 6000 rows: " + out.total);
        assertTrue(out.largest < out.total / 50, "largest write " + out.largest + " of " + out.total);
    }

    @Test
    void theTextOfManyRowsIsWrittenLineByLine() {
        Counting out = new Counting();
        PrintWriter w = new PrintWriter(out);
        ResultsText.summaryDocument("cpumask", rows(3000).results()).render(w, 100);
        assertTrue(out.total > 200_000, "the text of 6000 rows: " + out.total);
        assertTrue(out.largest < 1_000, "one line at a time: largest write " + out.largest);
        assertEquals(ResultsText.summaryDocument("cpumask", rows(3000).results()).render(100).length(), out.total, "the same text as the string");
    }
}
