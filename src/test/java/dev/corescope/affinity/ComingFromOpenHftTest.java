package dev.corescope.affinity;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.topology.CpuSelector;
import dev.corescope.topology.Topology;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What OpenHFT Java-Thread-Affinity users rely on, as docs/library.md's "Coming from OpenHFT" table maps it. */
class ComingFromOpenHftTest {

    @TempDir
    Path tmp;

    /** 1 package x 2 L3s x 2 cores x 2 threads = 8 CPUs. */
    private Reservations eightCpus() throws IOException {
        MachineTree m = MachineTree.build(tmp.resolve("tree"), 0, 1, 2, 2, 2);
        Topology t = Topology.read(m.root());
        return Reservations.of(tmp.resolve("locks"), t, t.online());
    }

    @Test
    void aStrategyOfOnesOwnIsALambda() throws IOException {
        Reservations r = eightCpus();
        CpuStrategy odd = (topology, anchor, cpu) -> cpu % 2 == 1;
        try (Reservation first = r.reserveCpu(2); Reservation next = r.reserveNear(first, odd)) {
            assertEquals(1, next.cpu() % 2, next.toString());
        }
        CpuStrategy none = (topology, anchor, cpu) -> false;
        try (Reservation first = r.reserveCpu(2)) {
            ReservationException e = assertThrows(ReservationException.class, () -> r.reserveNear(first, none));
            assertTrue(e.getMessage().contains("accepts for CPU 2"), e.getMessage());
        }
    }

    @Test
    void strategiesAndReservationsComeFromStrings() throws IOException {
        assertArrayEquals(new CpuStrategy[]{CpuStrategy.SAME_CORE, CpuStrategy.SAME_L3, CpuStrategy.ANY}, CpuStrategy.list("smt, same-l3,ANY"));
        assertThrows(IllegalArgumentException.class, () -> CpuStrategy.list("smt,,any"));
        Reservations r = eightCpus();
        try (Reservation last = r.reserve("last"); Reservation before = r.reserve("last-1"); Reservation three = r.reserve("3");
             Reservation core = r.reserve("core")) {
            assertEquals(7, last.cpu());
            assertEquals(6, before.cpu());
            assertEquals(3, three.cpu());
            assertTrue(core.wholeCore());
        }
        assertTrue(assertThrows(ReservationException.class, () -> r.reserve("last-8")).getMessage().contains("only 8 usable CPUs"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> r.reserve("first")).getMessage().contains("any, core, N (a CPU), last, last-N"));
        // the selectors of --cpus (CpuSelector): the most preferred free CPU among them
        try (Reservation l3 = r.reserve("l3:1")) {
            assertTrue(CpuSelector.select("l3:1", r.topology()).test(l3.cpu()), l3.toString());
            assertTrue(!CpuSelector.select("l3:0", r.topology()).test(l3.cpu()), l3.toString());
        }
    }

    @Test
    void thePropertyNarrowsTheCpusReservationsHandOut() throws IOException {
        Topology t = eightCpus().topology();
        CpuMask usable = CpuMask.parseList("0-7", 8);
        System.setProperty(Reservations.CPUS_PROPERTY, "2-3,9");
        try {
            assertEquals("2-3", Reservations.configuredCpus(t, usable).toList());
            System.setProperty(Reservations.CPUS_PROPERTY, "two");
            assertTrue(assertThrows(ReservationException.class, () -> Reservations.configuredCpus(t, usable)).getMessage()
                    .startsWith("corescope.reservations.cpus=two: "));
        } finally {
            System.clearProperty(Reservations.CPUS_PROPERTY);
        }
        assertEquals(usable, Reservations.configuredCpus(t, usable));
    }

    @Test
    void theNativeThreadIdIsTheKernelsTid() throws Exception {
        // /proc/thread-self is /proc/PID/task/TID of the calling thread
        String self = Files.readSymbolicLink(Path.of("/proc/thread-self")).toString();
        int tid = Integer.parseInt(self.substring(self.lastIndexOf('/') + 1));
        assertEquals(tid, ThreadAffinity.nativeThreadId());
        AtomicInteger other = new AtomicInteger();
        Thread t = new Thread(() -> other.set(ThreadAffinity.nativeThreadId()));
        t.start();
        t.join();
        assertTrue(other.get() > 0 && other.get() != tid, other + " vs " + tid);
        Thread v = Thread.ofVirtual().unstarted(() -> assertThrows(UnsupportedOperationException.class, ThreadAffinity::nativeThreadId));
        v.start();
        v.join();
    }

    @Test
    void theFactoryMakesNamedDaemonThreads() throws InterruptedException {
        Topology t = Topology.live();
        Reservations r = Reservations.of(tmp.resolve("live-locks"), t, t.usable());
        PinningThreadFactory f = new PinningThreadFactory("feed", r, CpuStrategy.ANY);
        Thread plain = f.newThread(() -> { });
        assertEquals("feed-1", plain.getName());
        assertTrue(!plain.isDaemon());
        plain.start();
        Thread daemon = f.daemon(true).newThread(() -> { });
        assertEquals("feed-1", daemon.getName());
        assertTrue(daemon.isDaemon());
        daemon.start();
        plain.join();
        daemon.join();
    }
}
