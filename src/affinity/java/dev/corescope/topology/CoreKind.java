package dev.corescope.topology;

import dev.corescope.cpumask.CpuMask;

import java.util.Optional;
import java.util.OptionalInt;

/**
 * One kind of core on a machine whose cores are not all alike (Intel hybrid P- and E-cores,
 * Arm big.LITTLE), or the one kind of a uniform machine when sysfs says so.
 *
 * <p>Where it comes from, in order: {@code /sys/devices/cpu_core/cpus} and
 * {@code /sys/devices/cpu_atom/cpus} (Intel hybrid PMUs, {@code hybridType} "core"/"atom");
 * else {@code cpuN/cpu_capacity} (the scheduler's capacity, 1024 for the biggest core);
 * else cpufreq's {@code base_frequency} or {@code cpuinfo_max_freq}, as hwloc does.
 *
 * @param cpus        the online CPUs of this kind
 * @param capacity    {@code cpu_capacity}, when the kernel exports it
 * @param hybridType  {@code core} or {@code atom} on Intel hybrid machines
 * @param maxFreqMHz  {@code cpuinfo_max_freq} of these CPUs, when all agree
 * @param baseFreqMHz {@code base_frequency} of these CPUs (intel_pstate), when all agree
 */
public record CoreKind(CpuMask cpus, OptionalInt capacity, Optional<String> hybridType,
                       OptionalInt maxFreqMHz, OptionalInt baseFreqMHz) {

    /** {@return what distinguishes this kind, for the text form: e.g. {@code capacity 1024} or {@code core (P-core), max 5000 MHz}} */
    public String describe() {
        StringBuilder sb = new StringBuilder();
        hybridType.ifPresent(t -> sb.append(t).append(t.equals("core") ? " (P-core)" : t.equals("atom") ? " (E-core)" : ""));
        if (capacity.isPresent()) append(sb, "capacity " + capacity.getAsInt());
        if (baseFreqMHz.isPresent()) append(sb, "base " + baseFreqMHz.getAsInt() + " MHz");
        if (maxFreqMHz.isPresent()) append(sb, "max " + maxFreqMHz.getAsInt() + " MHz");
        return sb.toString();
    }

    private static void append(StringBuilder sb, String s) {
        if (!sb.isEmpty()) sb.append(", ");
        sb.append(s);
    }
}
