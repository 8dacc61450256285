package dev.corescope.sys.internal;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.sys.PerfCounters;
import dev.corescope.sys.Pinning;
import dev.corescope.sys.ffi.LibC;

/**
 * What benchmarks and their session need from the kernel, behind one small interface (as
 * OpenHFT's {@code IAffinity}): the allowed CPUs, pinning, the current CPU and the hardware
 * counters. {@link #live()} is this machine through FFM ({@link Affinity}, {@link PerfCounters});
 * tests hand in an implementation over a saved topology with more CPUs than the machine has.
 *
 * <p>Affinity is per thread: {@link #allowed()}, {@link #setAllowed} and {@link #pin} act on the
 * calling thread.
 */
public interface Os {

    /** This machine, through FFM. */
    static Os live() {
        return LiveOs.INSTANCE;
    }

    /** {@code nr_cpu_ids}: the last possible CPU + 1. */
    int nrCpuIds();

    /** The CPUs this process was allowed when it started: what {@link #pin} checks against. */
    CpuMask processAllowed();

    /** The CPUs the calling thread may run on now. */
    CpuMask allowed();

    /** {@code sched_getaffinity(pid)}: the CPUs thread or process {@code pid} may run on (0: the calling thread). */
    CpuMask allowed(int pid);

    /** Sets the calling thread's allowed CPUs (to put back a mask a caller changed). */
    void setAllowed(CpuMask cpus);

    /** Pins the calling thread; closing the {@link Pinning} puts its previous mask back. */
    Pinning pin(CpuMask cpus);

    /** {@link #pin(CpuMask)} to one CPU. */
    default Pinning pin(int cpu) {
        return pin(CpuMask.of(Math.max(nrCpuIds(), cpu + 1), cpu));
    }

    /**
     * {@link #pin(int)}, confirmed by {@link #currentCpu()} for measurements whose meaning is the CPU;
     * {@link IllegalStateException} (the previous mask put back) when the thread runs elsewhere.
     */
    default Pinning pinChecked(int cpu) {
        Pinning p = pin(cpu);
        int now = currentCpu();
        if (now != cpu) {
            p.close();
            throw new IllegalStateException("pinned to CPU " + cpu + " but sched_getcpu() says " + now);
        }
        return p;
    }

    /** The CPU the calling thread runs on now. */
    int currentCpu();

    /** The calling thread's kernel thread id ({@code gettid()}), as {@code ps -L}, {@code top -H} and {@code /proc/PID/task} show it. */
    default int nativeThreadId() {
        return LibC.gettid();
    }

    /** Starts counting the calling thread (and threads it starts) with the default events. */
    PerfCounters.Session startCounters();

    /** {@link Os#live()}: the static calls of {@link Affinity} and {@link PerfCounters}. */
    final class LiveOs implements Os {
        private static final LiveOs INSTANCE = new LiveOs();

        private LiveOs() {
        }

        @Override
        public int nrCpuIds() {
            return Affinity.nrCpuIds();
        }

        @Override
        public CpuMask processAllowed() {
            return Affinity.processAllowed();
        }

        @Override
        public CpuMask allowed() {
            return Affinity.allowed();
        }

        @Override
        public CpuMask allowed(int pid) {
            return Affinity.get(pid);
        }

        @Override
        public void setAllowed(CpuMask cpus) {
            Affinity.set(0, cpus);
        }

        @Override
        public Pinning pin(CpuMask cpus) {
            return Affinity.pin(cpus);
        }

        @Override
        public int currentCpu() {
            return Affinity.currentCpu();
        }

        @Override
        public PerfCounters.Session startCounters() {
            return PerfCounters.start();
        }

        @Override
        public String toString() {
            return "Os.live()";
        }
    }
}
