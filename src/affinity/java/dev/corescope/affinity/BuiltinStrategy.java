package dev.corescope.affinity;

import dev.corescope.topology.Placement;
import dev.corescope.topology.Topology;

import java.util.Locale;

/**
 * The built-in {@link CpuStrategy} constants (documented there). Relations come from the topology: cores
 * ({@code core_cpus}), last-level caches ({@code shared_cpu_list} of the highest cache level,
 * the L3 on most machines) and packages ({@code physical_package_id}).
 */
enum BuiltinStrategy implements CpuStrategy {
    SAME_CORE(Placement.SAME_CORE.key()),
    SAME_L3(Placement.SAME_L3.key()),
    OTHER_L3(Placement.OTHER_L3.key()),
    OTHER_PACKAGE(Placement.OTHER_PACKAGE.key()),
    ANY("any");

    private final String placement;

    BuiltinStrategy(String placement) {
        this.placement = placement;
    }

    @Override
    public String placementName() {
        return placement;
    }

    /**
     * From {@link Topology#relation} and {@link Topology#where}
     * (O(1) each): the last-level cache is {@code where(cpu).llc()}, unknown ({@code -1}) never
     * counting as the same or as a different one.
     */
    @Override
    public boolean accepts(Topology t, int anchor, int cpu) {
        if (anchor < 0) return true;
        if (cpu == anchor) return false;
        return switch (this) {
            case SAME_CORE -> t.relation(anchor, cpu).orElse(null) == Placement.SAME_CORE;
            case SAME_L3 -> t.relation(anchor, cpu).orElse(null) != Placement.SAME_CORE && knownLlcs(t, anchor, cpu)
                    && t.where(anchor).llc() == t.where(cpu).llc();
            case OTHER_L3 -> knownLlcs(t, anchor, cpu) && t.where(anchor).llc() != t.where(cpu).llc();
            case OTHER_PACKAGE -> t.relation(anchor, cpu).orElse(null) == Placement.OTHER_PACKAGE;
            case ANY -> true;
        };
    }

    private static boolean knownLlcs(Topology t, int a, int b) {
        return t.where(a).llc() >= 0 && t.where(b).llc() >= 0;
    }

    @Override
    public String describe(int anchor) {
        if (anchor < 0) return "any CPU";
        return switch (this) {
            case SAME_CORE -> "an SMT sibling of CPU " + anchor;
            case SAME_L3 -> "another core on CPU " + anchor + "'s last-level cache";
            case OTHER_L3 -> "a CPU on another last-level cache than CPU " + anchor + "'s";
            case OTHER_PACKAGE -> "a CPU in another package than CPU " + anchor + "'s";
            case ANY -> "any CPU but " + anchor;
        };
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
