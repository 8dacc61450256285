package dev.corescope.bench.cpupri;

import java.util.Arrays;
import java.util.stream.IntStream;

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
interface CpupriStruct extends AutoCloseable {

    /**
     * Which CPUs of the run run RT tasks, {@code params.rt}. In the kernel every online CPU is in
     * cpupri ({@code rq_online_rt()} calls {@code cpupri_set(..., CPUPRI_NORMAL)}), so the models
     * put every CPU of the run in at start: the writers' at NORMAL, from where they move to RT99
     * and back, and the others (the reader's) as this says.
     */
    enum Rt {
        /** Only the writers' CPUs run RT tasks; the others sit at CPUPRI_NORMAL, so a find stops at index 0. */
        WRITERS("writers"),
        /** Every other CPU runs RT99: while a writer is at RT99 a find reads all 99 counts and finds nothing. */
        ALL("all");

        final String param;

        Rt(String param) {
            this.param = param;
        }

        static Rt of(String param) {
            for (Rt r : values()) if (r.param.equals(param)) return r;
            throw new IllegalArgumentException("rt=" + param + ": not writers or all");
        }

        /** The priority {@code cpu} starts at: NORMAL for a writer, else as this mode says. */
        int startPriority(int cpu, int[] writers) {
            for (int w : writers) if (w == cpu) return CpupriLayouts.CPUPRI_NORMAL;
            return this == ALL ? CpupriLayouts.CPUPRI_RT99 : CpupriLayouts.CPUPRI_NORMAL;
        }

        /** The CPUs to put in cpupri at start: the writers, then the task's other CPUs. */
        static int[] cpusOfTheRun(int[] writers, int[] task) {
            return IntStream.concat(Arrays.stream(writers), Arrays.stream(task))
                    .distinct().toArray();
        }
    }

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
