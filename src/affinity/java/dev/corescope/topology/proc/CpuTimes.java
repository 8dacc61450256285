package dev.corescope.topology.proc;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.StringReader;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The per-CPU lines of {@code /proc/stat} ({@code cpu0 user nice system idle iowait irq softirq
 * steal guest guest_nice}, in clock ticks), for the steal time of each CPU over a window:
 * the time the hypervisor ran something else while this vCPU wanted to run, the busy time of each
 * CPU (what the quiet-CPU preference ranks by) and the machine's total ({@code cpu} line).
 *
 * <p>One rule for every reader: a {@code cpuN} line whose fields are not numbers makes the
 * whole file unreadable ({@link #read} records why on the reader and answers empty), so no
 * caller works from half a file.
 *
 * @param ticks per CPU, the ten fields in ticks
 * @param total the {@code cpu} line's ten fields; all 0 when the file has none
 */
public record CpuTimes(Map<Integer, long[]> ticks, long[] total) {

    /** The file, relative to a root. */
    public static final String FILE = "proc/stat";

    private static final int FIELDS = 10;
    private static final int IDLE = 3;
    private static final int IOWAIT = 4;
    private static final int STEAL = 7;

    /** A snapshot; the map and arrays are copied. */
    public CpuTimes {
        ticks = Collections.unmodifiableMap(new LinkedHashMap<>(ticks));
        total = total.clone();
    }

    /** {@return {@code proc/stat} under the reader's root; empty when absent, unreadable or malformed (recorded on {@code r})} */
    public static Optional<CpuTimes> read(SysfsReader r) {
        Optional<List<String>> lines = r.readLines(FILE);
        if (lines.isEmpty()) return Optional.empty();
        try {
            return Optional.of(parse(lines.get()));
        } catch (IllegalArgumentException e) {
            r.problem(FILE, e.getMessage());
            return Optional.empty();
        }
    }

    /** {@return the snapshot of the file's lines, as {@link #parse(Reader)}} */
    public static CpuTimes parse(List<String> lines) {
        try {
            return parse(new StringReader(String.join("\n", lines)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@return per CPU, its busy ticks since boot: every field up to steal but idle and iowait (guest is inside user)} */
    public Map<Integer, Long> busyTicks() {
        Map<Integer, Long> out = new HashMap<>();
        ticks.forEach((cpu, t) -> {
            long sum = 0;
            for (int i = 0; i <= STEAL; i++) if (i != IDLE && i != IOWAIT) sum += t[i];
            out.put(cpu, sum);
        });
        return out;
    }

    /** {@return the machine's steal since {@code before}, in percent of all CPU time rounded to 0.01; empty when no tick passed} */
    public OptionalDouble totalStealPercentSince(CpuTimes before) {
        long sum = 0;
        for (int i = 0; i <= STEAL; i++) sum += total[i] - before.total[i];
        if (sum <= 0) return OptionalDouble.empty();
        return OptionalDouble.of(Math.round(10_000.0 * (total[STEAL] - before.total[STEAL]) / sum) / 100.0);
    }

    /** {@return the busy share of {@code cpu} since {@code before}, in percent; empty when the CPU is missing or no tick passed} */
    public OptionalDouble busyPercentSince(CpuTimes before, int cpu) {
        long[] a = before.ticks.get(cpu);
        long[] b = ticks.get(cpu);
        if (a == null || b == null) return OptionalDouble.empty();
        long sum = 0;
        for (int i = 0; i <= STEAL; i++) sum += b[i] - a[i];
        long idle = (b[IDLE] - a[IDLE]) + (b[IOWAIT] - a[IOWAIT]);
        if (sum <= 0) return OptionalDouble.empty();
        return OptionalDouble.of(100.0 * (sum - idle) / sum);
    }

    /**
     * Parses {@code /proc/stat}; lines other than {@code cpu} and {@code cpuN} are skipped, short lines padded with 0.
     *
     * @throws IllegalArgumentException when a field is not a number
     */
    public static CpuTimes parse(Reader in) throws IOException {
        Map<Integer, long[]> out = new LinkedHashMap<>();
        long[] total = new long[FIELDS];
        BufferedReader r = new BufferedReader(in);
        String line;
        while ((line = r.readLine()) != null) {
            boolean isTotal = line.startsWith("cpu ");
            if (!isTotal && (!line.startsWith("cpu") || line.length() < 4 || !Character.isDigit(line.charAt(3)))) continue;
            String[] f = line.trim().split("\\s+");
            int cpu;
            try {
                cpu = isTotal ? -1 : Integer.parseInt(f[0].substring(3));
            } catch (NumberFormatException e) {
                continue;
            }
            long[] t = isTotal ? total : new long[FIELDS];
            for (int i = 1; i < f.length && i <= t.length; i++) {
                try {
                    t[i - 1] = Long.parseLong(f[i]);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("/proc/stat: " + f[0] + ": field " + i + " is not a number: " + CounterTable.clip(f[i]));
                }
            }
            if (!isTotal) out.put(cpu, t);
        }
        return new CpuTimes(out, total);
    }

    /** {@return the steal of {@code cpu} since {@code before}, in percent of its time; empty when the CPU is missing or no tick passed} */
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
