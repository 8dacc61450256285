package dev.corescope.bench.cpupri;

import dev.corescope.bench.cpupri.CpupriLayouts.Config;
import dev.corescope.bench.cpupri.CpupriLayouts.Kind;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

import static dev.corescope.bench.cpupri.CpupriLayouts.CPUPRI_NORMAL;
import static dev.corescope.bench.cpupri.CpupriLayouts.CPUPRI_NR_PRIORITIES;
import static dev.corescope.bench.cpupri.CpupriLayouts.CPUPRI_RT99;

/**
 * {@code struct cpupri} off-heap, laid out by {@link CpupriLayouts} exactly as the kernel lays
 * it out with {@code CONFIG_CPUMASK_OFFSTACK=y}: the struct holds pointers; the 101 cpumasks are
 * allocated one after another elsewhere, {@code cpumask_size()} bytes each, as
 * {@code zalloc_cpumask_var()} gets them from one kmalloc slab; {@code cpu_to_pri} is a separate
 * {@code kcalloc(nr_cpu_ids, sizeof(int))}. The struct starts on a cache line.
 *
 * <p>Pointers are real addresses; a reader turns one back into an offset in the mask slab,
 * so its load of the mask depends on its load of the pointer, as in C.
 *
 * <p>The memory lives in a shared arena (reader and writers are different threads), closed by
 * {@link #close()} when the trial ends.
 */
final class OffHeapCpupri implements CpupriStruct {

    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    private static final long INVALID = -1;

    private final Arena arena;
    private final MemorySegment cpupri;
    private final MemorySegment masks;
    private final MemorySegment cpuToPri;
    private final long masksAddress;
    private final long[] countOffset = new long[CPUPRI_NR_PRIORITIES];
    private final long[] maskOffset = new long[CPUPRI_NR_PRIORITIES];
    private final long mechanismCount;
    private final long mechanismMask;
    private final int words;
    private final long[] taskMask;

    /**
     * @param nrCpuIds CPUs the masks hold
     * @param writers  CPUs whose priority the writers change; they start at CPUPRI_NORMAL
     * @param task     CPUs the reader's waking task may run on; they enter cpupri too
     * @param rt       the priority the task's CPUs that are not writers start at
     */
    OffHeapCpupri(Kind kind, int lineSize, int nrCpuIds, int[] writers, int[] task, Rt rt) {
        StructLayout layout = CpupriLayouts.layout(kind, Config.offstack(lineSize));
        this.words = (nrCpuIds + 63) / 64;
        long maskBytes = 8L * words;
        this.arena = Arena.ofShared();
        this.cpupri = arena.allocate(layout.byteSize(), lineSize);
        this.masks = arena.allocate(maskBytes * CPUPRI_NR_PRIORITIES, 8);
        this.cpuToPri = arena.allocate(4L * nrCpuIds, 8);
        this.masksAddress = masks.address();
        for (int p = 0; p < CPUPRI_NR_PRIORITIES; p++) {
            countOffset[p] = CpupriLayouts.countOffset(layout, kind, p);
            maskOffset[p] = CpupriLayouts.maskOffset(layout, kind, p);
            cpupri.set(ValueLayout.JAVA_LONG, maskOffset[p], masksAddress + p * maskBytes);
        }
        cpupri.set(ValueLayout.JAVA_LONG, CpupriLayouts.cpuToPriOffset(layout), cpuToPri.address());
        this.mechanismCount = countOffset[MECHANISM_PRIORITY];
        this.mechanismMask = maskOffset[MECHANISM_PRIORITY];
        for (int cpu = 0; cpu < nrCpuIds; cpu++) cpuToPri.setAtIndex(ValueLayout.JAVA_INT, cpu, (int) INVALID);
        for (int cpu : Rt.cpusOfTheRun(writers, task)) { // rq_online_rt(): every CPU is in cpupri
            int pri = rt.startPriority(cpu, writers);
            setBit(pri, cpu);
            INT.getAndAdd(cpupri, countOffset[pri], 1);
            cpuToPri.setAtIndex(ValueLayout.JAVA_INT, cpu, pri);
        }
        this.taskMask = new long[words];
        for (int cpu : task) taskMask[cpu >>> 6] |= 1L << cpu;
    }

    @Override
    public long readMask() {
        return (long) LONG.getOpaque(cpupri, mechanismMask);
    }

    @Override
    public void incDec() {
        INT.getAndAdd(cpupri, mechanismCount, 1);
        INT.getAndAdd(cpupri, mechanismCount, -1);
    }

    @Override
    public int find(long[] lowestMask) {
        for (int idx = 0; idx < TASK_PRIORITY; idx++) {
            int count = (int) INT.getOpaque(cpupri, countOffset[idx]);
            VarHandle.loadLoadFence(); // smp_rmb(): the count before the mask
            if (count == 0) continue;
            long mask = (long) LONG.getOpaque(cpupri, maskOffset[idx]) - masksAddress;
            // cpumask_any_and() then cpumask_and(lowest_mask, ...) read the same words: done in one pass
            long any = 0;
            for (int w = 0; w < words; w++) {
                long bits = (long) LONG.getOpaque(masks, mask + 8L * w) & taskMask[w];
                lowestMask[w] = bits;
                any |= bits;
            }
            if (any != 0) return idx;
        }
        return -1;
    }

    @Override
    public void toggle(int cpu) {
        int oldpri = cpuToPri.getAtIndex(ValueLayout.JAVA_INT, cpu);
        int newpri = oldpri == CPUPRI_NORMAL ? CPUPRI_RT99 : CPUPRI_NORMAL;
        setBit(newpri, cpu);
        INT.getAndAdd(cpupri, countOffset[newpri], 1);      // atomic_inc(); a full barrier on x86 and in Java
        INT.getAndAdd(cpupri, countOffset[oldpri], -1);     // atomic_dec()
        clearBit(oldpri, cpu);
        cpuToPri.setAtIndex(ValueLayout.JAVA_INT, cpu, newpri);
    }

    @Override
    public int maskWords() {
        return words;
    }

    /** {@code cpumask_set_cpu(cpu, vec->mask)}: an atomic {@code set_bit} through the pointer. */
    private void setBit(int pri, int cpu) {
        long mask = cpupri.get(ValueLayout.JAVA_LONG, maskOffset[pri]) - masksAddress;
        LONG.getAndBitwiseOr(masks, mask + 8L * (cpu >>> 6), 1L << cpu);
    }

    /** {@code cpumask_clear_cpu(cpu, vec->mask)}: an atomic {@code clear_bit}. */
    private void clearBit(int pri, int cpu) {
        long mask = cpupri.get(ValueLayout.JAVA_LONG, maskOffset[pri]) - masksAddress;
        LONG.getAndBitwiseAnd(masks, mask + 8L * (cpu >>> 6), ~(1L << cpu));
    }

    /** {@code atomic_read(&pri_to_cpu[p].count)}, for tests. */
    int count(int p) {
        return (int) INT.getVolatile(cpupri, countOffset[p]);
    }

    @Override
    public void close() {
        arena.close();
    }
}
