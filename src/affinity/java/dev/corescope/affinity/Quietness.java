package dev.corescope.affinity;

import dev.corescope.topology.proc.CpuTimes;
import dev.corescope.topology.proc.SysfsReader;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;

/**
 * How much each CPU was disturbed over a short window, from two readings of {@code /proc/stat}
 * (busy ticks: all but idle and iowait) and {@code /proc/interrupts}: least busy, then fewest
 * interrupts, is quietest ({@link CpuPreference#QUIET}). A CPU missing from the files counts as
 * undisturbed; with no files at all every CPU ties and the kernel hints decide.
 */
final class Quietness {

    /** The default window: long enough for a few scheduler ticks (USER_HZ is 100), short enough for a start-up. */
    static final Duration WINDOW = Duration.ofMillis(200);

    /** One reading: busy ticks and interrupts per CPU, both counted since boot. */
    record Snapshot(Map<Integer, Long> busyTicks, Map<Integer, Long> interrupts) {
    }

    private final Map<Integer, Long> busy;
    private final Map<Integer, Long> irqs;
    private Quietness(Map<Integer, Long> busy, Map<Integer, Long> irqs) {
        this.busy = busy;
        this.irqs = irqs;
    }

    /** Reads {@code <root>/proc/stat} and {@code <root>/proc/interrupts}; what cannot be read is empty. */
    static Snapshot read(Path root) {
        SysfsReader r = new SysfsReader(root);
        return new Snapshot(CpuTimes.read(r).map(CpuTimes::busyTicks).orElse(Map.of()), CpuOrder.readInterrupts(r));
    }

    /** Reads, waits {@code window}, reads again. */
    static Quietness measure(Path root, Duration window) {
        Snapshot before = read(root);
        try {
            Thread.sleep(window);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ReservationException("interrupted while measuring which CPUs are quiet", e);
        }
        return between(before, read(root));
    }

    /** The disturbance from {@code before} to {@code after}. */
    static Quietness between(Snapshot before, Snapshot after) {
        return new Quietness(delta(before.busyTicks(), after.busyTicks()), delta(before.interrupts(), after.interrupts()));
    }

    /** Quietest first: least busy time, then fewest interrupts. */
    Comparator<Integer> comparator() {
        return Comparator.comparingLong((Integer c) -> busy.getOrDefault(c, 0L)).thenComparingLong(c -> irqs.getOrDefault(c, 0L));
    }

    private static Map<Integer, Long> delta(Map<Integer, Long> a, Map<Integer, Long> b) {
        Map<Integer, Long> out = new HashMap<>();
        b.forEach((cpu, v) -> out.put(cpu, Math.max(0, v - a.getOrDefault(cpu, v))));
        return out;
    }
}
