package dev.corescope.topology;

/**
 * Two CPUs chosen for what they share: {@code name} is one of {@link Placements#NAMES}
 * ({@code smt}, {@code same-l3}, {@code cross-l3}, {@code cross-package}, {@code any}).
 *
 * @param description for people, e.g. {@code CPU 0 and CPU 1: different cores, same L3 (32 MiB)}
 */
public record Placement(String name, int from, int to, String description) {
}
