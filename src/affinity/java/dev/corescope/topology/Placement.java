package dev.corescope.topology;

import java.util.Locale;
import java.util.Optional;

/**
 * How two different CPUs relate: the innermost thing they share, so that every pair has
 * exactly one. From {@link Topology#relation(int, int)}; a level the tree does not describe
 * (no caches, no NUMA nodes) is skipped, never guessed.
 *
 * <p>Each value has one key ({@link #key()}, {@code same-l3}: in results files, the command
 * line, Prometheus labels and NFD keys) and one phrase ({@link #words()}, {@code same L3}: in
 * tables and on the page). {@link #ofKey} also reads the spellings of older versions
 * ({@code smt}, {@code cross-l3}, {@code cross-package}, {@code same_l3}).
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
    private final String key;

    Placement(String words) {
        this.words = words;
        this.key = name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** {@return the placement in words, for tables and labels: e.g. {@code same L3}} */
    public String words() {
        return words;
    }

    /** {@return the placement's one key, for files, options and labels: e.g. {@code same-l3}} */
    public String key() {
        return key;
    }

    /**
     * The placement {@code key} names: a {@link #key()}, with {@code _} for {@code -} in any
     * case, or an older spelling ({@code smt}, {@code cross-l3}, {@code cross-package}).
     *
     * @param key the key
     * @return the placement, or empty when {@code key} names none
     */
    public static Optional<Placement> ofKey(String key) {
        String k = key.strip().toLowerCase(Locale.ROOT).replace('_', '-');
        k = switch (k) {
            case "smt" -> "same-core";
            case "cross-l3" -> "other-l3";
            case "cross-package" -> "other-package";
            default -> k;
        };
        for (Placement p : values()) if (p.key.equals(k)) return Optional.of(p);
        return Optional.empty();
    }
}
