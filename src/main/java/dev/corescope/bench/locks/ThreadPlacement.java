package dev.corescope.bench.locks;

import java.util.List;
import java.util.stream.Collectors;

/**
 * CPUs for the contended mode, one thread on each: a pair from the topology (SMT siblings, two
 * cores sharing an L3, two packages) or the {@code --cpus} list.
 *
 * @param name          a {@code Placement} key, {@code any}, or {@code cpus} for a user's list
 * @param cpus          one CPU per thread
 * @param topologyError why the topology could not be read, for {@code any} taken without it; otherwise null
 */
record ThreadPlacement(String name, List<Integer> cpus, String topologyError) {

    ThreadPlacement {
        cpus = List.copyOf(cpus);
    }

    int threads() {
        return cpus.size();
    }

    /** {@code 0,1}: the form {@link ContendedLockBenchmark#cpus} takes. */
    String cpuList() {
        return cpus.stream().map(String::valueOf).collect(Collectors.joining(","));
    }

    @Override
    public String toString() {
        return name + " (CPUs " + cpuList() + ")";
    }
}
