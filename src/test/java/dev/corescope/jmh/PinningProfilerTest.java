package dev.corescope.jmh;

import dev.corescope.affinity.CpuStrategy;
import dev.corescope.cpumask.CpuMask;
import dev.corescope.sys.internal.Affinity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.profile.ProfilerException;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The profiler on a real forked JMH run of one of corescope's own benchmarks, at smoke size. */
class PinningProfilerTest {

    @TempDir
    Path tmp;

    @Test
    void pinsEachBenchmarkThreadToItsPlannedCpuAndReportsNoMigration() throws Exception {
        CpuMask allowed = Affinity.allowed();
        assumeTrue(allowed.weight() >= 2, "needs 2 allowed CPUs, has " + allowed.toList());
        Options opts = new OptionsBuilder()
                .include("SyscallBenchmark.getcpuPlain$")
                .threads(2)
                .forks(1).warmupIterations(1).measurementIterations(2)
                .warmupTime(TimeValue.milliseconds(50)).measurementTime(TimeValue.milliseconds(50))
                .jvmArgsAppend("--enable-native-access=ALL-UNNAMED", "-XX:TieredStopAtLevel=1",
                        "-Dcorescope.reservations.dir=" + tmp)
                .addProfiler(PinningProfiler.class, "placement=quiet")
                .output(tmp.resolve("jmh.txt").toString())
                .build();
        System.setProperty("corescope.reservations.dir", tmp.toString());
        Collection<RunResult> runs;
        try {
            runs = new Runner(opts).run();
        } finally {
            System.clearProperty("corescope.reservations.dir");
        }
        Map<String, Result> secondary = runs.iterator().next().getSecondaryResults();
        assertEquals(0.0, secondary.get("pin.migrated").getScore(), "no pinned thread migrated: " + secondary);
        // "pin" is the number of pinned threads, not NaN (a summary row and a JSON score), with where they ran as its text
        assertEquals(2.0, secondary.get("pin").getScore(), secondary.toString());
        String output = Files.readString(tmp.resolve("jmh.txt"));
        assertTrue(!output.contains("NaN"), output);
        String where = secondary.get("pin").extendedInfo();
        assertTrue(where.matches("(?s).*threads pinned: thread 0 on CPU \\d+; thread 1 on CPU \\d+; placement quiet.*"), where);
        assertTrue(!where.contains("bound this worker") && !where.contains("could not be read"), "bound by index: " + where);
        assertEquals(allowed, Affinity.allowed(), "the host thread is not left pinned");
        if (!where.contains("counters refused")) {
            assertEquals(0.0, secondary.get("pin.cpu-migrations").getScore(), secondary.toString());
            assertTrue(secondary.containsKey("pin.context-switches"));
        }
    }

    @Test
    void badOptionsAreRefusedWithTheAcceptedOnes() {
        ProfilerException e = assertThrows(ProfilerException.class, () -> new PinningProfiler("placement=diagonal"));
        assertTrue(e.getMessage().contains("smt, same-l3, cross-l3, cross-package, any"), e.getMessage());
        ProfilerException k = assertThrows(ProfilerException.class, () -> new PinningProfiler("pin=yes"));
        assertTrue(k.getMessage().contains("unknown option 'pin'"), k.getMessage());
        assertEquals(CpuStrategy.SAME_CORE, CpuStrategy.of("smt"));
        ProfilerException q = assertThrows(ProfilerException.class, () -> new PinningProfiler("placement=same-l3;prefer=calm"));
        assertTrue(q.getMessage().contains("prefer=calm: not one of quiet, kernel-hints"), q.getMessage());
    }

    @Test
    void threadIGetsTheIthCpuAsWritten() {
        assertArrayEquals(new int[]{1, 0}, PinningProfiler.cpusInOrder("1,0"));
        assertArrayEquals(new int[]{4, 5, 0}, PinningProfiler.cpusInOrder("4-5,0"));
    }

    @Test
    void cpuListsParse() {
        assertEquals(3, PinningExecutor.parseCpus("1, 2,1500").length);
        assertEquals(1500, PinningExecutor.parseCpus("1, 2,1500")[2]);
        assertEquals(0, PinningExecutor.parseCpus("").length);
    }
}
