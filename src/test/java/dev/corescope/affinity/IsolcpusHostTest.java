package dev.corescope.affinity;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.topology.Topology;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue #24 point 13 end to end, on a saved isolcpus host (src/test/resources/fixtures/isolcpus:
 * isolated 4-7, CPU 7 offline, the cgroup's cpuset 0-5), since no machine here boots with
 * {@code isolcpus=}: a JVM started on CPUs 0-3 never gets an isolated CPU from a reservation
 * over its start mask; over {@code ThreadAffinity.pinnable} it gets the isolated CPUs that are
 * online and allowed by the cgroup first (4, 5), and never 6 (outside the cpuset) or 7 (offline).
 */
class IsolcpusHostTest {

    private static final Path HOST = Path.of("src/test/resources/fixtures/isolcpus");
    private static final CpuMask START = CpuMask.parseList("0-3", 8);

    @TempDir
    Path tmp;

    @Test
    void theTreeIsAnIsolcpusHost() {
        Topology t = Topology.read(HOST);
        assertEquals("4-7", t.isolated().toList());
        assertEquals("0-6", t.online().toList());
        assertEquals("0-5", t.cgroupCpus().orElseThrow().toList());
    }

    @Test
    void pinnableIsTheStartMaskPlusTheIsolatedCpusTheCgroupAllows() {
        Topology t = Topology.read(HOST);
        assertEquals("0-5", ThreadAffinity.pinnable(t, START).toList());
        // a process already on an isolated CPU keeps it; nothing outside the tree is added
        assertEquals("0-5", ThreadAffinity.pinnable(t, CpuMask.parseList("0-4", 8)).toList());
        assertEquals("4-5", ThreadAffinity.pinnable(t, CpuMask.parseList("8", 9)).toList(), "a start-mask CPU the tree has not online is not usable");
    }

    @Test
    void reservationsOverTheStartMaskNeverOfferAnIsolatedCpu() {
        Topology t = Topology.read(HOST);
        assertEquals(new TreeSet<>(List.of(0, 1, 2, 3)), reserveAll(Reservations.of(tmp.resolve("start"), t, START)));
    }

    @Test
    void reservationsOverPinnableOfferTheIsolatedCpusFirst() {
        Topology t = Topology.read(HOST);
        Reservations r = Reservations.of(tmp.resolve("pinnable"), t, ThreadAffinity.pinnable(t, START));
        try (Reservation first = r.reserveAny(); Reservation second = r.reserveAny()) {
            assertEquals(List.of(4, 5), List.of(first.cpu(), second.cpu()), "isolated CPUs first");
        }
        try (Reservation core = r.reserveWholeCore()) {
            assertEquals("4-5", core.cpus().toList(), "the isolated core first");
        }
        assertEquals(new TreeSet<>(List.of(0, 1, 2, 3, 4, 5)), reserveAll(r), "never 6 (outside the cpuset) or 7 (offline)");
        ReservationException e = assertThrows(ReservationException.class, () -> r.reserveCpu(6));
        assertTrue(e.getMessage().contains("6"), e.getMessage());
    }

    @Test
    void aSelectorIsAStrategy() {
        Topology t = Topology.read(HOST);
        CpuStrategy isolatedCores = CpuStrategy.of("core:2-3");
        assertTrue(isolatedCores.accepts(t, 0, 5));
        assertTrue(!isolatedCores.accepts(t, 0, 1), "CPU 1 is core 0's");
        Reservations r = Reservations.of(tmp.resolve("selector"), t, ThreadAffinity.pinnable(t, START));
        try (Reservation first = r.reserveCpu(0); Reservation next = r.reserve(first.cpu(), false, isolatedCores)) {
            assertEquals(4, next.cpu(), "the first CPU of cores 2-3 that is usable");
        }
        assertEquals("kind:performance", CpuStrategy.of("kind:performance").placementName());
    }

    /** Reserves until none is left, releases them all, and says which CPUs were given. */
    private static TreeSet<Integer> reserveAll(Reservations r) {
        List<Reservation> held = new ArrayList<>();
        try {
            while (true) held.add(r.reserveAny());
        } catch (ReservationException none) {
            // every usable CPU is held
        }
        TreeSet<Integer> cpus = new TreeSet<>();
        for (Reservation x : held) {
            cpus.add(x.cpu());
            x.close();
        }
        return cpus;
    }
}
