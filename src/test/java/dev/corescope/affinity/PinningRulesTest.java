package dev.corescope.affinity;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.sys.Affinity;
import dev.corescope.sys.Pinning;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Issue #24 points 7 and 8: virtual threads are refused, and nested pins closed out of order are caught and undone. */
class PinningRulesTest {

    @Test
    void aVirtualThreadIsRefusedAndNoCarrierIsLeftPinned() throws Exception {
        CpuMask before = Affinity.processAllowed();
        int cpu = before.first();
        AtomicReference<Throwable> pinFailure = new AtomicReference<>();
        AtomicReference<Throwable> sysFailure = new AtomicReference<>();
        Thread v = Thread.ofVirtual().start(() -> {
            try (Pinning p = ThreadAffinity.pin(cpu)) {
                pinFailure.set(new AssertionError("pinned a virtual thread to " + p.pinned().toList()));
            } catch (Throwable t) {
                pinFailure.set(t);
            }
            try (Pinning p = Affinity.pin(cpu)) {
                sysFailure.set(new AssertionError("pinned a virtual thread to " + p.pinned().toList()));
            } catch (Throwable t) {
                sysFailure.set(t);
            }
        });
        v.join();
        for (Throwable t : new Throwable[] {pinFailure.get(), sysFailure.get()}) {
            assertInstanceOf(UnsupportedOperationException.class, t);
            assertTrue(t.getMessage().contains("cannot pin a virtual thread"), t.getMessage());
            assertTrue(t.getMessage().contains("platform thread"), t.getMessage());
        }
        // nothing was set on the carrier: the virtual threads after it run where they may
        int[] seen = new int[1];
        Thread after = Thread.ofVirtual().start(() -> seen[0] = Affinity.allowed().weight());
        after.join();
        assertEquals(before.weight(), seen[0]);
    }

    @Test
    void closingTheOuterPinFirstIsCaughtAndLeavesTheThreadOnItsOriginalCpus() throws Exception {
        runOnFreshThread(() -> {
            CpuMask original = ThreadAffinity.allowed();
            assumeTrue(original.weight() > 1, "needs two allowed CPUs to tell the masks apart");
            int a = original.first();
            int b = original.last();
            Pinning outer = ThreadAffinity.pin(CpuMask.ofCpus(a, b));
            Pinning inner = ThreadAffinity.pin(CpuMask.ofCpus(b));
            IllegalStateException e = assertThrows(IllegalStateException.class, outer::close);
            assertTrue(e.getMessage().contains("closed out of order"), e.getMessage());
            assertTrue(e.getMessage().contains("CPUs " + b), e.getMessage());
            assertEquals(original, ThreadAffinity.allowed(), "back on the CPUs from before the outer pin");
            inner.close();  // already undone with the outer one: nothing happens
            assertEquals(original, ThreadAffinity.allowed());
            // the thread's pins work as before afterwards
            try (Pinning p = ThreadAffinity.pin(CpuMask.ofCpus(a))) {
                try (Pinning q = ThreadAffinity.pin(CpuMask.ofCpus(b))) {
                    assertEquals(CpuMask.ofCpus(b), ThreadAffinity.allowed());
                }
                assertEquals(CpuMask.ofCpus(a), ThreadAffinity.allowed());
            }
            assertEquals(original, ThreadAffinity.allowed());
        });
    }

    @Test
    void theSameForTheOtherKindOfPinAndForMixedNesting() throws Exception {
        runOnFreshThread(() -> {
            CpuMask original = ThreadAffinity.allowed();
            assumeTrue(original.weight() > 1, "needs two allowed CPUs to tell the masks apart");
            int a = original.first();
            int b = original.last();
            Pinning outer = Affinity.pin(a);
            Pinning middle = ThreadAffinity.pin(CpuMask.ofCpus(b));
            Pinning inner = Affinity.pin(b);
            IllegalStateException e = assertThrows(IllegalStateException.class, outer::close);
            assertTrue(e.getMessage().contains("2 pins"), e.getMessage());
            assertEquals(original, ThreadAffinity.allowed());
            inner.close();
            middle.close();
            assertEquals(original, ThreadAffinity.allowed());
        });
    }

    private interface Body {
        void run() throws Exception;
    }

    /** On a platform thread of its own, so its pins and their stack start empty and end with it. */
    private static void runOnFreshThread(Body body) throws Exception {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread t = Thread.ofPlatform().start(() -> {
            try {
                body.run();
            } catch (Throwable x) {
                failure.set(x);
            }
        });
        t.join();
        if (failure.get() instanceof Exception x) throw x;
        if (failure.get() instanceof Error x) throw x;
    }
}
