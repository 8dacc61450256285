package dev.corescope.cli;

import dev.corescope.bench.c2c.SysfsTree;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** Issue 28: {@code bench c2c --plan} says what a run measures and how long, for this machine or a saved tree. */
class BenchPlanTest {

    @TempDir
    Path dir;

    @Test
    void planOfASavedTreeListsTheClassesThePairsAndTheEstimateAndMeasuresNothing() throws Exception {
        SysfsTree.build(dir, new int[][]{{0, 1, 2, 3}, {1280, 1281, 1282, 1283}});
        String out = CliRun.run("bench", "c2c", "--plan", "--root", dir.toString()).succeeded().out();
        CliRun.assertApproved("cli/plan/c2c-tree.txt", out, Map.of("dir", dir.toString()));
        String full = CliRun.run("bench", "c2c", "--plan", "--full", "--quick", "--root", dir.toString(), "--cpus", "1280-1283").succeeded().out();
        CliRun.assertApproved("cli/plan/c2c-tree-full-quick.txt", full, Map.of("dir", dir.toString()));
    }

    @Test
    void planAndFullAreC2cOnlyAndRootGoesWithPlan() {
        CliRun.run("bench", "cpumask", "--plan").badInput("only c2c has a plan");
        CliRun.run("bench", "locks", "--full").badInput("only c2c has a plan and a full matrix");
        CliRun.run("bench", "c2c", "--root", "/").badInput("--root: goes with --plan");
        CliRun.run("bench", "c2c", "--plan", "--root", dir.resolve("none").toString()).badInput("--root " + dir.resolve("none") + ": no such directory");
        // a folder that is no saved tree is bad input, as for topology --root (it was an internal error here)
        CliRun.run("bench", "c2c", "--plan", "--root", dir.toString()).badInput("--root " + dir + ": holds no sys/devices/system/cpu");
        CliRun.run("bench", "c2c", "--plan", "--format", "json").badInput("--plan: prints text");
    }

    /** Issue 27: hwloc XML from a machine corescope never ran on is enough to plan for it. */
    @Test
    void planOfAnHwlocXmlFileComesFromItsTopology() throws Exception {
        Path xml = Path.of("src/test/resources/fixtures/hwloc-xml/v2-16amd64-4distances.xml");
        String out = CliRun.run("bench", "c2c", "--plan", "--from", xml.toString()).succeeded().out();
        CliRun.assertApproved("cli/plan/c2c-hwloc-xml.txt", out, Map.of());
        Files.writeString(dir.resolve("bad.xml"), "<topology><object");
        CliRun.run("bench", "c2c", "--plan", "--from", dir.resolve("bad.xml").toString()).badInput("bad.xml");
        CliRun.run("bench", "c2c", "--from", xml.toString()).badInput("--from: goes with --plan");
        CliRun.run("bench", "c2c", "--plan", "--from", xml.toString(), "--root", "/").badInput("give --root or --from, not both");
    }

    @Test
    void planOfThisMachineRuns() {
        String out = CliRun.run("bench", "c2c", "--plan").succeeded().out();
        assertTrue(out.startsWith("# c2c plan for this machine: "), out);
    }
}
