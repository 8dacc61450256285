package dev.corescope.sys.internal;

import org.junit.jupiter.api.Test;

import java.util.concurrent.CountDownLatch;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ThreadsTest {

    @Test
    void anInterruptDoesNotStopTheWaitAndIsReported() throws InterruptedException {
        CountDownLatch release = new CountDownLatch(1);
        Thread worker = Thread.ofPlatform().start(() -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        });
        Thread.currentThread().interrupt();
        Thread releaser = Thread.ofPlatform().start(() -> {
            try {
                Thread.sleep(50);
            } catch (InterruptedException ignored) {
                // released below either way
            }
            release.countDown();
        });
        boolean interrupted = Threads.joinIgnoringInterrupts(worker);
        assertTrue(interrupted, "the interrupt is reported");
        assertFalse(worker.isAlive(), "the worker had finished when the join returned");
        assertFalse(Thread.currentThread().isInterrupted(), "the status is left clear for the caller");
        releaser.join();
    }

    @Test
    void aQuietJoinReportsNoInterrupt() {
        Thread t = Thread.ofPlatform().start(() -> { });
        assertFalse(Threads.joinIgnoringInterrupts(t));
        assertFalse(t.isAlive());
    }
}
