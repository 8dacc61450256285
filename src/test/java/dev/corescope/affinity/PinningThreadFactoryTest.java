package dev.corescope.affinity;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.topology.Topology;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** On this machine's real CPUs, with a reservation directory of the test's own. */
class PinningThreadFactoryTest {

    @TempDir
    Path tmp;

    @Test
    void eachThreadRunsOnItsReservedCpuWhichIsFreedWhenItEnds() throws Exception {
        Topology t = Topology.live();
        Reservations r = Reservations.of(tmp, t, t.usable());
        PinningThreadFactory f = new PinningThreadFactory("pinned", r, CpuStrategy.ANY);
        AtomicReference<CpuMask> mask = new AtomicReference<>();
        AtomicInteger ranOn = new AtomicInteger(-1);
        Thread th = f.newThread(() -> {
            mask.set(ThreadAffinity.allowed());
            ranOn.set(ThreadAffinity.currentCpu());
        });
        assertEquals("pinned-1", th.getName());
        Holding h = r.holdings().stream().filter(Holding::held).findFirst().orElseThrow();
        int reserved = h.cpu();
        assertTrue(h.holder().contains(" thread=pinned-1 "), "the pool thread, not the caller of newThread: " + h.holder());
        th.start();
        th.join();
        assertEquals(CpuMask.of(mask.get().nbits(), reserved), mask.get(), "pinned to its one CPU");
        assertEquals(reserved, ranOn.get());
        assertFalse(r.holdings().stream().anyMatch(Holding::held), "released when the thread ended: " + r.dump());
    }

    @Test
    void noFreeCpuMeansNoThreadNotAnUnpinnedOne() throws Exception {
        Topology t = Topology.live();
        CpuMask one = CpuMask.of(t.nbits(), t.usable().first());
        Reservations r = Reservations.of(tmp, t, one);
        PinningThreadFactory f = new PinningThreadFactory("pinned", r);
        Thread first = f.newThread(() -> { });
        ReservationException e = assertThrows(ReservationException.class, () -> f.newThread(() -> { }));
        assertTrue(e.getMessage().startsWith("no free CPU among the usable CPUs " + one.toList()), e.getMessage());
        first.start();
        first.join();
    }
}
