package dev.corescope.topology;

/**
 * Two CPUs chosen for what they share: {@code name} is one of {@link Placements#NAMES}
 * ({@code same-core}, {@code same-l3}, {@code other-l3}, {@code other-package}, {@code any}); how the
 * two relate exactly is {@link Topology#relation(int, int)}.
 *
 * @param name        the kind, one of {@link Placements#NAMES}
 * @param from        the first CPU (the lower number for a pair found by {@link Placements})
 * @param to          the second CPU
 * @param description for people, e.g. {@code CPU 0 and CPU 1: different cores, same L3 (32 MiB)}
 */
public record CpuPair(String name, int from, int to, String description) {

    /** {@return the two CPUs, as a benchmark pins them (and hands them to a JMH fork): a new array {@code {from, to}}} */
    public int[] cpus() {
        return new int[] {from, to};
    }
}
