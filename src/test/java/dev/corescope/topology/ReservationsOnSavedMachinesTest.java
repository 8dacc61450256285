package dev.corescope.topology;

import dev.corescope.affinity.CpuStrategy;
import dev.corescope.affinity.Reservation;
import dev.corescope.affinity.ReservationException;
import dev.corescope.affinity.Reservations;
import dev.corescope.cpumask.CpuMask;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code affinity.Reservations} and its strategies on the saved trees of real machines (SMT,
 * hybrid, NUMA, Arm clusters, offline CPUs): what is reserved is what the tree says.
 */
class ReservationsOnSavedMachinesTest {

    @TempDir
    Path tmp;

    static List<String> names() {
        return Fixtures.names();
    }

    @ParameterizedTest
    @MethodSource("names")
    void wholeCoresAreTheTreesCoresEachOnce(String name) {
        Topology t = Topology.read(Fixtures.root(name));
        Reservations r = Reservations.of(tmp, t, t.online());
        Set<CpuMask> cores = new HashSet<>();
        for (TopologyNode c : t.cores()) cores.add(c.cpus());
        List<Reservation> held = new ArrayList<>();
        try {
            while (true) {
                Reservation c = r.reserveWholeCore();
                held.add(c);
                assertTrue(cores.remove(c.cpus().resize(t.nbits())), name + ": " + c + " is not a core of the tree, or was given twice");
            }
        } catch (ReservationException e) {
            assertTrue(cores.isEmpty(), name + ": cores never reserved " + cores + ": " + e.getMessage());
        } finally {
            held.forEach(Reservation::close);
        }
        assertEquals(t.cores().size(), held.size(), name);
    }

    @ParameterizedTest
    @MethodSource("names")
    void eachStrategyFindsWhatThePlacementsFind(String name) {
        Topology t = Topology.read(Fixtures.root(name));
        Reservations r = Reservations.of(tmp, t, t.online());
        for (CpuStrategy s : List.of(CpuStrategy.SAME_CORE, CpuStrategy.SAME_L3, CpuStrategy.OTHER_PACKAGE)) {
            // the anchor: the first CPU of a pair of that kind, if the machine has one
            Optional<CpuPair> pair = Placements.find(t, t.online(), s.placementName());
            if (pair.isEmpty()) continue;
            try (Reservation anchor = r.reserveCpu(pair.get().from());
                 Reservation chosen = r.reserveNear(anchor, s)) {
                int lo = Math.min(anchor.cpu(), chosen.cpu());
                int hi = Math.max(anchor.cpu(), chosen.cpu());
                assertTrue(Placements.all(t, t.online(), s.placementName()).stream().anyMatch(p -> p.from() == lo && p.to() == hi),
                        name + ": " + s + " from CPU " + anchor.cpu() + " gave CPU " + chosen.cpu());
            }
        }
        if (t.lastLevelCaches().size() > 1) {
            try (Reservation anchor = r.reserveCpu(t.online().first());
                 Reservation other = r.reserveNear(anchor, CpuStrategy.OTHER_L3)) {
                Cache a = t.lastLevelCaches().stream().filter(c -> c.cpus().test(anchor.cpu())).findFirst().orElseThrow();
                assertFalse(a.cpus().test(other.cpu()), name + ": CPU " + other.cpu() + " shares " + a.label() + " with " + anchor.cpu());
            }
        }
    }
}
