package dev.corescope.bench.timerbase;

import dev.corescope.bench.JavaMachineCode;
import dev.corescope.cpumask.CpuMask;
import dev.corescope.sys.Pinning;
import dev.corescope.sys.internal.Os;
import dev.corescope.sys.internal.Threads;
import org.openjdk.jmh.annotations.CompilerControl;

import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A model of the kernel's per-CPU timer bases (kernel/time/timer.c, v6.9 and later with
 * {@code CONFIG_NO_HZ_COMMON}: {@code BASE_LOCAL}, {@code BASE_GLOBAL}, {@code BASE_DEF}) in
 * off-heap memory, and {@code get_timer_cpu_base()} before seed 001 (as the compiler makes it,
 * and with both table loads kept) and after it.
 *
 * <p>Every CPU gets its own per-CPU area, allocated and initialised ({@code init_timer_cpu()}) by a
 * thread pinned to that CPU (first touch: its NUMA node). {@code timer_bases} sits at offset
 * {@value #PCPU_TIMER_BASES} in every area and {@code __per_cpu_offset[cpu]} is the area's address, so
 * {@code per_cpu_ptr(&timer_bases[i], cpu)} is an add of the two on raw addresses, as on x86-64. The C
 * twin ({@code native/src/timerbase.c}) reads the same memory; docs/benchmarks/timerbase.md has the model.
 *
 * <p><b>Note:</b> the areas and timers are read-only once built and may be read from any
 * thread; {@link #close()} frees them, after which no address from this object may be used.
 */
public final class TimerBases implements AutoCloseable {

    // include/linux/timer.h
    public static final int TIMER_CPUMASK = 0x0003FFFF;
    public static final int TIMER_MIGRATING = 0x00040000;
    public static final int TIMER_DEFERRABLE = 0x00080000;
    public static final int TIMER_PINNED = 0x00100000;
    public static final int TIMER_ARRAYSHIFT = 22;

    // kernel/time/timer.c with CONFIG_NO_HZ_COMMON
    public static final int NR_BASES = 3;
    public static final int BASE_LOCAL = 0;
    public static final int BASE_GLOBAL = 1;
    public static final int BASE_DEF = 2;
    static final int WHEEL_SIZE = 64 * 9;

    /** {@code struct timer_base} without PREEMPT_RT's expiry lock; {@code ____cacheline_aligned}. */
    public static final StructLayout TIMER_BASE = MemoryLayout.structLayout(
            ValueLayout.JAVA_INT.withName("lock"),
            MemoryLayout.paddingLayout(4),
            ValueLayout.ADDRESS.withName("running_timer"),
            ValueLayout.JAVA_LONG.withName("clk"),
            ValueLayout.JAVA_LONG.withName("next_expiry"),
            ValueLayout.JAVA_INT.withName("cpu"),
            ValueLayout.JAVA_BOOLEAN.withName("next_expiry_recalc"),
            ValueLayout.JAVA_BOOLEAN.withName("is_idle"),
            ValueLayout.JAVA_BOOLEAN.withName("timers_pending"),
            MemoryLayout.paddingLayout(1),
            MemoryLayout.sequenceLayout(WHEEL_SIZE / 64, ValueLayout.JAVA_LONG).withName("pending_map"),
            MemoryLayout.sequenceLayout(WHEEL_SIZE, ValueLayout.ADDRESS).withName("vectors"),
            MemoryLayout.paddingLayout(16)).withByteAlignment(64).withName("timer_base");

    /** {@code struct timer_list} without debug fields. */
    public static final StructLayout TIMER_LIST = MemoryLayout.structLayout(
            ValueLayout.ADDRESS.withName("entry_next"),
            ValueLayout.ADDRESS.withName("entry_pprev"),
            ValueLayout.JAVA_LONG.withName("expires"),
            ValueLayout.ADDRESS.withName("function"),
            ValueLayout.JAVA_INT.withName("flags"),
            MemoryLayout.paddingLayout(4)).withName("timer_list");

    static final long TIMER_BASE_SIZE = TIMER_BASE.byteSize();
    static final long TIMER_LIST_SIZE = TIMER_LIST.byteSize();
    static final long BASE_CPU = TIMER_BASE.byteOffset(MemoryLayout.PathElement.groupElement("cpu"));
    static final long BASE_CLK = TIMER_BASE.byteOffset(MemoryLayout.PathElement.groupElement("clk"));
    static final long BASE_NEXT_EXPIRY = TIMER_BASE.byteOffset(MemoryLayout.PathElement.groupElement("next_expiry"));
    static final long BASE_LOCK = TIMER_BASE.byteOffset(MemoryLayout.PathElement.groupElement("lock"));
    static final long TIMER_FLAGS = TIMER_LIST.byteOffset(MemoryLayout.PathElement.groupElement("flags"));
    static final long TIMER_EXPIRES = TIMER_LIST.byteOffset(MemoryLayout.PathElement.groupElement("expires"));

    /** {@code &timer_bases}: its offset in every per-CPU area (the first 64 bytes stand for other per-CPU variables). */
    public static final long PCPU_TIMER_BASES = 64;
    /** One CPU's per-CPU area: the bases, rounded up to whole pages. */
    public static final long UNIT_SIZE = roundUp(PCPU_TIMER_BASES + NR_BASES * TIMER_BASE_SIZE, 4096);
    /** At most this many CPUs get an area (the first ones of the set): enough for any mix, cheap on huge machines. */
    public static final int MAX_CPUS = 64;

    /** Every address: {@code per_cpu_ptr} yields raw addresses, as in C; only this object's arena is read through it. */
    private static final MemorySegment ALL = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    /** The flags {@link #rawSpinLockIrqsave} saves: interrupts on, as always in user space (Java cannot run {@code pushf}). */
    public static final long X86_EFLAGS_IF = 0x200L;
    private static final long JIFFIES = 4_294_937_296L; // INITIAL_JIFFIES on 64-bit, as (unsigned int)(-300*HZ) with HZ=100
    private static final long NEXT_MAX_DELTA = (1L << 30) - 1; // TIMER_NEXT_MAX_DELTA: ((1UL << 30) - 1)

    private final Arena arena;
    private final MemorySegment perCpuOffset;
    private final MemorySegment timers;
    private final int ntimers;
    private final CpuMask cpus;
    private final Map<Integer, Integer> firstTouchedOn;

    private TimerBases(Arena arena, MemorySegment perCpuOffset, MemorySegment timers, int ntimers, CpuMask cpus,
                       Map<Integer, Integer> firstTouchedOn) {
        this.arena = arena;
        this.perCpuOffset = perCpuOffset;
        this.timers = timers;
        this.ntimers = ntimers;
        this.cpus = cpus;
        this.firstTouchedOn = Collections.unmodifiableMap(firstTouchedOn);
    }

    /**
     * Builds per-CPU areas for {@code cpus} (at most {@value #MAX_CPUS}), pinning through {@code os}, and
     * {@code ntimers} timers spread over them, shuffled with {@code seed}: a quarter each plain,
     * {@code TIMER_PINNED}, {@code TIMER_DEFERRABLE} and both; CPUs uniform over the areas; a random
     * wheel index; never {@code TIMER_MIGRATING} (nothing would clear it).
     *
     * @param ntimers a power of two, so the loops can wrap with a mask
     */
    public static TimerBases create(Os os, CpuMask cpus, int ntimers, long seed) {
        if (cpus.isEmpty()) throw new IllegalArgumentException("no CPUs to give timer bases");
        if (ntimers < 4 || Integer.bitCount(ntimers) != 1) throw new IllegalArgumentException("ntimers " + ntimers + ": a power of two >= 4");
        int[] cpuList = cpus.stream().limit(MAX_CPUS).toArray();
        int nrCpuIds = Math.max(os.nrCpuIds(), cpuList[cpuList.length - 1] + 1);
        // Shared by design: each area is allocated by a thread pinned to its CPU, read by the measuring threads.
        Arena arena = Arena.ofShared();
        try {
            MemorySegment offsets = arena.allocate(ValueLayout.JAVA_LONG, nrCpuIds);
            Map<Integer, Integer> firstTouchedOn = new LinkedHashMap<>();
            for (int cpu : cpuList) {
                MemorySegment unit = allocateOn(os, arena, cpu, firstTouchedOn);
                offsets.setAtIndex(ValueLayout.JAVA_LONG, cpu, unit.address());
            }
            MemorySegment timers = arena.allocate(TIMER_LIST, ntimers);
            int[] kinds = {0, TIMER_PINNED, TIMER_DEFERRABLE, TIMER_PINNED | TIMER_DEFERRABLE};
            SplittableRandom rnd = new SplittableRandom(seed);
            for (int i = 0; i < ntimers; i++) {
                int cpu = cpuList[rnd.nextInt(cpuList.length)];
                int idx = rnd.nextInt(WHEEL_SIZE);
                int flags = (idx << TIMER_ARRAYSHIFT) | kinds[i & 3] | cpu;
                MemorySegment t = timers.asSlice(i * TIMER_LIST_SIZE, TIMER_LIST_SIZE);
                t.set(ValueLayout.JAVA_LONG, TIMER_EXPIRES, JIFFIES + 1 + rnd.nextInt(1000));
                t.set(ValueLayout.JAVA_INT, TIMER_FLAGS, flags);
            }
            shuffleFlags(timers, ntimers, rnd);
            return new TimerBases(arena, offsets, timers, ntimers,
                    CpuMask.of(Math.max(cpus.nbits(), nrCpuIds), cpuList), firstTouchedOn);
        } catch (RuntimeException | Error e) {
            arena.close();
            throw e;
        }
    }

    /** Fisher-Yates over the timers' flags, so the four kinds come in no fixed order. */
    private static void shuffleFlags(MemorySegment timers, int n, SplittableRandom rnd) {
        for (int i = n - 1; i > 0; i--) {
            int j = rnd.nextInt(i + 1);
            long a = i * TIMER_LIST_SIZE + TIMER_FLAGS, b = j * TIMER_LIST_SIZE + TIMER_FLAGS;
            int fa = timers.get(ValueLayout.JAVA_INT, a);
            timers.set(ValueLayout.JAVA_INT, a, timers.get(ValueLayout.JAVA_INT, b));
            timers.set(ValueLayout.JAVA_INT, b, fa);
        }
    }

    /** One CPU's area, allocated (zeroed: the first touch) and initialised by a thread pinned to {@code cpu}. */
    private static MemorySegment allocateOn(Os os, Arena arena, int cpu, Map<Integer, Integer> firstTouchedOn) {
        AtomicReference<MemorySegment> unit = new AtomicReference<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicReference<Integer> ranOn = new AtomicReference<>();
        Thread t = Thread.ofPlatform().name("corescope-timer_bases-" + cpu).start(() -> {
            try (Pinning p = os.pin(cpu)) {
                MemorySegment u = arena.allocate(UNIT_SIZE, 4096);
                for (int i = 0; i < NR_BASES; i++) initTimerBase(u.asSlice(PCPU_TIMER_BASES + i * TIMER_BASE_SIZE, TIMER_BASE_SIZE), cpu);
                ranOn.set(os.currentCpu());
                unit.set(u);
            } catch (Throwable e) {
                failure.set(e);
            }
        });
        // Waits out an interrupt too: the thread allocates from the arena create() closes when this throws.
        if (Threads.joinIgnoringInterrupts(t)) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while building CPU " + cpu + "'s timer bases");
        }
        if (failure.get() instanceof RuntimeException r) throw r;
        if (failure.get() instanceof Error e) throw e;
        if (failure.get() != null) throw new IllegalStateException(failure.get());
        firstTouchedOn.put(cpu, ranOn.get());
        return unit.get();
    }

    /** {@code init_timer_cpu()}: {@code base->cpu}, {@code base->clk = jiffies}, {@code next_expiry}. */
    private static void initTimerBase(MemorySegment base, int cpu) {
        base.set(ValueLayout.JAVA_INT, BASE_CPU, cpu);
        base.set(ValueLayout.JAVA_LONG, BASE_CLK, JIFFIES);
        base.set(ValueLayout.JAVA_LONG, BASE_NEXT_EXPIRY, JIFFIES + NEXT_MAX_DELTA);
    }

    /** {@code &timer_bases[index]}: a per-CPU address, valid only through {@link #perCpuPtr}. */
    static long timerBases(int index) {
        return PCPU_TIMER_BASES + index * TIMER_BASE_SIZE;
    }

    /** {@code per_cpu_ptr(ptr, cpu)}: {@code ptr + __per_cpu_offset[cpu]}, the table at {@code perCpuOffset}. */
    static long perCpuPtr(long ptr, int cpu, long perCpuOffset) {
        return ptr + ALL.get(ValueLayout.JAVA_LONG_UNALIGNED, perCpuOffset + 8L * cpu);
    }

    /** {@code per_cpu_ptr} with {@code READ_ONCE(__per_cpu_offset[cpu])}: an opaque read C2 may neither merge nor drop. */
    static long perCpuPtrReload(long ptr, int cpu, long perCpuOffset) {
        return ptr + (long) LONG.getOpaque(ALL, perCpuOffset + 8L * cpu);
    }

    /**
     * {@code get_timer_cpu_base()} before seed 001: a deferrable timer takes {@code per_cpu_ptr} twice,
     * both plain loads, so C2 may share one, as GCC does in the C twin (variant {@code before}).
     */
    public static long getTimerCpuBaseBefore(int tflags, int cpu, long perCpuOffset) {
        int index = (tflags & TIMER_PINNED) != 0 ? BASE_LOCAL : BASE_GLOBAL;
        long base = perCpuPtr(timerBases(index), cpu, perCpuOffset);
        if ((tflags & TIMER_DEFERRABLE) != 0) base = perCpuPtr(timerBases(BASE_DEF), cpu, perCpuOffset);
        return base;
    }

    /** The same with both lookups kept ({@link #perCpuPtrReload}): variant {@code before_two_loads}. */
    public static long getTimerCpuBaseBeforeTwoLoads(int tflags, int cpu, long perCpuOffset) {
        int index = (tflags & TIMER_PINNED) != 0 ? BASE_LOCAL : BASE_GLOBAL;
        long base = perCpuPtrReload(timerBases(index), cpu, perCpuOffset);
        if ((tflags & TIMER_DEFERRABLE) != 0) base = perCpuPtrReload(timerBases(BASE_DEF), cpu, perCpuOffset);
        return base;
    }

    /** {@code get_timer_cpu_base()} after seed 001: the index first, then one {@code per_cpu_ptr}. */
    public static long getTimerCpuBaseAfter(int tflags, int cpu, long perCpuOffset) {
        int index = (tflags & TIMER_PINNED) != 0 ? BASE_LOCAL : BASE_GLOBAL;
        if ((tflags & TIMER_DEFERRABLE) != 0) index = BASE_DEF;
        return perCpuPtr(timerBases(index), cpu, perCpuOffset);
    }

    /**
     * {@code raw_spin_lock_irqsave(&base->lock, flags)}: the queued spinlock's uncontended fast path, one
     * acquiring compare-and-exchange of the lock word from 0 to 1 ({@code lock cmpxchg}), spinning while
     * held. Out of line, as {@code _raw_spin_lock_irqsave()} is in kernel/locking/spinlock.c (JMH's forks
     * and {@link JavaMachineCode} apply the hint), so the base is computed before an opaque call.
     *
     * @param base a timer base's address (one this class built)
     * @return the saved flags: always {@link #X86_EFLAGS_IF}
     */
    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    public static long rawSpinLockIrqsave(long base) {
        long lock = base + BASE_LOCK;
        while ((int) INT.compareAndExchangeAcquire(ALL, lock, 0, 1) != 0) {
            while ((int) INT.getOpaque(ALL, lock) != 0) Thread.onSpinWait();
        }
        return X86_EFLAGS_IF;
    }

    /** {@code raw_spin_unlock_irqrestore(&base->lock, flags)}: a release store of 0, out of line as the lock is. */
    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    public static void rawSpinUnlockIrqrestore(long base, long flags) {
        INT.setRelease(ALL, base + BASE_LOCK, 0);
    }

    /**
     * {@code lock_timer_base()} with the old {@code get_timer_cpu_base()} (kernel/time/timer.c): read the
     * flags once, skip a migrating timer, find the base, lock it, retry if the flags changed. Returns the
     * base WITH ITS LOCK HELD: the caller unlocks it ({@link #rawSpinUnlockIrqrestore}).
     */
    public static long lockTimerBaseBefore(long timer, long perCpuOffset) {
        while (true) {
            int tf = (int) INT.getOpaque(ALL, timer + TIMER_FLAGS);
            if ((tf & TIMER_MIGRATING) == 0) {
                long base = getTimerCpuBaseBefore(tf, tf & TIMER_CPUMASK, perCpuOffset);
                long flags = rawSpinLockIrqsave(base);
                if ((int) INT.getOpaque(ALL, timer + TIMER_FLAGS) == tf) return base;
                rawSpinUnlockIrqrestore(base, flags);
            }
            Thread.onSpinWait();
        }
    }

    /** {@link #lockTimerBaseBefore} with {@link #getTimerCpuBaseBeforeTwoLoads}; returns with the base locked. */
    public static long lockTimerBaseBeforeTwoLoads(long timer, long perCpuOffset) {
        while (true) {
            int tf = (int) INT.getOpaque(ALL, timer + TIMER_FLAGS);
            if ((tf & TIMER_MIGRATING) == 0) {
                long base = getTimerCpuBaseBeforeTwoLoads(tf, tf & TIMER_CPUMASK, perCpuOffset);
                long flags = rawSpinLockIrqsave(base);
                if ((int) INT.getOpaque(ALL, timer + TIMER_FLAGS) == tf) return base;
                rawSpinUnlockIrqrestore(base, flags);
            }
            Thread.onSpinWait();
        }
    }

    /** {@link #lockTimerBaseBefore} with the new {@code get_timer_cpu_base()}; returns with the base locked. */
    public static long lockTimerBaseAfter(long timer, long perCpuOffset) {
        while (true) {
            int tf = (int) INT.getOpaque(ALL, timer + TIMER_FLAGS);
            if ((tf & TIMER_MIGRATING) == 0) {
                long base = getTimerCpuBaseAfter(tf, tf & TIMER_CPUMASK, perCpuOffset);
                long flags = rawSpinLockIrqsave(base);
                if ((int) INT.getOpaque(ALL, timer + TIMER_FLAGS) == tf) return base;
                rawSpinUnlockIrqrestore(base, flags);
            }
            Thread.onSpinWait();
        }
    }

    /** One {@link #lockTimerBaseBefore} and the caller's unlock (the C twin's {@code LOCK_UNLOCK}): a mod_timer() that found nothing to do. */
    public static long lockUnlockBefore(long timer, long perCpuOffset) {
        long base = lockTimerBaseBefore(timer, perCpuOffset);
        rawSpinUnlockIrqrestore(base, X86_EFLAGS_IF);
        return base;
    }

    /** One {@link #lockTimerBaseBeforeTwoLoads} and the caller's unlock. */
    public static long lockUnlockBeforeTwoLoads(long timer, long perCpuOffset) {
        long base = lockTimerBaseBeforeTwoLoads(timer, perCpuOffset);
        rawSpinUnlockIrqrestore(base, X86_EFLAGS_IF);
        return base;
    }

    /** One {@link #lockTimerBaseAfter} and the caller's unlock. */
    public static long lockUnlockAfter(long timer, long perCpuOffset) {
        long base = lockTimerBaseAfter(timer, perCpuOffset);
        rawSpinUnlockIrqrestore(base, X86_EFLAGS_IF);
        return base;
    }

    /** {@code __per_cpu_offset[]}. */
    public MemorySegment perCpuOffset() {
        return perCpuOffset;
    }

    /** The timers as a segment, for the C twin. */
    public MemorySegment timers() {
        return timers;
    }

    /** The address of timer {@code i & (ntimers - 1)}. */
    public long timerAddress(int i) {
        return timers.address() + (long) (i & (ntimers - 1)) * TIMER_LIST_SIZE;
    }

    public int ntimers() {
        return ntimers;
    }

    /** The CPUs that have per-CPU areas (and timers). */
    public CpuMask cpus() {
        return cpus;
    }

    /** For each CPU with an area, the CPU its allocating thread ran on ({@code sched_getcpu}) when it touched it. */
    public Map<Integer, Integer> firstTouchedOn() {
        return firstTouchedOn;
    }

    /** Timer {@code i}'s flags. */
    public int flags(int i) {
        return timers.get(ValueLayout.JAVA_INT, (long) (i & (ntimers - 1)) * TIMER_LIST_SIZE + TIMER_FLAGS);
    }

    @Override
    public void close() {
        arena.close();
    }

    private static long roundUp(long v, long to) {
        return (v + to - 1) / to * to;
    }
}
