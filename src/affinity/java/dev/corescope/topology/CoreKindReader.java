package dev.corescope.topology;

import dev.corescope.cpumask.CpuMask;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * Core kinds of hybrid and big.LITTLE machines: {@code sys/devices/cpu_core/cpus} and
 * {@code cpu_atom/cpus} (Intel hybrid), {@code cpuN/cpu_capacity} (arm64), else the cpufreq
 * base and maximum frequencies, which tell kinds apart where nothing else does.
 */
final class CoreKindReader extends ReadingPart {

    private static final String CPU = TopologyReader.CPU;


    CoreKindReader(Reading x) {
        super(x);
    }

    /** The kinds of the online CPUs, by first CPU; empty where the tree does not tell kinds apart. */
    List<CoreKind> read() {
        Optional<CpuMask> pCores = r.readList("sys/devices/cpu_core/cpus", nbits).map(m -> m.and(online));
        Optional<CpuMask> eCores = r.readList("sys/devices/cpu_atom/cpus", nbits).map(m -> m.and(online));

        // equals and hashCode by hand: a record's generated ones bootstrap through invokedynamic, a start-up cost
        record Key(String hybrid, int capacity, int baseMHz, int maxMHz) {
            @Override
            public boolean equals(Object o) {
                return o instanceof Key k && Objects.equals(k.hybrid, hybrid) && k.capacity == capacity
                        && k.baseMHz == baseMHz && k.maxMHz == maxMHz;
            }

            @Override
            public int hashCode() {
                return ((Objects.hashCode(hybrid) * 31 + capacity) * 31 + baseMHz) * 31 + maxMHz;
            }
        }
        Map<Key, CpuMask.Builder> groups = new LinkedHashMap<>();
        boolean byFrequency = false;
        for (int cpu : online.toArray()) {
            String hybrid = pCores.isPresent() && pCores.get().test(cpu) ? "core"
                    : eCores.isPresent() && eCores.get().test(cpu) ? "atom" : null;
            int capacity = r.readInt(CPU + "/cpu" + cpu + "/cpu_capacity").orElse(-1);
            if (hybrid != null || capacity >= 0) groups.computeIfAbsent(new Key(hybrid, capacity, -1, -1), k -> CpuMask.builder(nbits)).set(cpu);
        }
        Map<Key, Integer> maxOf = new LinkedHashMap<>();
        if (groups.isEmpty()) {
            byFrequency = true;
            for (int cpu : online.toArray()) {
                String f = CPU + "/cpu" + cpu + "/cpufreq/";
                if (!r.isDirectory(f)) continue;
                OptionalLong base = r.readLong(f + "base_frequency");
                OptionalLong max = r.readLong(f + "cpuinfo_max_freq");
                if (base.isEmpty() && max.isEmpty()) continue;
                int baseMHz = base.isPresent() ? (int) (base.getAsLong() / 1000) : -1;
                int maxMHz = max.isPresent() ? (int) (max.getAsLong() / 1000) : -1;
                // base_frequency tells hybrid kinds apart; the highest max frequency alone would also
                // split out the favoured cores (Turbo Boost Max 3.0) of one kind, so it is only the key without a base
                Key k = new Key(null, -1, baseMHz, baseMHz >= 0 ? -1 : maxMHz);
                groups.computeIfAbsent(k, x -> CpuMask.builder(nbits)).set(cpu);
                maxOf.merge(k, maxMHz, Math::max);
            }
        }
        List<CoreKind> kinds = new ArrayList<>();
        for (Map.Entry<Key, CpuMask.Builder> e : groups.entrySet()) {
            Key k = e.getKey();
            kinds.add(new CoreKind(e.getValue().build(),
                    k.capacity >= 0 ? OptionalInt.of(k.capacity) : OptionalInt.empty(),
                    Optional.ofNullable(k.hybrid),
                    maxOf.getOrDefault(k, -1) >= 0 ? OptionalInt.of(maxOf.get(k)) : OptionalInt.empty(),
                    k.baseMHz >= 0 ? OptionalInt.of(k.baseMHz) : OptionalInt.empty()));
        }
        kinds.sort((x, y) -> Integer.compare(x.cpus().first(), y.cpus().first()));
        if (byFrequency && kinds.size() > 1) {
            warnings.add("core kinds told apart by cpufreq frequencies (no cpu_capacity or cpu_core/cpu_atom in sysfs)");
        }
        return kinds;
    }
}
