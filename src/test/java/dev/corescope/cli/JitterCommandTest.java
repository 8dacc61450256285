package dev.corescope.cli;

import dev.corescope.testing.SavedRuns;
import com.fasterxml.jackson.databind.JsonNode;
import dev.corescope.report.Json;
import dev.corescope.report.ResultsFile;
import dev.corescope.sys.internal.Affinity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code jitter} end to end: a real short run on this machine, and its bad input. */
class JitterCommandTest {

    @Test
    void aShortRealRunRanksEveryAllowedCpuAndSavesAResultsFile(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("jitter.json");
        CliRun run = CliRun.run("jitter", "--seconds", "0.1", "--format", "json", "-o", out.toString());
        assertEquals(0, run.exitCode(), run.err());
        JsonNode json = Json.MAPPER.readTree(run.out());
        JsonNode rows = json.get("jitter").get("rows");
        assertEquals(Affinity.processAllowed().weight(), rows.size(), "one row per allowed CPU");
        for (int i = 0; i < rows.size(); i++) {
            JsonNode r = rows.get(i);
            assertEquals(i + 1, r.get("rank").asInt());
            assertTrue(r.get("clockCostNs").asLong() > 0, r.toString());
            assertTrue(r.get("seconds").asDouble() >= 0.1, r.toString());
            assertTrue(r.get("maxNs").asLong() >= r.get("p99Ns").asLong(), r.toString());
            assertNotNull(r.get("likelyCause"));
        }
        assertEquals(rows.get(0).get("cpu").asText(), json.get("jitter").get("quietest").asText().split(",")[0]);
        ResultsFile saved = SavedRuns.lenient(out);
        assertEquals(rows.size(), dev.corescope.jitter.JitterView.report(saved).orElseThrow().rows().size(), "the saved file reads back");
        assertTrue(run.err().contains("jitter: CPU"), "progress on stderr: " + run.err());
    }

    @Test
    void theTextNamesTheQuietestCpu() {
        CliRun run = CliRun.run("jitter", "--seconds", "0.05", "--cpus", String.valueOf(Affinity.processAllowed().first()));
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().contains("Quietest CPU: " + Affinity.processAllowed().first() + " ("), run.out());
        assertTrue(run.out().contains("Kernel: isolcpus="), run.out());
    }

    @Test
    void badSecondsAreRefused() {
        CliRun.run("jitter", "--seconds", "NaN").badInput("--seconds NaN: a number of seconds");
        CliRun.run("jitter", "--seconds", "1e3").badInput("--seconds 1e3");
        CliRun.run("jitter", "--seconds", "0").badInput("between 0.01 and 600");
        CliRun.run("jitter", "--seconds", "٢").badInput("--seconds");
        CliRun.run("jitter", "--in-turn", "--together").badInput("choose one");
        CliRun.run("jitter", "--format", "svg").badInput("text or json");
        CliRun.run("jitter", "--cpus", "99999").badInput("--cpus 99999");
    }

    @Test
    void quietPicksAnAllowedCpuAndBadCountsAreRefused() {
        CliRun.run("pin", "--cpus", "quiet:0", "--", "true").badInput("between 1 and");
        CliRun.run("pin", "--cpus", "quiet:x", "--", "true").badInput("quiet:N takes a number");
        assertTrue(Affinity.processAllowed().test(QuietCpus.choose("quiet").first()));
    }
}
