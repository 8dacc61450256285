package dev.corescope.bench.locks;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.topology.CpuPair;
import dev.corescope.topology.Placements;
import dev.corescope.topology.Topology;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Which CPUs the contended mode runs on: the {@code --cpus} list (one thread per CPU, at most
 * {@link ContendedLockBenchmark#MAX_THREADS}), or one pair per kind the topology offers (SMT
 * siblings, same L3, across L3s, across packages; {@code any} only when it offers none of those).
 */
final class ContendedPlacements {

    private ContendedPlacements() {
    }

    /**
     * The placements to run, or an empty list when fewer than two CPUs are usable
     * ({@link #skipReason} says why).
     */
    static List<ThreadPlacement> choose(Optional<CpuMask> user, CpuMask allowed, Supplier<Topology> topology) {
        if (user.isPresent()) {
            CpuMask m = user.get();
            if (m.weight() < 2) return List.of();
            return List.of(new ThreadPlacement("cpus", m.stream().limit(ContendedLockBenchmark.MAX_THREADS).boxed().toList(), null));
        }
        if (allowed.weight() < 2) return List.of();
        Topology t;
        try {
            t = topology.get();
        } catch (RuntimeException e) {
            int a = allowed.first();
            int b = allowed.next(a);
            return List.of(new ThreadPlacement("any", List.of(a, b), e.getMessage()));
        }
        return fromTopology(t, allowed);
    }

    /** One pair per kind {@link Placements#of} finds; {@code any} only when it finds no other kind. */
    static List<ThreadPlacement> fromTopology(Topology t, CpuMask usable) {
        return fromPairs(Placements.of(t, usable));
    }

    static List<ThreadPlacement> fromPairs(List<CpuPair> found) {
        List<CpuPair> kinds = found.stream().filter(p -> !p.name().equals("any")).toList();
        List<ThreadPlacement> out = new ArrayList<>();
        for (CpuPair p : kinds.isEmpty() ? found : kinds) {
            out.add(new ThreadPlacement(p.name(), List.of(p.from(), p.to()), null));
        }
        return out;
    }

    /** Why {@link #choose} found nothing to run. */
    static LocksModel.ContendedSkip skipReason(Optional<CpuMask> user, CpuMask allowed) {
        if (user.isPresent()) return new LocksModel.ContendedSkip(LocksModel.ContendedSkip.Why.ONE_CPU_GIVEN, user.get().toList());
        return new LocksModel.ContendedSkip(allowed.weight() < 2 ? LocksModel.ContendedSkip.Why.ONE_CPU_ALLOWED
                : LocksModel.ContendedSkip.Why.FEW_ONLINE, allowed.toList());
    }
}
