package dev.corescope.affinity;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.topology.Placement;
import dev.corescope.topology.Topology;

import java.util.Locale;

/**
 * What a CPU should share with another one (the <em>anchor</em>, usually a CPU reserved
 * before), as in OpenHFT's {@code AffinityStrategies}. Relations come from the topology:
 * cores ({@code core_cpus}), last-level caches ({@code shared_cpu_list} of the highest cache
 * level, the L3 on most machines) and packages ({@code physical_package_id}).
 *
 * <p>A strategy never matches the anchor itself. Without an anchor every strategy accepts
 * every CPU. Strategies are tried in the order given, so {@code SAME_CORE, SAME_L3, ANY}
 * reads "a sibling if one is free, else a core on the same L3, else anything".
 */
public enum CpuStrategy {
    /** An SMT sibling: another hardware thread of the anchor's core (L1 and L2 shared). */
    SAME_CORE("same-core"),
    /** Another core on the anchor's last-level cache (L3). */
    SAME_L3("same-l3"),
    /** A CPU on another last-level cache than the anchor's, in any package. */
    DIFFERENT_L3("other-l3"),
    /** A CPU in another package (socket) than the anchor's. */
    DIFFERENT_PACKAGE("other-package"),
    /** Any other CPU. */
    ANY("any");

    private final String placement;

    CpuStrategy(String placement) {
        this.placement = placement;
    }

    /**
     * The matching name of {@code topology.Placements}: a {@code Placement} key or {@code any}.
     *
     * @return {@code same-core}, {@code same-l3}, {@code other-l3}, {@code other-package} or {@code any}
     */
    public String placementName() {
        return placement;
    }

    /**
     * The strategy named {@code name}: a placement name ({@code same-core}, {@code same-l3},
     * {@code other-l3}, {@code other-package}, {@code any}, or an older one: {@code smt},
     * {@code cross-l3}, {@code cross-package}) or the constant's name in any case.
     *
     * @param name the name, e.g. {@code same-l3} or {@code SAME_L3}
     * @return the strategy
     * @throws IllegalArgumentException naming the accepted names
     */
    public static CpuStrategy of(String name) {
        String placement = Placement.ofKey(name).map(Placement::key).orElse(name);
        for (CpuStrategy s : values()) {
            if (s.placement.equals(placement) || s.name().equalsIgnoreCase(name.replace('-', '_'))) return s;
        }
        throw new IllegalArgumentException("strategy " + name + ": not one of same-core, same-l3, other-l3, other-package, any");
    }

    /**
     * Whether two of the {@code usable} CPUs of {@code topology} are related as this strategy
     * asks, whoever holds them: whether {@code Reservations.reserveGroup(2, this)} could ever
     * succeed there. {@code SAME_CORE} on a machine without SMT is {@code false}.
     *
     * <pre>{@code
     * Topology t = Topology.live();
     * if (!CpuStrategy.SAME_CORE.possibleOn(t, t.usable())) System.out.println("no SMT siblings here");
     * }</pre>
     *
     * @param topology the machine
     * @param usable   the CPUs to choose among
     * @return whether some pair of them is so related
     * @since 0.2.0
     */
    public boolean possibleOn(Topology topology, CpuMask usable) {
        int[] cpus = usable.toArray();
        for (int a : cpus) {
            for (int b : cpus) {
                if (accepts(topology, a, b)) return true;
            }
        }
        return false;
    }

    /**
     * Whether {@code cpu} fits this strategy relative to {@code anchor} (negative: no anchor), from
     * {@link Topology#relation} and {@link Topology#where}
     * (O(1) each): the last-level cache is {@code where(cpu).llc()}, unknown ({@code -1}) never
     * counting as the same or as a different one.
     */
    boolean accepts(Topology t, int anchor, int cpu) {
        if (anchor < 0) return true;
        if (cpu == anchor) return false;
        return switch (this) {
            case SAME_CORE -> t.relation(anchor, cpu).orElse(null) == Placement.SAME_CORE;
            case SAME_L3 -> t.relation(anchor, cpu).orElse(null) != Placement.SAME_CORE && sameLlc(t, anchor, cpu);
            case DIFFERENT_L3 -> {
                int a = t.where(anchor).llc();
                int b = t.where(cpu).llc();
                yield a >= 0 && b >= 0 && a != b;
            }
            case DIFFERENT_PACKAGE -> t.relation(anchor, cpu).orElse(null) == Placement.OTHER_PACKAGE;
            case ANY -> true;
        };
    }

    private static boolean sameLlc(Topology t, int a, int b) {
        int x = t.where(a).llc();
        return x >= 0 && x == t.where(b).llc();
    }

    String describe(int anchor) {
        if (anchor < 0) return "any CPU";
        return switch (this) {
            case SAME_CORE -> "an SMT sibling of CPU " + anchor;
            case SAME_L3 -> "another core on CPU " + anchor + "'s last-level cache";
            case DIFFERENT_L3 -> "a CPU on another last-level cache than CPU " + anchor + "'s";
            case DIFFERENT_PACKAGE -> "a CPU in another package than CPU " + anchor + "'s";
            case ANY -> "any CPU but " + anchor;
        };
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
