package dev.corescope.bench;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.sys.CpuNotAllowedException;
import dev.corescope.sys.PerfCounters;
import dev.corescope.sys.Pinning;
import dev.corescope.sys.internal.Os;
import dev.corescope.sys.internal.ThreadPin;

/**
 * An {@link Os} for a machine that is not this one: {@code allowed} CPUs out of
 * {@code nrCpuIds}, each thread's mask kept here rather than in the kernel, a thread "running"
 * on the first CPU of its mask, and no hardware counters.
 */
public final class FakeOs implements Os {

    private final int nrCpuIds;
    private final CpuMask processAllowed;
    private final ThreadLocal<CpuMask> threadMask;

    public FakeOs(CpuMask processAllowed) {
        this.nrCpuIds = processAllowed.nbits();
        this.processAllowed = processAllowed;
        this.threadMask = ThreadLocal.withInitial(() -> processAllowed);
    }

    @Override
    public int nrCpuIds() {
        return nrCpuIds;
    }

    @Override
    public CpuMask processAllowed() {
        return processAllowed;
    }

    @Override
    public CpuMask allowed() {
        return threadMask.get();
    }

    /** Only the calling thread (0) exists on the fake machine. */
    @Override
    public CpuMask allowed(int pid) {
        if (pid != 0) throw new UnsupportedOperationException("FakeOs has no process " + pid);
        return allowed();
    }

    @Override
    public void setAllowed(CpuMask cpus) {
        threadMask.set(cpus);
    }

    @Override
    public Pinning pin(CpuMask cpus) {
        if (!cpus.isSubsetOf(processAllowed)) throw new CpuNotAllowedException(cpus.andNot(processAllowed), processAllowed);
        CpuMask previous = threadMask.get();
        threadMask.set(cpus);
        return ThreadPin.of(previous, cpus, threadMask::set);
    }

    @Override
    public int currentCpu() {
        return threadMask.get().first();
    }

    @Override
    public PerfCounters.Session startCounters() {
        throw new UnsupportedOperationException("the fake OS has no hardware counters");
    }
}
