package dev.corescope.affinity;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.topology.Topology;
import dev.corescope.topology.proc.CounterTable;
import dev.corescope.topology.proc.SysfsReader;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Map;

/**
 * The order in which free CPUs are offered when a strategy leaves a choice: isolated
 * ({@code isolcpus}, {@code nohz_full}) first; with {@link CpuPreference#QUIET} then the least
 * disturbed ({@link Quietness}); then CPU 0 and the IRQ-heavy CPUs (more than twice the median
 * interrupt count) last; then by number. {@link CpuPreference} says why.
 */
final class CpuOrder {

    private final CpuMask preferred;
    private final Map<Integer, Long> interrupts;
    private final long irqHeavyAbove;
    /** Measured disturbance per CPU ({@link Quietness}); null for the kernel hints alone. */
    private final Quietness quietness;

    private CpuOrder(CpuMask preferred, Map<Integer, Long> interrupts, Quietness quietness) {
        this.preferred = preferred;
        this.interrupts = interrupts;
        this.quietness = quietness;
        long[] counts = interrupts.values().stream().mapToLong(Long::longValue).sorted().toArray();
        this.irqHeavyAbove = counts.length < 2 ? Long.MAX_VALUE : 2 * Math.max(1, counts[counts.length / 2]);
    }

    /** From the topology's {@code isolated} and {@code nohz_full} sets and {@code <root>/proc/interrupts}. */
    static CpuOrder of(Topology t, Path root) {
        return new CpuOrder(t.isolated().resize(t.nbits()).or(t.nohzFull().resize(t.nbits())),
                readInterrupts(new SysfsReader(root)), null);
    }

    /** This order with the measured {@code quietness} as its second key. */
    CpuOrder quiet(Quietness quietness) {
        return new CpuOrder(preferred, interrupts, quietness);
    }

    /** The measurement behind this order, or null for the kernel hints alone. */
    Quietness quietness() {
        return quietness;
    }

    boolean isolated(int cpu) {
        return cpu < preferred.nbits() && preferred.test(cpu);
    }

    boolean irqHeavy(int cpu) {
        Long n = interrupts.get(cpu);
        return n != null && n > irqHeavyAbove;
    }

    /** The CPUs of {@code candidates} in the order of the class comment. */
    int[] order(CpuMask candidates) {
        Integer[] cpus = candidates.stream().boxed().toArray(Integer[]::new);
        Comparator<Integer> byHints = Comparator.comparingInt((Integer c) -> c == 0 || irqHeavy(c) ? 1 : 0);
        Comparator<Integer> order = Comparator.comparingInt((Integer c) -> isolated(c) ? 0 : 1);
        if (quietness != null) order = order.thenComparing(quietness.comparator());
        Arrays.sort(cpus, order.thenComparing(byHints).thenComparingInt(c -> c));
        return Arrays.stream(cpus).mapToInt(Integer::intValue).toArray();
    }

    /** Interrupts per CPU, summed over every line of {@code /proc/interrupts}; empty when unreadable or malformed. */
    static Map<Integer, Long> readInterrupts(SysfsReader r) {
        try {
            return CounterTable.read(r, CounterTable.INTERRUPTS).map(CounterTable::sumsPerCpu).orElse(Map.of());
        } catch (IllegalArgumentException e) {
            r.problem(CounterTable.INTERRUPTS, e.getMessage());
            return Map.of();
        }
    }
}
