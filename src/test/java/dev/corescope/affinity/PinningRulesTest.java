package dev.corescope.affinity;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.sys.Pinning;
import dev.corescope.sys.internal.Affinity;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Issue #24 points 7 and 8: virtual threads are refused, and pins closed out of order still end where they should. */
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
    void closingTheOuterPinFirstKeepsTheInnerOneAndThenEndsOnTheOriginalCpus() throws Exception {
        runOnFreshThread(() -> {
            CpuMask original = ThreadAffinity.allowed();
            assumeTrue(original.weight() > 1, "needs two allowed CPUs to tell the masks apart");
            int a = original.first();
            int b = original.last();
            Pinning outer = ThreadAffinity.pin(CpuMask.ofCpus(a, b));
            Pinning inner = ThreadAffinity.pin(CpuMask.ofCpus(b));
            outer.close();
            assertEquals(CpuMask.ofCpus(b), ThreadAffinity.allowed(), "the inner pin is still open, so the thread stays there");
            inner.close();  // used to put back the outer pin's CPUs: the thread stayed on {a, b}
            assertEquals(original, ThreadAffinity.allowed(), "back on the CPUs from before both");
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
            outer.close();
            assertEquals(CpuMask.ofCpus(b), ThreadAffinity.allowed());
            middle.close();  // not the latest either: nothing changes now
            assertEquals(CpuMask.ofCpus(b), ThreadAffinity.allowed());
            inner.close();
            assertEquals(original, ThreadAffinity.allowed());
            // and a harness's per-iteration pin around a longer one made inside it (PinningExecutor
            // around a benchmark's @Setup(Level.Trial) pin): each iteration ends on the longer pin
            Pinning iteration = ThreadAffinity.pin(CpuMask.ofCpus(a, b));
            Pinning trial = Affinity.pin(a);
            iteration.close();
            assertEquals(CpuMask.ofCpus(a), ThreadAffinity.allowed());
            try (Pinning next = ThreadAffinity.pin(CpuMask.ofCpus(a, b))) {
                assertEquals(CpuMask.ofCpus(a, b), ThreadAffinity.allowed());
            }
            assertEquals(CpuMask.ofCpus(a), ThreadAffinity.allowed());
            trial.close();
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
