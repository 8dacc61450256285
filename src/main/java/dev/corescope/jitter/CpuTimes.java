package dev.corescope.jitter;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * The per-CPU lines of {@code /proc/stat} ({@code cpu0 user nice system idle iowait irq softirq
 * steal guest guest_nice}, in clock ticks), for the steal time of each CPU over a window:
 * the time the hypervisor ran something else while this vCPU wanted to run.
 */
public record CpuTimes(Map<Integer, long[]> ticks) {

    private static final int STEAL = 7;

    public CpuTimes {
        ticks = Collections.unmodifiableMap(new LinkedHashMap<>(ticks));
    }

    /** Parses {@code /proc/stat}; lines other than {@code cpuN} are skipped, short lines padded with 0. */
    public static CpuTimes parse(Reader in) throws IOException {
        Map<Integer, long[]> out = new LinkedHashMap<>();
        BufferedReader r = new BufferedReader(in);
        String line;
        while ((line = r.readLine()) != null) {
            if (!line.startsWith("cpu") || line.length() < 4 || !Character.isDigit(line.charAt(3))) continue;
            String[] f = line.trim().split("\\s+");
            int cpu;
            try {
                cpu = Integer.parseInt(f[0].substring(3));
            } catch (NumberFormatException e) {
                continue;
            }
            long[] t = new long[10];
            for (int i = 1; i < f.length && i <= t.length; i++) {
                try {
                    t[i - 1] = Long.parseLong(f[i]);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("/proc/stat: " + f[0] + ": field " + i + " is not a number: " + CounterTable.clip(f[i]));
                }
            }
            out.put(cpu, t);
        }
        return new CpuTimes(out);
    }

    /**
     * Steal as a percentage of the CPU's time between {@code before} and this snapshot
     * (guest time is already inside user time and is not counted twice); empty when the CPU
     * is missing from either or no tick passed.
     */
    public OptionalDouble stealPercentSince(CpuTimes before, int cpu) {
        long[] a = before.ticks.get(cpu);
        long[] b = ticks.get(cpu);
        if (a == null || b == null) return OptionalDouble.empty();
        long total = 0;
        for (int i = 0; i <= STEAL; i++) total += Math.max(0, b[i] - a[i]);
        if (total == 0) return OptionalDouble.empty();
        return OptionalDouble.of(100.0 * Math.max(0, b[STEAL] - a[STEAL]) / total);
    }
}
