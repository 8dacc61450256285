package dev.corescope.topology.proc;

import dev.corescope.cpumask.CpuMask;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * What cpufreq says of the given CPUs: the scaling governors in use and each CPU's current
 * frequency ({@code sys/devices/system/cpu/cpuN/cpufreq/scaling_governor} and
 * {@code scaling_cur_freq}). A CPU without cpufreq, or whose driver prints no number
 * ({@code <unknown>}), adds nothing.
 *
 * @param governors  the distinct governors, sorted by name (empty without cpufreq)
 * @param currentMHz the current frequency of each CPU that has one, in MHz, in CPU order
 */
public record CpuFreq(List<String> governors, List<Double> currentMHz) {

    /** Where {@link #currentMHz} comes from, for a person: {@code cpufreq scaling_cur_freq}. */
    public static final String SOURCE = "cpufreq scaling_cur_freq";

    /** The readings; the lists are copied. */
    public CpuFreq {
        governors = List.copyOf(governors);
        currentMHz = List.copyOf(currentMHz);
    }

    /** {@return the governors and frequencies of {@code cpus} read through {@code r}; empty lists without cpufreq} */
    public static CpuFreq read(SysfsReader r, CpuMask cpus) {
        TreeSet<String> governors = new TreeSet<>();
        List<Double> mhz = new ArrayList<>();
        for (int cpu : cpus == null ? new int[0] : cpus.toArray()) {
            String dir = "sys/devices/system/cpu/cpu" + cpu + "/cpufreq/";
            r.read(dir + "scaling_governor").ifPresent(g -> governors.add(g.strip()));
            r.read(dir + "scaling_cur_freq").ifPresent(cur -> {
                try {
                    mhz.add(Long.parseLong(cur.strip()) / 1000.0);
                } catch (NumberFormatException ignored) {
                    // a driver that prints "<unknown>" has no current frequency
                }
            });
        }
        return new CpuFreq(List.copyOf(governors), mhz);
    }
}
