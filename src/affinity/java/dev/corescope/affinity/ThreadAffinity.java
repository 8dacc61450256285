package dev.corescope.affinity;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.sys.CpuNotAllowedException;
import dev.corescope.sys.NativeException;
import dev.corescope.sys.Pinning;
import dev.corescope.sys.internal.Os;
import dev.corescope.sys.internal.ThreadPin;
import dev.corescope.topology.Topology;
import dev.corescope.topology.UsableCpus;

/**
 * The calling thread's CPUs: {@link #allowed()}, {@link #pin(int)} (restored on close) and
 * {@link #currentCpu()}; pinning and the current CPU allocate nothing.
 * A thin face of the OS seam {@code sys.internal.Os.live()} (FFM {@code sched_getaffinity},
 * {@code sched_setaffinity}, {@code sched_getcpu}), which sizes masks from {@code nr_cpu_ids},
 * so any CPU count works.
 *
 * <pre>{@code
 * try (Pinning p = ThreadAffinity.pin(3)) {
 *     assert ThreadAffinity.currentCpu() == 3;
 * }   // the thread's previous mask is back
 * }</pre>
 *
 * <p>Pinning does not keep anyone else off the CPU: {@link Reservations} does.
 */
public final class ThreadAffinity {

    private ThreadAffinity() {
    }

    /**
     * {@return the CPUs the calling thread may run on now ({@code sched_getaffinity(0)}), never
     * empty: a mask of {@link CpuMask#machineSize()} bits (or more)}
     *
     * @throws NativeException when the kernel refuses the call
     */
    public static CpuMask allowed() {
        return Os.live().allowed();
    }

    /**
     * Pins the calling thread to {@code cpus}; {@link Pinning#close()} (on this thread) restores
     * the previous mask. Allocates nothing: the handle is the thread's own, reused by its next
     * pin once closed, so use it in try-with-resources and do not keep it after
     * {@code close()}. Pins nest and may be closed in any order (see {@link Pinning}).
     *
     * @param cpus the CPUs to run on, not empty; any bit count
     * @return the pin, to close on this thread
     * @throws CpuNotAllowedException when a CPU is outside {@link #pinnable()}
     *         (nothing changed)
     * @throws IllegalArgumentException when {@code cpus} is empty
     * @throws UnsupportedOperationException on a virtual thread (it would pin its carrier)
     * @throws NativeException when the kernel refuses the mask (e.g. a cgroup
     *         cpuset narrower than the start mask)
     */
    public static Pinning pin(CpuMask cpus) {
        return ThreadPin.pinReused(cpus);
    }

    /**
     * Pins the calling thread to one CPU, as {@link #pin(CpuMask)}; allocates nothing for a
     * possible CPU (the one-CPU masks are made once and shared).
     *
     * @param cpu the CPU number
     * @return the pin, to close on this thread
     * @throws CpuNotAllowedException when {@code cpu} is outside {@link #pinnable()}
     * @throws UnsupportedOperationException on a virtual thread
     */
    public static Pinning pin(int cpu) {
        return ThreadPin.pinReused(SingleCpu.of(cpu));
    }

    /** One-CPU masks of the possible CPUs, made on first use and shared (a {@link CpuMask} is immutable). */
    private static final class SingleCpu {
        private static final CpuMask[] MASKS = new CpuMask[Os.live().nrCpuIds()];

        static CpuMask of(int cpu) {
            if (cpu < 0 || cpu >= MASKS.length) return CpuMask.of(Math.max(MASKS.length, cpu + 1), cpu);  // refused by the pin
            CpuMask m = MASKS[cpu];
            if (m == null) MASKS[cpu] = m = CpuMask.of(MASKS.length, cpu);  // a benign race: equal masks
            return m;
        }
    }

    /**
     * The CPUs chosen for this process's threads when none is named: the process's mask at start,
     * plus the CPUs the kernel isolated ({@code isolcpus=}) or runs tickless ({@code nohz_full=})
     * that are online and that the process's cgroup cpuset allows ({@code topology.UsableCpus},
     * the rule the command line follows too). A JVM started normally on an {@code isolcpus} host
     * does not have the isolated CPUs in its mask, so {@link #allowed()} and
     * {@code Reservations.shared()} never offer them; reservations over this set do, isolated
     * CPUs first:
     *
     * <pre>{@code
     * Topology t = Topology.live();
     * Reservations r = Reservations.of(Reservations.configuredDirectory(), t, ThreadAffinity.pinnable());
     * try (Reservation cpu = r.reserveAny(); Pinning p = cpu.pin()) {
     *     // on an isolated CPU when there is a free one
     * }
     * }</pre>
     *
     * A pin may also name any other CPU the cpuset allows, as {@code taskset} may.
     *
     * @return the CPUs, never empty
     * @since 0.2.0
     */
    public static CpuMask pinnable() {
        return pinnable(Topology.live(), Os.live().processAllowed());
    }

    /**
     * {@link #pinnable()} of a machine described by {@code t} for a process started on
     * {@code start}: {@link UsableCpus#usable()}. The live machine's, or a saved tree's
     * (an {@code isolcpus} host's, in the tests).
     */
    static CpuMask pinnable(Topology t, CpuMask start) {
        return UsableCpus.of(t, start).usable();
    }

    /**
     * {@return the CPU the calling thread runs on at this instant} That is rseq's {@code cpu_id}
     * where the kernel registered it for the thread, else {@code sched_getcpu}. Allocates
     * nothing; a few nanoseconds. The answer may be stale as soon as it is read, unless the
     * thread is pinned to one CPU.
     */
    public static int currentCpu() {
        return Os.live().currentCpu();
    }

    /**
     * The calling thread's kernel thread id ({@code gettid()}): the id {@code ps -L},
     * {@code top -H}, {@code taskset -p} and {@code /proc/PID/task/TID} know it by, not
     * {@link Thread#threadId()}. OpenHFT's {@code Affinity.getThreadId()}.
     *
     * @return the thread id, positive
     * @throws UnsupportedOperationException on a virtual thread (it has no thread of its own)
     * @since 0.2.0
     */
    public static int nativeThreadId() {
        if (Thread.currentThread().isVirtual()) throw new UnsupportedOperationException("a virtual thread has no kernel thread of its own");
        return Os.live().nativeThreadId();
    }
}
