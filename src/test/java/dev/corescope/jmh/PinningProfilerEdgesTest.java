package dev.corescope.jmh;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.sys.internal.Affinity;
import dev.corescope.topology.Topology;
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

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Issue #24 points 11 and 12: what the machine cannot give is one line through JMH's error
 * paths, the fork gets native access from the profiler, and where the threads ran is in the
 * results as numbers (so in JMH's JSON too).
 */
class PinningProfilerEdgesTest {

    @TempDir
    Path tmp;

    @Test
    void cpusThisProcessCannotUseAreRefusedBeforeTheRun() {
        int beyond = Affinity.processAllowed().last() + 3;
        ProfilerException e = assertThrows(ProfilerException.class, () -> new PinningProfiler("cpus=0," + beyond));
        assertTrue(e.getMessage().startsWith("corescope pinning: cpus=0," + beyond + ": CPU " + beyond + " is not in the allowed set "
                + Affinity.processAllowed().toList()), e.getMessage());
        assertDoesNotThrow(() -> new PinningProfiler("cpus=" + Affinity.processAllowed().first()));
    }

    @Test
    void smtWithoutSmtIsRefusedBeforeTheRun() throws Exception {
        Topology t = Topology.live();
        CpuMask usable = Affinity.processAllowed();
        boolean smtHere = t.cores().stream().anyMatch(c -> c.cpus().and(usable).weight() >= 2);
        if (smtHere) {
            assertDoesNotThrow(() -> new PinningProfiler("placement=smt"));
        } else {
            ProfilerException e = assertThrows(ProfilerException.class, () -> new PinningProfiler("placement=smt"));
            assertTrue(e.getMessage().startsWith("corescope pinning: placement=smt cannot be given here: no two of the usable CPUs "),
                    e.getMessage());
        }
    }

    @Test
    void moreThreadsThanCpusFailsThatBenchmarkInOneLine() throws Exception {
        int threads = Affinity.processAllowed().weight() + 1;
        Path out = tmp.resolve("jmh.txt");
        Options opts = new OptionsBuilder()
                .include("SyscallBenchmark.getcpuPlain$")
                .threads(threads)
                .forks(1).warmupIterations(0).measurementIterations(1)
                .measurementTime(TimeValue.milliseconds(50))
                .jvmArgs("-XX:TieredStopAtLevel=1")
                // more threads than usable CPUs: no group, whoever holds what (nothing is reserved)
                .addProfiler(PinningProfiler.class, "placement=any")
                .output(out.toString())
                .build();
        Collection<RunResult> runs = new Runner(opts).run();  // threw ReservationException out of JMH before
        assertTrue(runs.isEmpty(), "the benchmark did not run");
        String text = Files.readString(out);
        assertTrue(!text.contains("\tat "), "no stack trace:\n" + text);
    }

    @Test
    void theForkGetsNativeAccessAndTheResultsSayWhereEachThreadRan() throws Exception {
        CpuMask allowed = Affinity.processAllowed();
        Path out = tmp.resolve("jmh.txt");
        Options opts = new OptionsBuilder()
                .include("SyscallBenchmark.getcpuPlain$")
                .threads(1)
                .forks(1).warmupIterations(0).measurementIterations(1)
                .measurementTime(TimeValue.milliseconds(50))
                // replaces the test JVM's own flags, --enable-native-access among them
                .jvmArgs("-XX:TieredStopAtLevel=1")
                // an explicit CPU and no reservation: independent of other runs on this machine
                .addProfiler(PinningProfiler.class, "cpus=" + allowed.last() + ";reserve=false")
                .output(out.toString())
                .build();
        Collection<RunResult> runs = new Runner(opts).run();
        String text = Files.readString(out);
        assertTrue(!runs.isEmpty(), "the benchmark ran:\n" + text);
        assertTrue(!text.contains("restricted method"), "the fork printed the JDK's native-access warning:\n" + text);
        assertTrue(text.contains("--enable-native-access=ALL-UNNAMED"), "the fork's VM options name it:\n" + text);
        Map<String, Result> secondary = runs.iterator().next().getSecondaryResults();
        Result cpu = secondary.get("pin.thread-0.cpu");
        assertTrue(cpu != null, "no pin.thread-0.cpu in " + secondary.keySet());
        assertEquals(allowed.last(), (int) cpu.getScore());
        assertEquals("CPU", cpu.getScoreUnit());
    }
}
