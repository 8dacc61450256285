package dev.corescope.bench.cpupri;

/**
 * One {@code struct cpupri} in one layout, with the accesses the benchmark times. The reader
 * side mirrors {@code cpupri_find()}, the writer side {@code cpupri_set()} (kernel/sched/cpupri.c,
 * Linux 6.x). All shared loads are opaque or stronger, so the JIT cannot hoist them out of
 * JMH's loop and a reader really goes to memory on every operation.
 *
 * <p><b>Note:</b> {@link #find} and {@link #readMask} may run on any number of threads;
 * {@link #toggle(int)} for one CPU must run on one thread at a time, as the kernel holds that
 * CPU's runqueue lock around {@code cpupri_set()}.
 */
interface CpupriModel extends AutoCloseable {

    /** The priority the {@code mechanism} workload works on: RT99, the seed's threads, in the struct's last lines. */
    int MECHANISM_PRIORITY = CpupriLayouts.CPUPRI_RT99;

    /** The waking task's cpupri in the {@code cpupri} workload: RT99, so the scan covers 0..98. */
    int TASK_PRIORITY = CpupriLayouts.CPUPRI_RT99;

    /** mechanism, reader: loads {@code pri_to_cpu[99].mask}, the pointer, and nothing else. */
    long readMask();

    /** mechanism, writer: {@code atomic_inc} then {@code atomic_dec} of {@code pri_to_cpu[99].count}. */
    void incDec();

    /**
     * {@code cpupri_find(cp, p, lowest_mask)} for an RT99 task allowed on every CPU of the run:
     * from index 0 up to the task's priority, read the count, skip empty priorities, then read
     * the mask of the first non-empty one into {@code lowestMask}.
     *
     * @return the index found, or -1
     */
    int find(long[] lowestMask);

    /**
     * {@code cpupri_set(cp, cpu, newpri)} as an RT task is enqueued on or dequeued from
     * {@code cpu}: moves the CPU between CPUPRI_NORMAL (0) and RT99, which sets and clears its
     * bit in both masks and increments and decrements both counts, {@code count[0]} included.
     */
    void toggle(int cpu);

    /** Words in a cpumask of this model (for the caller's {@code lowest_mask}). */
    int maskWords();

    @Override
    void close();
}
