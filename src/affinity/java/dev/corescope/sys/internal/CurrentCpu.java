package dev.corescope.sys.internal;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.Optional;

/**
 * The CPU the calling thread runs on, read from the thread's rseq area as glibc's own
 * {@code sched_getcpu()} does: one opaque 32-bit load at the thread pointer plus glibc's
 * {@code __rseq_offset}, without a call into native code. Where there is no area (rseq off, no
 * {@code __rseq_offset}, not x86-64, a virtual thread) {@link #read()} calls {@code sched_getcpu()}
 * through a critical downcall and {@link #fallbackReason()} says why. docs/performance.md ("The
 * current CPU through rseq") has how the area is found and checked.
 *
 * <p><b>Note:</b> an instance belongs to the thread that made it: the area is that thread's, and
 * {@link #read()} on another thread is refused. {@link Affinity#currentCpu()} keeps one per
 * thread for its callers; a hot loop may hold its own.
 */
public final class CurrentCpu {

    /** {@code offsetof(struct rseq, cpu_id)}: after the 32-bit {@code cpu_id_start}. */
    private static final long CPU_ID_OFFSET = 4;
    /** {@code cpu_id_start} and {@code cpu_id}: all of the area this class reads. */
    private static final long AREA_BYTES = 8;
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();
    /**
     * All of the address space as one segment, a constant: reading {@code cpu_id} through it at
     * an absolute address costs the load and one bounds compare, where a segment per thread
     * (a field) costs its base, size and scope loaded again on every read, since the opaque
     * load keeps the JIT from hoisting them (issue 28: 0.4-0.7 ns a read on an Intel Xeon guest).
     */
    private static final MemorySegment EVERYTHING = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);

    private final Thread owner;
    /** The address of the owner's {@code cpu_id}, or 0 when {@link #read()} falls back to {@code sched_getcpu()}. */
    private final long cpuId;
    private final String fallbackReason;

    private CurrentCpu(Thread owner, MemorySegment area, String fallbackReason) {
        this.owner = owner;
        this.cpuId = area == null ? 0 : area.address() + CPU_ID_OFFSET;
        this.fallbackReason = fallbackReason;
    }

    /** A reader for the calling thread: its rseq area when there is one, else the fallback. */
    public static CurrentCpu forThisThread() {
        Thread t = Thread.currentThread();
        if (t.isVirtual()) return new CurrentCpu(t, null, "a virtual thread: its carrier can change between two reads");
        String processReason = Rseq.REASON;
        if (processReason != null) return new CurrentCpu(t, null, processReason);
        MemorySegment area = threadArea();
        if (area == null) return new CurrentCpu(t, null, "pthread_self() is not the thread pointer here (TCB check failed)");
        int cpu = (int) INT.getOpaque(area, CPU_ID_OFFSET);
        if (cpu < 0) return new CurrentCpu(t, null, "rseq is not registered for this thread (cpu_id " + cpu + ")");
        return new CurrentCpu(t, area, null);
    }

    /**
     * The CPU the owning thread runs on now: the rseq area's {@code cpu_id}, or
     * {@code sched_getcpu()} when it has none.
     *
     * @throws IllegalStateException when called from another thread than the one that made it
     */
    public int read() {
        if (Thread.currentThread() != owner) throw notOwner();
        return readOwned();
    }

    /** Whether the calling thread is the one this reader belongs to. */
    boolean ownedByCurrentThread() {
        return Thread.currentThread() == owner;
    }

    /** {@link #read()} for a caller that has checked {@link #ownedByCurrentThread()}. */
    int readOwned() {
        long at = cpuId;
        if (at != 0) {
            int cpu = (int) INT.getOpaque(EVERYTHING, at);
            if (cpu >= 0) return cpu;
        }
        return Affinity.currentCpuCritical();
    }

    /** Whether {@link #read()} reads the rseq area (false: it calls {@code sched_getcpu()}). */
    public boolean usesRseq() {
        return cpuId != 0;
    }

    /** Why this reader falls back to {@code sched_getcpu()}; empty when it reads the rseq area. */
    public Optional<String> fallbackReason() {
        return Optional.ofNullable(fallbackReason);
    }

    /**
     * Why no platform thread of this process can read its rseq area (rseq off, no
     * {@code __rseq_offset}, the architecture), or empty when they can.
     */
    public static Optional<String> rseqUnavailableReason() {
        return Optional.ofNullable(Rseq.REASON);
    }

    private IllegalStateException notOwner() {
        return new IllegalStateException("a CurrentCpu belongs to thread " + owner.getName()
                + ", not " + Thread.currentThread().getName());
    }

    /** The calling thread's {@code cpu_id_start}/{@code cpu_id} pair, or null when the TCB check fails. */
    private static MemorySegment threadArea() {
        long tp;
        try {
            tp = (long) Libc.PthreadSelf.HANDLE.invokeExact();
        } catch (Throwable t) {
            throw NativeCalls.rethrow(t);
        }
        if (tp == 0) return null;
        // x86-64 glibc's tcbhead_t: { void *tcb; dtv_t *dtv; void *self; ... }, tcb == self == %fs base
        MemorySegment tcb = MemorySegment.ofAddress(tp).reinterpret(24);
        if (tcb.get(ValueLayout.JAVA_LONG, 0) != tp || tcb.get(ValueLayout.JAVA_LONG, 16) != tp) return null;
        return MemorySegment.ofAddress(tp + Rseq.OFFSET).reinterpret(AREA_BYTES);
    }

    /** Process-wide facts, looked up once on first use. */
    private static final class Rseq {
        static final long OFFSET;
        static final String REASON;

        static {
            long offset = 0;
            String reason = null;
            String arch = System.getProperty("os.arch");
            if (!"amd64".equals(arch) && !"x86_64".equals(arch)) {
                reason = "the rseq read is wired for x86-64 only, not " + arch;
            } else {
                Optional<MemorySegment> offsetSym = Libc.findSymbol("__rseq_offset");
                Optional<MemorySegment> sizeSym = Libc.findSymbol("__rseq_size");
                if (offsetSym.isEmpty() || sizeSym.isEmpty()) {
                    reason = "the C library exports no __rseq_offset (glibc older than 2.35, or another libc)";
                } else {
                    // ptrdiff_t __rseq_offset; unsigned int __rseq_size (glibc's sys/rseq.h)
                    int size = sizeSym.get().reinterpret(4).get(ValueLayout.JAVA_INT, 0);
                    offset = offsetSym.get().reinterpret(8).get(ValueLayout.JAVA_LONG, 0);
                    if (size < AREA_BYTES) {
                        reason = "rseq is not registered (__rseq_size " + size
                                + ": GLIBC_TUNABLES=glibc.pthread.rseq=0, or a kernel without rseq)";
                    }
                }
            }
            OFFSET = offset;
            REASON = reason;
        }
    }
}
