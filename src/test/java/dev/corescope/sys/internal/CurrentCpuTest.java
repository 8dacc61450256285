package dev.corescope.sys.internal;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.sys.Pinning;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The rseq read of the current CPU against {@code sched_getcpu()}, on this machine, and its
 * fallback in a child JVM started with rseq registration switched off.
 */
class CurrentCpuTest {

    @Test
    void rseqReadEqualsSchedGetcpuWhilePinnedToEachAllowedCpu() {
        assumeTrue(CurrentCpu.rseqUnavailableReason().isEmpty(),
                () -> "rseq is not usable here: " + CurrentCpu.rseqUnavailableReason().orElseThrow());
        CpuMask allowed = Affinity.allowed();
        CurrentCpu reader = CurrentCpu.forThisThread();
        assertTrue(reader.usesRseq(), () -> "fell back: " + reader.fallbackReason().orElse("?"));
        allowed.forEachCpu(cpu -> {
            try (Pinning p = Affinity.pin(cpu)) {
                for (int i = 0; i < 100; i++) {
                    assertEquals(cpu, reader.read(), "rseq cpu_id while pinned to " + cpu);
                    assertEquals(Affinity.currentCpuPlain(), reader.read(), "rseq vs sched_getcpu() on CPU " + cpu);
                }
                assertEquals(cpu, Affinity.currentCpu(), "Affinity.currentCpu() while pinned to " + cpu);
                assertEquals(cpu, Affinity.currentCpuCritical());
            }
        });
    }

    /**
     * {@link Affinity#currentCpu()} keeps the reader used last: two threads pinned to different
     * CPUs and taking turns must each get their own CPU, never the other thread's area.
     */
    @Test
    void affinityCurrentCpuIsEachThreadsOwnWhenThreadsTakeTurns() throws Exception {
        CpuMask allowed = Affinity.processAllowed();
        int a = allowed.first();
        int b = allowed.last();
        Affinity.LastReader.reader = null; // whatever an earlier test left there
        java.util.concurrent.SynchronousQueue<Integer> toB = new java.util.concurrent.SynchronousQueue<>();
        java.util.concurrent.SynchronousQueue<Integer> toA = new java.util.concurrent.SynchronousQueue<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread other = Thread.ofPlatform().start(() -> {
            try (Pinning p = Affinity.pin(b)) {
                for (int i = 0; i < 200; i++) {
                    toB.take();
                    int got = Affinity.currentCpu();
                    toA.put(got);
                }
            } catch (Throwable t) {
                failure.set(t);
            }
        });
        try (Pinning p = Affinity.pin(a)) {
            for (int i = 0; i < 200; i++) {
                assertEquals(a, Affinity.currentCpu(), "this thread, pinned to " + a + ", turn " + i);
                toB.put(i);
                Integer theirs = toA.poll(30, TimeUnit.SECONDS);
                assertEquals(Integer.valueOf(b), theirs, "the other thread, pinned to " + b + ", turn " + i);
            }
        } finally {
            other.interrupt(); // after a failed turn it would wait for the next one
            other.join(30_000);
        }
        assertEquals(null, failure.get());
    }

    @Test
    void affinityCurrentCpuOnAVirtualThreadIsAnAllowedCpu() throws Exception {
        AtomicReference<Integer> cpu = new AtomicReference<>();
        Thread.ofVirtual().start(() -> cpu.set(Affinity.currentCpu())).join();
        assertTrue(Affinity.processAllowed().test(cpu.get()), "CPU " + cpu.get() + " outside " + Affinity.processAllowed());
    }

    @Test
    void aReaderIsRefusedOnAnotherThread() throws Exception {
        CurrentCpu mine = CurrentCpu.forThisThread();
        ExecutionException e = assertThrows(ExecutionException.class,
                () -> CompletableFuture.supplyAsync(mine::read).get(30, TimeUnit.SECONDS));
        assertInstanceOf(IllegalStateException.class, e.getCause());
    }

    @Test
    void aVirtualThreadFallsBackToSchedGetcpu() throws Exception {
        AtomicReference<CurrentCpu> reader = new AtomicReference<>();
        AtomicReference<Integer> cpu = new AtomicReference<>();
        Thread.ofVirtual().start(() -> {
            CurrentCpu r = CurrentCpu.forThisThread();
            reader.set(r);
            cpu.set(r.read());
        }).join();
        assertFalse(reader.get().usesRseq());
        assertTrue(reader.get().fallbackReason().orElseThrow().contains("virtual"), reader.get().fallbackReason().toString());
        assertTrue(Affinity.processAllowed().test(cpu.get()), "CPU " + cpu.get() + " outside " + Affinity.processAllowed());
    }

    @Test
    void withRseqSwitchedOffTheFallbackIsTakenAndStillRight() throws Exception {
        assumeTrue(CurrentCpu.rseqUnavailableReason().isEmpty(),
                () -> "rseq is not usable here to begin with: " + CurrentCpu.rseqUnavailableReason().orElseThrow());
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(List.of(java, "--enable-native-access=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), CurrentCpuProbe.class.getName()));
        pb.environment().put("GLIBC_TUNABLES", "glibc.pthread.rseq=0");
        pb.redirectErrorStream(true);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        List<String> lines = out.strip().lines().toList();
        assertEquals("usesRseq false", lines.get(0), out);
        assertTrue(lines.get(1).contains("__rseq_size 0"), out);
        assertEquals("agrees true", lines.get(2), out);
    }
}
