package dev.corescope.affinity;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.sys.Os;
import dev.corescope.sys.Pinning;

/**
 * The calling thread's CPUs, in three calls that allocate nothing on the hot path:
 * {@link #allowed()}, {@link #pin(int)} (restored on close) and {@link #currentCpu()}.
 * A thin face of the OS seam {@code sys.Os.live()} (FFM {@code sched_getaffinity},
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

    /** The CPUs the calling thread may run on now ({@code sched_getaffinity(0)}). */
    public static CpuMask allowed() {
        return Os.live().allowed();
    }

    /** Pins the calling thread to {@code cpus}; {@link Pinning#close()} (on this thread) restores the previous mask. */
    public static Pinning pin(CpuMask cpus) {
        return Os.live().pin(cpus);
    }

    /** Pins the calling thread to {@code cpu}. */
    public static Pinning pin(int cpu) {
        return Os.live().pin(cpu);
    }

    /** The CPU the calling thread runs on at this instant ({@code sched_getcpu}). */
    public static int currentCpu() {
        return Os.live().currentCpu();
    }
}
