package dev.corescope.bench.locks;

import dev.corescope.sys.tool.RawMemory;
import org.junit.jupiter.api.Test;

import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Java twin of the C spinlock: it excludes, and its word has a cache line to itself. */
class SpinLockTest {

    /** A plain field: only the lock keeps its read-modify-write whole. */
    private long counter;

    @Test
    void nThreadsTimesMIncrementsUnderTheLockGiveExactlyNTimesM() throws InterruptedException {
        int threads = 4;
        int increments = 250_000;
        try (SpinLock lock = new SpinLock()) {
            CountDownLatch start = new CountDownLatch(1);
            List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
            List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                workers.add(Thread.ofPlatform().start(() -> {
                    try {
                        start.await();
                        for (int i = 0; i < increments; i++) {
                            lock.lock();
                            counter++;
                            lock.unlock();
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                }));
            }
            start.countDown();
            for (Thread w : workers) w.join();
            assertEquals(List.of(), failures);
            assertEquals((long) threads * increments, counter, "lost updates: the spinlock did not exclude");
        }
    }

    /** Whether some thread holds {@code lock} now: its word, read as the lock reads it. */
    private static boolean isLocked(SpinLock lock) {
        return (int) ValueLayout.JAVA_INT.varHandle().getVolatile(RawMemory.ALL, lock.address()) != 0;
    }

    @Test
    void tryLockFailsWhileHeldAndSucceedsAfterUnlock() throws InterruptedException {
        try (SpinLock lock = new SpinLock()) {
            lock.lock();
            assertTrue(isLocked(lock));
            boolean[] otherGotIt = new boolean[1];
            Thread other = Thread.ofPlatform().start(() -> otherGotIt[0] = lock.tryLock());
            other.join();
            assertFalse(otherGotIt[0], "tryLock succeeded on a held lock");
            lock.unlock();
            assertFalse(isLocked(lock));
            assertTrue(lock.tryLock());
            lock.unlock();
        }
    }

    @Test
    void theWordStartsACacheLine() {
        try (SpinLock lock = new SpinLock()) {
            assertEquals(0, lock.address() % SpinLock.CACHE_LINE_LENGTH, "word at " + Long.toHexString(lock.address()));
        }
    }
}
