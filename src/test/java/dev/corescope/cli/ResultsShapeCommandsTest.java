package dev.corescope.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.corescope.report.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One shape check for report and compare (issue 23, points 8 and 9): what compare refuses,
 * report refuses too, with one line and exit 2; what a page draws is bounded by the file.
 */
class ResultsShapeCommandsTest {

    @TempDir
    Path tmp;

    private ObjectNode base() throws Exception {
        return (ObjectNode) Json.MAPPER.readTree(Path.of("src/test/resources/results/cpumask-quick.json").toFile());
    }

    private Path write(String name, ObjectNode root) throws Exception {
        Path p = tmp.resolve(name);
        Json.MAPPER.writeValue(p.toFile(), root);
        return p;
    }

    private void refusedByBoth(Path bad, String why) {
        Path good = Path.of("src/test/resources/results/cpumask-quick.json");
        for (String[] args : new String[][]{{"report", bad.toString(), "-o", tmp.resolve("page.html").toString()},
                {"report", bad.toString(), "--format", "text"}, {"compare", good.toString(), bad.toString()}}) {
            CliRun run = CliRun.run(args);
            assertEquals(2, run.exitCode(), String.join(" ", args) + ": " + run.err());
            assertEquals("", run.out(), run.out());
            assertEquals(1, run.err().lines().count(), run.err());
            assertTrue(run.err().contains(why), args[0] + ": " + run.err());
        }
        assertTrue(!Files.exists(tmp.resolve("page.html")), "no page");
    }

    @Test
    void aNaNScoreIsRefusedByReportAsByCompare() throws Exception {
        ObjectNode f = base();
        ((ObjectNode) f.get("results").get(0)).put("score", "NaN");
        refusedByBoth(write("nan.json", f), "results[0]: score NaN is not a finite number");
    }

    @Test
    void negativeSamplesAreRefused() throws Exception {
        ObjectNode f = base();
        ((ObjectNode) f.get("results").get(1)).put("samples", -3);
        refusedByBoth(write("neg.json", f), "results[1]: samples -3");
    }

    @Test
    void nullResultsAreRefused() throws Exception {
        ObjectNode f = base();
        f.putNull("results");
        refusedByBoth(write("null.json", f), "\"results\" is null");
    }

    @Test
    void manyRepeatedRowsAreRefused() throws Exception {
        ObjectNode f = base();
        ArrayNode rows = (ArrayNode) f.get("results");
        ObjectNode one = (ObjectNode) rows.get(0).deepCopy();
        rows.removeAll();
        for (int i = 0; i < 300_000; i++) rows.add(one);
        refusedByBoth(write("dups.json", f), "results[1] repeats results[0]");
    }

    @Test
    void aMatrixTooLargeToDrawIsRefusedInOneLine() throws Exception {
        ObjectNode f = base();
        int n = 600;
        ObjectNode m = f.putObject("matrix");
        ArrayNode cpus = m.putArray("cpus");
        ArrayNode values = m.putArray("values");
        for (int i = 0; i < n; i++) {
            cpus.add(i);
            ArrayNode row = values.addArray();
            for (int j = 0; j < n; j++) row.add(1.0);
        }
        m.put("unit", "ns");
        refusedByBoth(write("matrix.json", f), "matrix.cpus: 600 CPUs; corescope draws a matrix of at most 512");
    }

    /** A million one-count buckets: the page draws at most 300 bars, and stays a small multiple of the file. */
    @Test
    void aHistogramOfAMillionBucketsMakesASmallPage() throws Exception {
        ObjectNode f = base();
        ArrayNode hs = f.putArray("histograms");
        ObjectNode h = hs.addObject();
        h.put("benchmark", "timerbase").put("variant", "hostile").put("implementation", "java").put("bucketNs", 1);
        ArrayNode counts = h.putArray("counts");
        for (int i = 0; i < 1_000_000; i++) counts.add(1);
        h.put("total", 1_000_000).put("overflow", 0);
        Path in = write("hist.json", f);
        Path page = tmp.resolve("page.html");
        CliRun run = CliRun.run("report", in.toString(), "-o", page.toString());
        assertEquals(0, run.exitCode(), run.err());
        long pageBytes = Files.size(page);
        long inBytes = Files.size(in);
        assertTrue(pageBytes < 4 * inBytes, pageBytes + " bytes of page for " + inBytes + " bytes of file");
        String html = Files.readString(page);
        int bars = html.split("class=\"bucket\"", -1).length - 1;
        assertTrue(bars > 0 && bars <= 300, bars + " bars");
    }

    @Test
    void heapAdviceIsAboveWhatFailed() {
        String six = Main.outOfMemory(6L << 30);
        assertTrue(six.contains("the Java heap is 6144 MiB") && six.contains("-Xmx12g"), six);
        assertTrue(Main.outOfMemory(256L << 20).contains("-Xmx2g"), Main.outOfMemory(256L << 20));
    }

    /** Valid JSON past the parser's nesting limit is named as such, not "not JSON" (issue 23, point 18). */
    @Test
    void jsonPastAParserLimitIsNotCalledNotJson() throws Exception {
        Path deep = tmp.resolve("deep.json");
        Files.writeString(deep, "[".repeat(3000) + "]".repeat(3000));
        CliRun run = CliRun.run("report", deep.toString(), "--format", "text");
        assertEquals(2, run.exitCode(), run.err());
        assertTrue(run.err().contains("JSON beyond what corescope reads"), run.err());
    }
}
