package dev.corescope.bench.locks;

import dev.corescope.cpumask.CpuMask;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Which CPUs the contended mode runs on: the {@code --cpus} list (one thread per CPU, at most
 * {@link ContendedLockBenchmark#MAX_THREADS}), or pairs from the machine's topology.
 */
final class Placements {

    private Placements() {
    }

    /**
     * The placements to run, or an empty list when fewer than two CPUs are usable
     * ({@link #skipReason} says why).
     */
    static List<Placement> choose(Optional<CpuMask> user, CpuMask allowed) {
        if (user.isPresent()) {
            CpuMask m = user.get();
            if (m.weight() < 2) return List.of();
            int[] cpus = m.stream().limit(ContendedLockBenchmark.MAX_THREADS).toArray();
            return List.of(new Placement("cpus", cpus, "the --cpus list" + (m.weight() > cpus.length
                    ? " (its first " + cpus.length + " CPUs: one counter per thread, at most " + ContendedLockBenchmark.MAX_THREADS + ")" : "")));
        }
        if (allowed.weight() < 2) return List.of();
        return fromTopology(allowed);
    }

    /** Why {@link #choose} found nothing to run. */
    static String skipReason(Optional<CpuMask> user, CpuMask allowed) {
        if (user.isPresent()) {
            return "contended mode skipped: --cpus " + user.get().toList() + " names one CPU, and it needs two";
        }
        return "contended mode skipped: only CPU " + allowed.toList() + " is allowed, and it needs two";
    }

    /**
     * Pairs from the topology: SMT siblings, two cores sharing an L3, two packages, where they
     * exist. Until {@code dev.corescope.topology} reaches main this is {@code any}: the first two
     * usable CPUs.
     */
    static List<Placement> fromTopology(CpuMask usable) {
        List<Placement> out = new ArrayList<>();
        int a = usable.first();
        int b = usable.next(a);
        out.add(new Placement("any", new int[]{a, b}, "the first two allowed CPUs (topology placements not yet available)"));
        return out;
    }
}
