package dev.corescope.bench.locks;

import dev.corescope.bench.Instruction;
import dev.corescope.sys.Errno;
import dev.corescope.sys.NativeException;
import dev.corescope.sys.tool.NativeLibrary;
import dev.corescope.sys.Pinning;
import dev.corescope.sys.tool.SignalMaskTest;
import dev.corescope.sys.internal.Affinity;
import dev.corescope.sys.internal.Os;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The C twins of {@code bench locks} through their Java wrapper: every loop runs and counts its
 * elements, the C spinlock excludes, the signal-mask loops leave the mask as they found it.
 * Skipped, with the reason, when libcorescope.so was not built. No timing is asserted.
 */
class LocksTwinsTest {

    @BeforeEach
    void needsTheTwin() {
        assumeTrue(NativeLibrary.available(), () -> "C twins not built: " + NativeLibrary.unavailableReason().orElse("?"));
    }

    @Test
    void everyLoopRunsExactlyTheElementsAskedAndTimesThem() {
        boolean tsc = LocksTwins.hasTsc();
        try (LocksTwins.State state = LocksTwins.newState()) {
            for (LocksTwins.Loop loop : LocksTwins.Loop.values()) {
                LocksTwins.Batch b = state.run(loop, 2000);
                assertEquals(2000, b.invoked(), loop.symbol());
                assertTrue(b.ns() > 0, loop.symbol() + " took no time");
                assertEquals(tsc, b.tsc() > 0, loop.symbol() + " tsc " + b.tsc());
            }
        }
    }

    @Test
    void signalMaskLoopsLeaveTheThreadsMaskAsTheyFoundIt() {
        List<Integer> before = SignalMaskTest.blocked();
        try (LocksTwins.State state = LocksTwins.newState()) {
            for (LocksTwins.Loop loop : List.of(LocksTwins.Loop.SPIN_LOCK_IRQSAVE, LocksTwins.Loop.IRQSAVE_MANUAL,
                    LocksTwins.Loop.IRQ_DISABLE_SPIN_LOCK, LocksTwins.Loop.IRQ_SAVE_RESTORE)) {
                state.run(loop, 1000);
                assertEquals(before, SignalMaskTest.blocked(), loop.symbol());
            }
        }
    }

    @Test
    void theCSpinlockExcludesAcrossThreads() throws Throwable {
        int threads = Math.max(2, Affinity.processAllowed().weight());
        long increments = 200_000;
        try (LocksTwins.State state = LocksTwins.newState()) {
            List<Thread> workers = new ArrayList<>();
            CountDownLatch start = new CountDownLatch(1);
            List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
            for (int t = 0; t < threads; t++) {
                workers.add(Thread.ofPlatform().start(() -> {
                    try {
                        start.await();
                        spinIncrement(state, increments);
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                }));
            }
            start.countDown();
            for (Thread w : workers) w.join();
            assertEquals(List.of(), failures);
            assertEquals(threads * increments, counter(state), "lost updates: the C spinlock did not exclude");
        }
    }

    @Test
    void contendedRoundsStopTogetherAndCountEveryOperation() throws Throwable {
        int threads = 2;
        try (LocksTwins.State state = LocksTwins.newState()) {
            for (LocksTwins.Contended kind : LocksTwins.Contended.values()) {
                state.resetContention();
                LocksTwins.Batch[] out = new LocksTwins.Batch[threads];
                List<Thread> workers = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    int i = t;
                    workers.add(Thread.ofPlatform().start(() -> out[i] = state.contend(kind, threads, -1, 2_000_000)));
                }
                for (Thread w : workers) w.join();
                long total = 0;
                for (LocksTwins.Batch b : out) {
                    assertNotNull(b, kind + ": a thread did not finish");
                    total += b.invoked();
                }
                assertTrue(total > 0, kind + " ran no operation");
                if (kind != LocksTwins.Contended.ATOMIC) {
                    assertEquals(total, counter(state), kind + ": the counter under the lock lost updates");
                }
            }
        }
    }

    /** A contended thread checks in C that it runs where it was pinned; one that does not is reported, not used silently. */
    @Test
    void aContendedThreadOffItsCpuIsReportedAsMigrated() throws InterruptedException {
        var allowed = Affinity.processAllowed();
        assumeTrue(allowed.weight() >= 2, "needs 2 allowed CPUs, has " + allowed.toList());
        int a = allowed.first();
        int b = allowed.next(a);
        try (LocksTwins.State state = LocksTwins.newState()) {
            LocksTwins.Batch[] out = new LocksTwins.Batch[2];
            Thread t = Thread.ofPlatform().start(() -> {
                try (Pinning p = Os.live().pinChecked(a)) {
                    state.resetContention();
                    out[0] = state.contend(LocksTwins.Contended.SPIN, 1, a, 1_000_000);
                    state.resetContention();
                    out[1] = state.contend(LocksTwins.Contended.SPIN, 1, b, 1_000_000);
                }
            });
            t.join();
            assertFalse(out[0].migrated(), "on its CPU");
            assertTrue(out[1].migrated(), "pinned to CPU " + a + ", expected on " + b);
        }
    }

    /**
     * The pushf stand-in runs what the kernel's local_irq_save/restore ran (less cli): the
     * lock helper starts with pushfq; pop, the unlock helper ends with push; popfq, and the
     * harness's timed loop calls both (checked on the machine code of the built library).
     */
    @Test
    void thePushfStandInRunsPushfPopAndPushPopfAroundTheLock() throws Exception {
        java.nio.file.Path lib = dev.corescope.sys.tool.NativeLibrary.file().orElseThrow();
        List<dev.corescope.bench.Instruction> lock;
        try {
            lock = dev.corescope.bench.MachineCodeReader.instructions(lib, "cs_spin_lock_irqsave_pushf");
        } catch (java.io.IOException e) {
            org.junit.jupiter.api.Assumptions.assumeTrue(false, "no objdump or no symbol table: " + e.getMessage());
            return;
        }
        List<String> lockOps = lock.stream().filter(i -> !i.padding()).map(dev.corescope.bench.Instruction::mnemonic).toList();
        assertEquals(List.of("pushf", "pop"), lockOps.subList(0, 2), lock.toString());
        assertTrue(lockOps.contains("xchg"), "the same xchg lock: " + lockOps);
        List<String> unlockOps = dev.corescope.bench.MachineCodeReader.instructions(lib, "cs_spin_unlock_irqrestore_pushf").stream()
                .filter(i -> !i.padding()).map(dev.corescope.bench.Instruction::mnemonic).toList();
        assertEquals(List.of("push", "popf", "ret"), unlockOps.subList(unlockOps.size() - 3, unlockOps.size()), unlockOps.toString());
        assertTrue(unlockOps.getFirst().startsWith("mov"), "the unlock is a store before the flags restore: " + unlockOps);
        var harness = dev.corescope.bench.MachineCodeReader.instructions(lib, LocksTwins.Loop.SPIN_LOCK_IRQSAVE_PUSHF.symbol());
        var loops = dev.corescope.bench.MachineCodeReader.naturalLoops(harness);
        assertEquals(1, loops.size());
        String loopText = loops.getFirst().members().stream().mapToObj(k -> harness.get(k).text()).reduce("", (a, b) -> a + b + "\n");
        assertTrue(loopText.contains("<cs_spin_lock_irqsave_pushf>") && loopText.contains("<cs_spin_unlock_irqrestore_pushf>"), loopText);
        assertTrue(LocksTwins.localIrqSave() != 0, "the flags register is never 0 (bit 1 is always set)");
    }

    /** The work under the lock is a counter in memory, as the Java benchmarks' {@code ++count} field. */
    @Test
    void theUncontendedLockLoopsIncrementACounterInMemoryUnderTheLock() throws Throwable {
        try (LocksTwins.State state = LocksTwins.newState()) {
            long before = workDone(state);
            LocksTwins.Batch b = state.run(LocksTwins.Loop.SPIN_LOCK_UNLOCK, 5000);
            assertEquals(5000, b.invoked());
            assertEquals(before + 5000, workDone(state));
            state.run(LocksTwins.Loop.MUTEX, 1000);
            assertEquals(before + 6000, workDone(state));
        }
    }

    @Test
    void calibrationGivesARateWhereThereIsATsc() {
        double mhz = LocksTwins.calibrateTscMhz(1_000_000);
        assertEquals(LocksTwins.hasTsc(), mhz > 0, "calibrated " + mhz);
    }

    @Test
    void kernelTscRateIsReadOrRefusedWithAnErrno() {
        try {
            LocksTwins.KernelTscRate r = LocksTwins.kernelTscRate();
            assertTrue(r.khz() >= 0);
            assertEquals(r.khz() > 0, !r.line().isEmpty(), r.toString());
            if (r.khz() > 0) assertTrue(r.line().startsWith("tsc: "), r.line());
        } catch (NativeException e) {
            assertEquals("klogctl", e.function());
            assertFalse(e.errno() == Errno.UNKNOWN, e.getMessage());
        }
    }

    @Test
    void aNegativeLoopCountIsRefusedBeforeC() {
        try (LocksTwins.State state = LocksTwins.newState()) {
            try {
                state.run(LocksTwins.Loop.FOR_LOOP, 0);
                fail("0 loops accepted");
            } catch (IllegalArgumentException expected) {
                assertTrue(expected.getMessage().contains("loops"));
            }
        }
    }

    /** {@code cs_locks_counter}: the counter {@code contend} and {@code cs_locks_spin_increment} increment. */
    private static long counter(LocksTwins.State state) throws Throwable {
        Field address = LocksTwins.State.class.getDeclaredField("address");
        address.setAccessible(true);
        MethodHandle counter = NativeLibrary.downcall("cs_locks_counter", FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.ADDRESS));
        return (long) counter.invokeExact((MemorySegment) address.get(state));
    }

    /** {@code cs_locks_spin_increment}: {@code increments} times spin_lock, a plain {@code counter++}, spin_unlock, in C. */
    private static void spinIncrement(LocksTwins.State state, long increments) throws Throwable {
        Field address = LocksTwins.State.class.getDeclaredField("address");
        address.setAccessible(true);
        MethodHandle inc = NativeLibrary.downcall("cs_locks_spin_increment", FunctionDescriptor.ofVoid(ValueLayout.ADDRESS, ValueLayout.JAVA_LONG));
        inc.invokeExact((MemorySegment) address.get(state), increments);
    }

    /** The uncontended loops' {@code ++count} under the lock ({@code cs_locks_work_done}), read from the state's C memory. */
    private static long workDone(LocksTwins.State state) throws Throwable {
        Field address = LocksTwins.State.class.getDeclaredField("address");
        address.setAccessible(true);
        MethodHandle workDone = NativeLibrary.downcall("cs_locks_work_done", FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.ADDRESS));
        return (long) workDone.invokeExact((MemorySegment) address.get(state));
    }
}
