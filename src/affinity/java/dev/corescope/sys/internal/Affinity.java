package dev.corescope.sys.internal;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.sys.CpuNotAllowedException;
import dev.corescope.sys.Errno;
import dev.corescope.sys.NativeException;
import dev.corescope.sys.Pinning;
import dev.corescope.sys.ffi.LibC;
import dev.corescope.topology.proc.CgroupCpuset;
import dev.corescope.topology.proc.SysfsReader;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU affinity of threads and processes through FFM: {@code sched_getaffinity} (masks sized from
 * {@code nr_cpu_ids} and grown on {@code EINVAL}, as glibc's {@code CPU_ALLOC} users do, so more
 * than 1024 CPUs work), {@code sched_setaffinity} and the current CPU. A pid of 0 is the calling
 * thread; {@link #pin} changes only the calling thread, whose {@link Pinning} is closed on it.
 */
public final class Affinity {

    /** Largest mask tried when growing on EINVAL: 2^20 CPUs, far above any NR_CPUS. */
    static final int MAX_BITS = 1 << 20;

    private Affinity() {
    }

    /** {@code nr_cpu_ids}: {@link CpuMask#machineSize()}, so the seam's masks and the parsed ones have one size ({@code cpu/possible} is read once). */
    public static int nrCpuIds() {
        return CpuMask.machineSize();
    }

    /** The CPUs the calling thread may run on. */
    public static CpuMask allowed() {
        return get(0);
    }

    /**
     * The CPUs this process was allowed when corescope started (the main thread's mask,
     * read once): the set that {@link #pin} checks against.
     */
    public static CpuMask processAllowed() {
        return ProcessAllowed.VALUE;
    }

    /** {@code sched_getaffinity(pid)}: the allowed CPUs of thread or process {@code pid} (0: this thread). */
    public static CpuMask get(int pid) {
        int nbits = nrCpuIds();
        long bytes = roundUp64(Math.max(nbits, 64)) / 8;
        Scratch scratch = Scratch.forThisThread();
        while (true) {
            MemorySegment set = scratch.cpuset(bytes);
            if (Libc.schedGetaffinity(scratch.callState, pid, bytes, set) == -1) {
                int errno = Libc.errno(scratch.callState);
                if (errno == Errno.EINVAL.number() && bytes * 8 < MAX_BITS) {
                    bytes *= 2;
                    continue;
                }
                throw new NativeException("sched_getaffinity", "pid=" + pid + ", cpusetsize=" + bytes, errno);
            }
            return maskOf(set, bytes);
        }
    }

    /**
     * The first {@code bytes} of a {@code cpu_set_t} filled by {@code sched_getaffinity}, as a
     * mask of {@link #nrCpuIds()} bits, or more when a higher CPU is set.
     */
    static CpuMask maskOf(MemorySegment set, long bytes) {
        long[] words = new long[(int) (bytes / 8)];
        int highest = -1;
        for (int i = 0; i < words.length; i++) {
            long w = set.getAtIndex(Libc.WORD, i);
            words[i] = w;
            if (w != 0) highest = i * 64 + 63 - Long.numberOfLeadingZeros(w);
        }
        return CpuMask.fromWords(Math.max(nrCpuIds(), highest + 1), words);
    }

    /** {@code sched_setaffinity(pid, cpus)}. */
    public static void set(int pid, CpuMask cpus) {
        if (pid == 0) ThreadPin.refuseVirtualThread();
        int words = Math.max(1, cpus.wordCount());
        long bytes = (long) words * 8;
        Scratch scratch = Scratch.forThisThread();
        MemorySegment set = scratch.cpuset(bytes);
        for (int i = 0; i < words; i++) set.setAtIndex(Libc.WORD, i, cpus.word(i));
        if (Libc.schedSetaffinity(scratch.callState, pid, bytes, set) == -1) {
            throw new NativeException("sched_setaffinity", "pid=" + pid + ", cpus=" + cpus.toList(), Libc.errno(scratch.callState));
        }
    }

    /** Pins the calling thread to {@code cpus}; closing the handle puts the previous mask back ({@link #checkPin} first). */
    public static Pinning pin(CpuMask cpus) {
        checkPin(cpus);
        CpuMask previous = allowed();
        set(0, cpus);
        return new ThreadPin(Thread.currentThread(), previous, cpus);
    }

    /** Refuses a virtual thread, an empty set and CPUs outside {@link #pinnable()}. */
    static void checkPin(CpuMask cpus) {
        ThreadPin.refuseVirtualThread();
        if (cpus.isEmpty()) throw new IllegalArgumentException("cannot pin to an empty CPU set");
        CpuMask allowed = pinnable();
        if (!cpus.isSubsetOf(allowed)) throw new CpuNotAllowedException(cpus.andNot(allowed), allowed);
    }

    /** {@link #pin(CpuMask)} to one CPU. */
    public static Pinning pin(int cpu) {
        int nbits = Math.max(nrCpuIds(), cpu + 1);
        return pin(CpuMask.of(nbits, cpu));
    }

    /**
     * The CPU the calling thread runs on now, through its {@link CurrentCpu}: made once per thread,
     * the last one used kept in a one-entry cache checked against the current thread, as
     * docs/performance.md ("The current CPU through rseq") says.
     */
    public static int currentCpu() {
        CurrentCpu last = LastReader.reader;
        if (last != null && last.ownedByCurrentThread()) return last.readOwned();
        return LastReader.currentCpuSlow();
    }

    /**
     * {@code sched_getcpu()} through a {@code critical(false)} downcall (no thread-state
     * transition, no errno capture): {@link #currentCpu()}, and the fallback of {@link CurrentCpu}.
     */
    public static int currentCpuCritical() {
        try {
            return (int) Libc.SchedGetcpuCritical.HANDLE.invokeExact();
        } catch (Throwable t) {
            throw NativeCalls.rethrow(t);
        }
    }

    /** {@code sched_getcpu()} through the plain generated binding, for comparison in benchmarks. */
    public static int currentCpuPlain() {
        return LibC.sched_getcpu();
    }

    private static int roundUp64(int bits) {
        return (bits + 63) & ~63;
    }

    /** Per-thread errno call state and {@code cpu_set_t}: a confined arena per call costs more than the call. */
    private static final class Scratch {
        private static final ThreadLocal<Scratch> CURRENT = ThreadLocal.withInitial(Scratch::new);

        // automatic arena by design: the scratch lives as long as its thread
        final MemorySegment callState = Libc.callState(Arena.ofAuto());
        private MemorySegment cpuset = Arena.ofAuto().allocate(128, 8);

        static Scratch forThisThread() {
            return CURRENT.get();
        }

        /** A cpuset buffer of at least {@code bytes}; the call is told the size, so the rest is never read. */
        MemorySegment cpuset(long bytes) {
            if (cpuset.byteSize() < bytes) cpuset = Arena.ofAuto().allocate(bytes, 8);
            return cpuset;
        }
    }

    /** The readers behind {@link #currentCpu()}: one per thread, and the one used last. */
    static final class LastReader {
        private static final ThreadLocal<CurrentCpu> PER_THREAD = ThreadLocal.withInitial(CurrentCpu::forThisThread);

        /**
         * The reader used last, by whichever thread. A plain field: a thread may see another's
         * reader or a stale one, and then misses (the owner check fails) and takes the slow
         * path; {@link CurrentCpu}'s fields are final, so a reader seen is a complete one.
         */
        static CurrentCpu reader;

        static int currentCpuSlow() {
            CurrentCpu mine = PER_THREAD.get();
            reader = mine;
            return mine.readOwned();
        }
    }

    /**
     * The CPUs a pin may ask for, read once: {@link #processAllowed()} plus the online CPUs the
     * cgroup cpuset allows (every online CPU without one), the kernel's own rule for
     * {@code sched_setaffinity}. Which CPUs are <em>chosen</em> is {@code topology.UsableCpus}'s rule.
     */
    public static CpuMask pinnable() {
        return Pinnable.VALUE;
    }

    /** {@link #pinnable()} from its parts: the process's mask and what the kernel permits. */
    static CpuMask pinnable(CpuMask processAllowed, CpuMask permitted) {
        int nbits = Math.max(processAllowed.nbits(), permitted.nbits());
        return processAllowed.resize(nbits).or(permitted.resize(nbits));
    }

    private static final class Pinnable {
        static final CpuMask VALUE = pinnable(processAllowed(), readPermitted());

        private static CpuMask readPermitted() {
            int nbits = Math.max(nrCpuIds(), 1);
            CpuMask online;
            try {
                online = CpuMask.parseList(Files.readString(Path.of("/sys/devices/system/cpu/online")).strip(), nbits);
            } catch (IOException | IllegalArgumentException e) {
                return CpuMask.empty(nbits);  // no sysfs: the start mask only
            }
            return CgroupCpuset.read(new SysfsReader(Path.of("/")), nbits).map(c -> c.cpus().and(online)).orElse(online);
        }
    }

    /** The process's (main thread's) mask, read once; the pid from a raw {@code getpid} ({@link ProcessHandle} starts a thread pool). */
    private static final class ProcessAllowed {
        static final CpuMask VALUE = get((int) Libc.syscall(Scratch.forThisThread().callState, Libc.SYS_GETPID, 0, 0, 0, 0, 0));
    }
}
