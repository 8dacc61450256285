package dev.corescope.bench.c2c;

import dev.corescope.topology.CpuPlace;
import dev.corescope.topology.Topology;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Where a CPU sits, for the matrix and heatmap labels: its core, its last-level cache and its
 * package, from the {@link Topology}. What the tree does not know is left out, not guessed.
 */
public final class CpuLabels {

    private CpuLabels() {
    }

    /**
     * One CPU's place.
     *
     * @param cache the last-level cache as {@code L3#k}, k counting that level's instances from 0
     */
    public record Place(int cpu, Optional<Integer> core, Optional<String> cache, Optional<Integer> pkg) {

        /** {@code cpu3 c1 L3#0 p0}: short enough for an axis. */
        public String shortLabel() {
            StringBuilder b = new StringBuilder("cpu").append(cpu);
            core.ifPresent(c -> b.append(" c").append(c));
            cache.ifPresent(c -> b.append(' ').append(c));
            pkg.ifPresent(p -> b.append(" p").append(p));
            return b.toString();
        }

        /** {@code CPU 3: core 1, L3 #0, package 0}. */
        public String longLabel() {
            StringBuilder b = new StringBuilder("CPU ").append(cpu);
            String sep = ": ";
            if (core.isPresent()) {
                b.append(sep).append("core ").append(core.get());
                sep = ", ";
            }
            if (cache.isPresent()) {
                b.append(sep).append(cache.get().replace("#", " #"));
                sep = ", ";
            }
            if (pkg.isPresent()) b.append(sep).append("package ").append(pkg.get());
            return b.toString();
        }
    }

    /** {@code cpu}'s place from {@link Topology#where(int)} (O(1)). */
    public static Place of(Topology t, int cpu) {
        CpuPlace p = t.where(cpu);
        Optional<String> cache = p.llc() < 0 ? Optional.empty()
                : Optional.of(t.lastLevelCaches().get(p.llc()).name() + "#" + p.llc());
        return new Place(cpu, known(p.coreId()), cache, known(p.packageId()));
    }

    private static Optional<Integer> known(int id) {
        return id < 0 ? Optional.empty() : Optional.of(id);
    }

    public static List<Place> of(Topology t, int[] cpus) {
        return Arrays.stream(cpus).mapToObj(c -> of(t, c)).toList();
    }
}
