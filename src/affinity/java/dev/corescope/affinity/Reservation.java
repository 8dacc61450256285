package dev.corescope.affinity;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.sys.Pinning;
import java.util.Optional;

/**
 * CPUs that no other user of the same reservation directory (by default: no other corescope
 * user on the machine) gets until {@link #close()}, in this process or any other. Made by
 * {@link Reservations}; one lock file per CPU, locked with {@code flock(2)}, which the kernel
 * drops when this process ends, so a crashed or killed holder leaves nothing to clean up.
 *
 * <p>A reservation does not pin anything by itself: {@link #pin()} pins the calling thread to
 * the reserved CPUs (it is the reservation that keeps other corescope users off them).
 *
 * <p><b>Note:</b> thread-safe; it may be closed from any thread, and closing twice is harmless.
 */
public final class Reservation implements AutoCloseable {

    private final LockTable table;
    private final CpuMask cpus;
    private final int[] cpuList;
    private final boolean wholeCore;
    private final int[] generations;
    private final String reclaimedFrom;
    private volatile boolean closed;

    Reservation(LockTable table, CpuMask cpus, int[] cpuList, boolean wholeCore) {
        this.table = table;
        this.cpus = cpus;
        this.cpuList = cpuList;
        this.wholeCore = wholeCore;
        this.generations = new int[cpuList.length];
        String from = null;
        for (int i = 0; i < cpuList.length; i++) {
            generations[i] = table.generation(cpuList[i]);
            if (from == null) from = table.reclaimedFrom(cpuList[i]);
        }
        this.reclaimedFrom = from;
    }

    /**
     * The thread of this process that held these CPUs before and ended without releasing them
     * (a stale reservation, which the dump shows as {@code stale}): a reservation takes such
     * CPUs over, as nothing in this process would ever release them.
     *
     * @return that thread's name, or empty when the CPUs were free
     * @since 0.2.0
     */
    public Optional<String> reclaimedFrom() {
        return Optional.ofNullable(reclaimedFrom);
    }

    /** {@return the reserved CPUs, not empty: one, or every online hardware thread of a core} */
    public CpuMask cpus() {
        return cpus;
    }

    /** {@return the first (lowest) reserved CPU: the one a single-CPU reservation holds} */
    public int cpu() {
        return cpuList[0];
    }

    /** {@return whether this is a whole core, every online SMT sibling of it: true for {@code reserveWholeCore} and {@code reserveCoreOf}} */
    public boolean wholeCore() {
        return wholeCore;
    }

    /** {@return whether the CPUs are still reserved by this object: false once {@link #close()} ran} */
    public boolean held() {
        return !closed;
    }

    /**
     * Pins the calling thread to {@link #cpus()}; closing the returned {@link Pinning} (on this
     * thread) restores the thread's previous mask. Pinning does not end the reservation. The
     * same call as {@code ThreadAffinity.pin(cpus())}: it allocates nothing.
     *
     * @return the pin, to close on this thread before (or after) the reservation
     * @throws IllegalStateException when the reservation was already released
     */
    public Pinning pin() {
        if (closed) throw new IllegalStateException("reservation of CPUs " + cpus.toList() + " was released");
        return ThreadAffinity.pin(cpus);
    }

    /**
     * Records that this reservation is for thread {@code t} (not the one that made it): what
     * {@link Reservations#dump()} names, and whose end makes it stale.
     */
    void handTo(Thread t) {
        for (int cpu : cpuList) table.handTo(cpu, t);
    }

    /** Releases every CPU of the reservation. */
    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        for (int i = 0; i < cpuList.length; i++) table.release(cpuList[i], generations[i]);
    }

    @Override
    public String toString() {
        return "Reservation[" + (wholeCore ? "core " : "CPU" + (cpus.weight() > 1 ? "s " : " ")) + cpus.toList()
                + (reclaimedFrom != null ? ", taken over from ended thread " + reclaimedFrom : "") + (closed ? ", released" : "") + "]";
    }
}
