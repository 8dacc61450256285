package dev.corescope.sys.internal;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.sys.CpuNotAllowedException;
import dev.corescope.sys.Errno;
import dev.corescope.sys.NativeException;
import dev.corescope.sys.Pinning;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Live affinity on this machine: real {@code sched_getaffinity}, {@code sched_setaffinity}
 * and {@code sched_getcpu} calls. Tests that move the thread between CPUs skip when fewer
 * than two CPUs are allowed. Each test checks that the thread's mask is what it was before.
 */
class AffinityTest {

    private CpuMask before;

    @BeforeEach
    void rememberMask() {
        before = Affinity.allowed();
    }

    @AfterEach
    void maskIsBack() {
        assertEquals(before, Affinity.allowed(), "the test thread's mask was not restored");
    }

    @Test
    void allowedIsNonEmptyAndWithinNrCpuIds() {
        assertFalse(before.isEmpty());
        assertTrue(before.last() < Affinity.nrCpuIds(), before + " vs nr_cpu_ids " + Affinity.nrCpuIds());
        assertTrue(before.isSubsetOf(Affinity.processAllowed()));
        assertTrue(before.test(Affinity.currentCpu()), "sched_getcpu ran outside " + before);
    }

    @Test
    void theThreeSchedGetcpuBindingsAgreeWhilePinned() {
        int cpu = before.last();
        try (Pinning p = Affinity.pin(cpu)) {
            assertEquals(cpu, Affinity.currentCpu());
            assertEquals(cpu, Affinity.currentCpuPlain());
            assertEquals(cpu, Affinity.currentCpuCritical());
            assertEquals(CpuMask.of(p.pinned().nbits(), cpu), p.pinned());
        }
    }

    @Test
    void pinMovesTheThreadToEachAllowedCpuAndCloseRestoresTheOldMask() {
        assumeTrue(before.weight() >= 2, "needs at least 2 allowed CPUs; this thread may use only " + before);
        before.forEachCpu(cpu -> {
            try (Pinning p = Affinity.pin(cpu)) {
                assertEquals(before, p.previous());
                assertEquals(CpuMask.of(before.nbits(), cpu), Affinity.allowed());
                assertEquals(cpu, Affinity.currentCpu(), "sched_getcpu right after pinning to " + cpu);
            }
            assertEquals(before, Affinity.allowed(), "after closing the pin to " + cpu);
        });
    }

    @Test
    void nestedPinsUnwindInOrder() {
        assumeTrue(before.weight() >= 2, "needs at least 2 allowed CPUs; this thread may use only " + before);
        int a = before.first();
        int b = before.next(a);
        try (Pinning outer = Affinity.pin(a)) {
            try (Pinning inner = Affinity.pin(b)) {
                assertEquals(b, Affinity.currentCpu());
                assertEquals(outer.pinned(), inner.previous());
            }
            assertEquals(CpuMask.of(before.nbits(), a), Affinity.allowed());
            assertEquals(a, Affinity.currentCpu());
        }
    }

    @Test
    void pinOutsideTheAllowedSetFailsAndChangesNothing() {
        int outside = Affinity.nrCpuIds() + 3;
        CpuNotAllowedException e = assertThrows(CpuNotAllowedException.class, () -> Affinity.pin(outside));
        assertEquals(String.valueOf(outside), e.refused().toList());
        assertEquals("CPU " + outside + " is not in the allowed set " + Affinity.processAllowed().toList(), e.getMessage());
        assertEquals(before, Affinity.allowed());

        CpuMask mixed = CpuMask.of(outside + 1, before.first(), outside);
        assertThrows(CpuNotAllowedException.class, () -> Affinity.pin(mixed));
        assertEquals(before, Affinity.allowed());
    }

    @Test
    void pinToAnEmptySetIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> Affinity.pin(CpuMask.empty(64)));
    }

    @Test
    void aPinningClosedOnAnotherThreadIsRefusedAndStaysOpen() throws Exception {
        try (Pinning p = Affinity.pin(before.first())) {
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> CompletableFuture.runAsync(p::close).get());
            assertInstanceOf(IllegalStateException.class, e.getCause());
            assertEquals(CpuMask.of(before.nbits(), before.first()), Affinity.allowed());
        }
    }

    @Test
    void setToANonexistentCpuFailsWithEinvalNamingTheCall() {
        int cpu = Affinity.nrCpuIds() + 97;
        NativeException e = assertThrows(NativeException.class, () -> Affinity.set(0, CpuMask.of(cpu + 1, cpu)));
        assertEquals("sched_setaffinity", e.function());
        assertEquals(Errno.EINVAL, e.errno());
        assertEquals(22, e.errnoNumber());
        assertEquals("sched_setaffinity(pid=0, cpus=" + cpu + ") failed: EINVAL (22)", e.getMessage());
    }

    @Test
    void getOfAProcessThatDoesNotExistFailsWithEsrch() {
        NativeException e = assertThrows(NativeException.class, () -> Affinity.get(Integer.MAX_VALUE));
        assertEquals("sched_getaffinity", e.function());
        assertEquals(Errno.ESRCH, e.errno());
        assertTrue(e.getMessage().startsWith("sched_getaffinity(pid=" + Integer.MAX_VALUE + ", cpusetsize="), e.getMessage());
        assertTrue(e.getMessage().endsWith(") failed: ESRCH (3)"), e.getMessage());
    }

    @Test
    void aChildStartedWhilePinnedInheritsThePinnedMask() throws Exception {
        int cpu = before.last();
        Process child;
        try (Pinning p = Affinity.pin(cpu)) {
            child = new ProcessBuilder("sleep", "5").start();
        }
        try {
            assertEquals(CpuMask.of(before.nbits(), cpu).toList(), Affinity.get((int) child.pid()).toList());
        } finally {
            child.destroy();
            child.waitFor();
        }
    }
}
