package dev.corescope.cli;

import dev.corescope.testing.Timing;
import dev.corescope.report.Json;
import dev.corescope.report.Result;
import dev.corescope.report.ResultsFile;
import dev.corescope.testing.SavedRuns;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 28: {@code report} and {@code compare} do work linear in their input. The work is
 * counted as the bytes this thread allocates (the JVM's own count, not a clock) for a results
 * file of a saved tour copied k times (each copy's rows told apart by a param) and one four
 * times larger: linear work gives a ratio near 4, a nested loop over rows (SeedVerdicts'
 * codeSize matching was one) 16.
 */
@Timing
class LinearInputTest {

    @TempDir
    Path dir;

    private Path copies(int k) throws Exception {
        ResultsFile tour = SavedRuns.read("tour-after.json");
        List<Result> rows = new ArrayList<>();
        for (int c = 0; c < k; c++) for (Result r : tour.results()) rows.add(r.toBuilder().param("copy", c).build());
        Path f = dir.resolve("copies-" + k + ".json");
        Files.writeString(f, Json.write(tour.toBuilder().results(rows).build()));
        return f;
    }

    private static long allocated(Runnable r) {
        var bean = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long id = Thread.currentThread().threadId();
        long before = bean.getThreadAllocatedBytes(id);
        r.run();
        return bean.getThreadAllocatedBytes(id) - before;
    }

    private void assertLinear(String what, java.util.function.Function<Path, Runnable> command) throws Exception {
        Path small = copies(10), large = copies(40);
        command.apply(copies(2)).run(); // classes loaded, caches filled: not the input's work
        long a = allocated(command.apply(small));
        long b = allocated(command.apply(large));
        double ratio = (double) b / a;
        assertTrue(ratio < 6, what + ": 4x the rows allocated " + String.format("%.1f", ratio) + "x (" + a + " -> " + b + " bytes)");
    }

    @Test
    void reportTextIsLinearInTheRows() throws Exception {
        assertLinear("report --format text", f -> () -> CliRun.run("report", f.toString(), "--format", "text", "-o", dir.resolve("out.txt").toString()).succeeded());
    }

    @Test
    void reportHtmlIsLinearInTheRows() throws Exception {
        assertLinear("report -o page.html", f -> () -> CliRun.run("report", f.toString(), "-o", dir.resolve("out.html").toString()).succeeded());
    }

    @Test
    void compareIsLinearInTheRows() throws Exception {
        assertLinear("compare", f -> () -> {
            CliRun r = CliRun.run("compare", f.toString(), f.toString());
            assertTrue(r.exitCode() == 0, r.err());
        });
    }
}
