package dev.corescope.bench.syscalls;

import dev.corescope.bench.Jmh;
import dev.corescope.cpumask.CpuMask;
import dev.corescope.sys.internal.Affinity;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.results.RunResult;

import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** A smoke-sized run (in this JVM, milliseconds per benchmark): every method runs; no figure is checked. */
class SyscallBenchmarkTest {

    @Test
    void everyBenchmarkRunsAndUnpinsAfterwards() throws Exception {
        assumeTrue(SysTwins.available(), () -> "C twins not built: " + SysTwins.unavailableReason().orElse("?"));
        CpuMask before = Affinity.allowed();
        Collection<RunResult> results = Jmh.run(SyscallBenchmark.class, null, null, Jmh.Settings.SMOKE, List.of());
        Set<String> names = new TreeSet<>();
        for (RunResult r : results) {
            names.add(r.getParams().getBenchmark().replaceFirst(".*\\.", ""));
            double score = r.getPrimaryResult().getScore();
            assertTrue(score > 0 && Double.isFinite(score), r.getParams().getBenchmark() + ": " + score);
        }
        assertEquals(Set.of("getcpuC", "getcpuPlain", "getcpuCritical", "getcpuCriticalLoop", "getcpuPlainLoop",
                "getcpuRseq", "getcpuRseqLoop",
                "emptyMethod", "getaffinityC", "getaffinityJava", "setaffinityC", "setaffinityJava"), names);
        assertEquals(before, Affinity.allowed());
    }
}
