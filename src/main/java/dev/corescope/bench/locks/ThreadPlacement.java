package dev.corescope.bench.locks;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * CPUs for the contended mode, one thread on each: a pair from the topology (SMT siblings, two
 * cores sharing an L3, two packages) or the {@code --cpus} list.
 *
 * @param name        {@code same-core}, {@code same-l3}, {@code other-l3}, {@code other-package},
 *                    {@code any}, or {@code cpus} for a user's list
 * @param cpus        one CPU per thread
 * @param description which CPUs and what they share, for the report
 */
record ThreadPlacement(String name, int[] cpus, String description) {

    ThreadPlacement {
        cpus = cpus.clone();
    }

    @Override
    public int[] cpus() {
        return cpus.clone();
    }

    int threads() {
        return cpus.length;
    }

    /** {@code 0,1}: the form {@link ContendedLockBenchmark#cpus} takes. */
    String cpuList() {
        return Arrays.stream(cpus).mapToObj(Integer::toString).collect(Collectors.joining(","));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ThreadPlacement p && p.name.equals(name) && Arrays.equals(p.cpus, cpus) && p.description.equals(description);
    }

    @Override
    public int hashCode() {
        return name.hashCode() * 31 + Arrays.hashCode(cpus);
    }

    @Override
    public String toString() {
        return name + " (CPUs " + cpuList() + ")";
    }
}
