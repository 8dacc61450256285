package dev.corescope.topology;

/**
 * How two different CPUs relate: the innermost thing they share, so that every pair has
 * exactly one. From {@link Topology#relation(int, int)}; a level the tree does not describe
 * (no caches, no NUMA nodes) is skipped, never guessed.
 */
public enum Placement {
    /** SMT siblings: two PUs of one core. */
    SAME_CORE("same core"),
    /** Different cores sharing an L2 (a cluster, or an L2 shared by a module). */
    SAME_L2("same L2"),
    /** Different L2s sharing an L3 (or the last-level cache where there is no L3). */
    SAME_L3("same L3"),
    /** The same package and NUMA node, different last-level caches (AMD CCXs, Arm clusters). */
    OTHER_L3("other L3"),
    /** The same package, different NUMA nodes (sub-NUMA clustering, NPS2/NPS4). */
    OTHER_NODE("other NUMA node"),
    /** Different packages (sockets). */
    OTHER_PACKAGE("other package");

    private final String words;

    Placement(String words) {
        this.words = words;
    }

    /**
     * The placement in words, for tables and labels.
     *
     * @return e.g. {@code same L3}
     */
    public String words() {
        return words;
    }

    /**
     * The pair kind of {@link Placements#NAMES} this placement counts as.
     *
     * @return {@code smt}, {@code same-l3}, {@code cross-l3} or {@code cross-package}
     */
    public String pairKind() {
        return switch (this) {
            case SAME_CORE -> "smt";
            case SAME_L2, SAME_L3 -> "same-l3";
            case OTHER_L3, OTHER_NODE -> "cross-l3";
            case OTHER_PACKAGE -> "cross-package";
        };
    }
}
