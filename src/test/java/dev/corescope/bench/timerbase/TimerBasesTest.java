package dev.corescope.bench.timerbase;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.sys.internal.Affinity;
import dev.corescope.sys.internal.Os;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout.PathElement;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class TimerBasesTest {

    private static TimerBases tb;

    @BeforeAll
    static void build() {
        tb = TimerBases.create(Os.live(), Affinity.processAllowed(), 256, 42);
    }

    @AfterAll
    static void free() {
        tb.close();
    }

    /** native/src/timerbase.c asserts the same numbers with _Static_assert. */
    @Test
    void layoutsMatchTheCStructs() {
        assertEquals(4736, TimerBases.TIMER_BASE.byteSize());
        assertEquals(64, TimerBases.TIMER_BASE.byteAlignment());
        assertEquals(32, TimerBases.TIMER_BASE.byteOffset(PathElement.groupElement("cpu")));
        assertEquals(40, TimerBases.TIMER_BASE.byteOffset(PathElement.groupElement("pending_map")));
        assertEquals(112, TimerBases.TIMER_BASE.byteOffset(PathElement.groupElement("vectors")));
        assertEquals(40, TimerBases.TIMER_LIST.byteSize());
        assertEquals(32, TimerBases.TIMER_LIST.byteOffset(PathElement.groupElement("flags")));
        assertEquals(16384, TimerBases.UNIT_SIZE);
    }

    @Test
    void beforeAndAfterFindTheBaseTheFlagsName() {
        long offsets = tb.perCpuOffset().address();
        for (int i = 0; i < tb.ntimers(); i++) {
            int tf = tb.flags(i);
            int cpu = tf & TimerBases.TIMER_CPUMASK;
            long expected = expectedBase(tb, i);
            assertEquals(expected, TimerBases.getTimerCpuBaseBefore(tf, cpu, offsets), "before, timer " + i);
            assertEquals(expected, TimerBases.getTimerCpuBaseBeforeTwoLoads(tf, cpu, offsets), "before_two_loads, timer " + i);
            assertEquals(expected, TimerBases.getTimerCpuBaseAfter(tf, cpu, offsets), "after, timer " + i);
            assertEquals(expected, TimerBases.lockUnlockBefore(tb.timerAddress(i), offsets));
            assertEquals(expected, TimerBases.lockUnlockBeforeTwoLoads(tb.timerAddress(i), offsets));
            assertEquals(expected, TimerBases.lockUnlockAfter(tb.timerAddress(i), offsets));
            assertEquals(cpu, baseCpu(expected), "base->cpu of timer " + i);
        }
    }

    @Test
    void flagsPickTheBaseAsTheKernelDoes() {
        int cpu = tb.cpus().first();
        long offsets = tb.perCpuOffset().address();
        long area = tb.perCpuOffset().getAtIndex(ValueLayout.JAVA_LONG, cpu);
        long size = TimerBases.TIMER_BASE.byteSize();
        long local = area + TimerBases.PCPU_TIMER_BASES + TimerBases.BASE_LOCAL * size;
        long global = area + TimerBases.PCPU_TIMER_BASES + TimerBases.BASE_GLOBAL * size;
        long def = area + TimerBases.PCPU_TIMER_BASES + TimerBases.BASE_DEF * size;
        assertEquals(global, TimerBases.getTimerCpuBaseBefore(cpu, cpu, offsets));
        assertEquals(local, TimerBases.getTimerCpuBaseBefore(TimerBases.TIMER_PINNED | cpu, cpu, offsets));
        assertEquals(def, TimerBases.getTimerCpuBaseBefore(TimerBases.TIMER_DEFERRABLE | cpu, cpu, offsets));
        assertEquals(def, TimerBases.getTimerCpuBaseAfter(TimerBases.TIMER_DEFERRABLE | TimerBases.TIMER_PINNED | cpu, cpu, offsets));
        assertEquals(local, TimerBases.getTimerCpuBaseAfter(TimerBases.TIMER_PINNED | cpu, cpu, offsets));
        assertEquals(global, TimerBases.getTimerCpuBaseAfter(cpu, cpu, offsets));
    }

    @Test
    void theTimersAreAQuarterOfEachKindOnTheCpusWithAreas() {
        int[] kinds = new int[4];
        for (int i = 0; i < tb.ntimers(); i++) {
            int tf = tb.flags(i);
            assertEquals(0, tf & TimerBases.TIMER_MIGRATING, "no timer is migrating");
            assertEquals(true, tb.cpus().test(tf & TimerBases.TIMER_CPUMASK), "timer " + i + "'s CPU has an area");
            kinds[((tf & TimerBases.TIMER_PINNED) != 0 ? 1 : 0) + ((tf & TimerBases.TIMER_DEFERRABLE) != 0 ? 2 : 0)]++;
        }
        for (int k : kinds) assertEquals(tb.ntimers() / 4, k);
    }

    @Test
    void eachAreaIsFirstTouchedByAThreadOnItsOwnCpu() {
        assertEquals(tb.cpus().weight(), tb.firstTouchedOn().size());
        tb.firstTouchedOn().forEach((cpu, ranOn) -> assertEquals(cpu, ranOn, "CPU " + cpu + "'s area"));
    }

    @Test
    void areasOfDifferentCpusAreDistinctPages() {
        assumeTrue(tb.cpus().weight() >= 2, "needs two allowed CPUs");
        int a = tb.cpus().first();
        int b = tb.cpus().next(a);
        long ua = tb.perCpuOffset().getAtIndex(ValueLayout.JAVA_LONG, a);
        long ub = tb.perCpuOffset().getAtIndex(ValueLayout.JAVA_LONG, b);
        assertNotEquals(ua, ub);
        assertEquals(0, ua % 4096);
        assertEquals(0, ub % 4096);
        assertEquals(true, Math.abs(ua - ub) >= TimerBases.UNIT_SIZE);
    }

    /** lock_timer_base() waits while TIMER_MIGRATING is set and returns the base of the flags it finally saw. */
    @Test
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    void lockTimerBaseSpinsWhileTheTimerMigrates() throws Exception {
        try (TimerBases own = TimerBases.create(Os.live(), Affinity.processAllowed(), 4, 7)) {
            long timer = own.timerAddress(0);
            int flags = own.flags(0);
            long flagsOffset = TimerBases.TIMER_LIST.byteOffset(PathElement.groupElement("flags"));
            MemorySegment timers = own.timers();
            timers.set(ValueLayout.JAVA_INT, flagsOffset, flags | TimerBases.TIMER_MIGRATING);
            Thread clearer = Thread.ofPlatform().start(() -> {
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                timers.set(ValueLayout.JAVA_INT, flagsOffset, flags);
            });
            long base = TimerBases.lockUnlockAfter(timer, own.perCpuOffset().address());
            clearer.join();
            assertEquals(expectedBase(own, 0), base);
        }
    }

    /**
     * Each Java lookup takes the base's lock as kernel/time/timer.c's lock_timer_base() does:
     * it returns with exactly its base locked (every other base free), the unlock frees it, and
     * so per lookup one lock is taken and one released. The model without the lock returned
     * with the lock word untouched.
     */
    @Test
    void eachLookupReturnsWithItsBaseLockedAndTheUnlockFreesIt() {
        long offsets = tb.perCpuOffset().address();
        java.util.Set<Long> bases = new java.util.HashSet<>();
        for (int i = 0; i < tb.ntimers(); i++) bases.add(expectedBase(tb, i));
        java.util.Map<String, java.util.function.LongBinaryOperator> lookups = new java.util.LinkedHashMap<>();
        lookups.put("before", TimerBases::lockTimerBaseBefore);
        lookups.put("before_two_loads", TimerBases::lockTimerBaseBeforeTwoLoads);
        lookups.put("after", TimerBases::lockTimerBaseAfter);
        lookups.forEach((variant, lookup) -> {
            int acquired = 0, released = 0;
            for (int i = 0; i < tb.ntimers(); i++) {
                long base = lookup.applyAsLong(tb.timerAddress(i), offsets);
                assertEquals(expectedBase(tb, i), base, variant + ", timer " + i);
                for (long b : bases) {
                    assertEquals(b == base, isLocked(b), variant + ", timer " + i + ": only its base is locked");
                }
                acquired++;
                TimerBases.rawSpinUnlockIrqrestore(base, TimerBases.X86_EFLAGS_IF);
                if (!isLocked(base)) released++;
            }
            assertEquals(tb.ntimers(), acquired, variant);
            assertEquals(tb.ntimers(), released, variant + ": every lock taken was released");
        });
    }

    /** A lookup of a base another thread holds waits for it (the lock is a real lock, not a flag). */
    @Test
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    void aLookupWaitsForTheBaseLockAnotherThreadHolds() throws Exception {
        long offsets = tb.perCpuOffset().address();
        long timer = tb.timerAddress(0);
        long base = expectedBase(tb, 0);
        long flags = TimerBases.rawSpinLockIrqsave(base);
        java.util.concurrent.atomic.AtomicBoolean released = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.atomic.AtomicBoolean sawReleased = new java.util.concurrent.atomic.AtomicBoolean();
        Thread other = Thread.ofPlatform().start(() -> {
            long b = TimerBases.lockTimerBaseAfter(timer, offsets);
            sawReleased.set(released.get());
            TimerBases.rawSpinUnlockIrqrestore(b, TimerBases.X86_EFLAGS_IF);
        });
        Thread.sleep(20);
        released.set(true);
        TimerBases.rawSpinUnlockIrqrestore(base, flags);
        other.join();
        assertEquals(true, sawReleased.get(), "the lookup returned only after the holder released the base");
        assertEquals(false, isLocked(base));
    }

    @Test
    void aSetWithoutCpusIsRefused() {
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> TimerBases.create(Os.live(), CpuMask.empty(4), 16, 1));
    }

    /** The C twin reads the same memory through the same table: its bases are Java's, address for address. */
    @Test
    void theCTwinFindsTheSameBasesAsJava() {
        assumeTrue(TimerbaseTwins.unavailableReason().isEmpty(), () -> "C twins not built: " + TimerbaseTwins.unavailableReason().orElseThrow());
        long calls = 4L * tb.ntimers();
        long expected = 0;
        long expectedCpus = 0;
        for (int n = 0; n < calls; n++) {
            expected += expectedBase(tb, n);
            if (n < tb.ntimers()) expectedCpus += tb.flags(n) & TimerBases.TIMER_CPUMASK;
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment sink = arena.allocate(ValueLayout.JAVA_LONG);
            for (TimerbaseTwins.Variant v : new TimerbaseTwins.Variant[]{TimerbaseTwins.Variant.BEFORE,
                    TimerbaseTwins.Variant.BEFORE_TWO_LOADS, TimerbaseTwins.Variant.AFTER}) {
                sink.set(ValueLayout.JAVA_LONG, 0, 0);
                TimerbaseTwins.batch(v, tb.perCpuOffset(), tb.timers(), tb.ntimers(), calls, sink);
                assertEquals(expected, sink.get(ValueLayout.JAVA_LONG, 0), v + ": sum of base addresses");
                MemorySegment ns = arena.allocate(ValueLayout.JAVA_INT, tb.ntimers());
                assertEquals(expectedCpus, TimerbaseTwins.samples(v, tb.perCpuOffset(), tb.timers(), tb.ntimers(), ns, tb.ntimers()),
                        v + ": sum of base->cpu");
            }
        }
    }

    @Test
    void theFamilysBasesArePlacedThroughItsOsSeam() {
        // CPUs 40 and 50 of a 64-CPU machine that is not this one: only the seam can pin there
        CpuMask far = CpuMask.of(64, 40, 50);
        try (TimerBases own = TimerBases.create(new dev.corescope.bench.FakeOs(far), far, 16, 3)) {
            assertEquals("40,50", own.cpus().toList());
            assertEquals(java.util.Map.of(40, 40, 50, 50), own.firstTouchedOn(), "each area first touched on its own CPU, as the OS said");
        }
    }

    /** Where timer {@code i}'s base must be, computed the long way from its flags and {@code __per_cpu_offset[]}. */
    private static long expectedBase(TimerBases tb, int i) {
        int tf = tb.flags(i);
        int index = (tf & TimerBases.TIMER_DEFERRABLE) != 0 ? TimerBases.BASE_DEF
                : (tf & TimerBases.TIMER_PINNED) != 0 ? TimerBases.BASE_LOCAL : TimerBases.BASE_GLOBAL;
        long unit = tb.perCpuOffset().getAtIndex(ValueLayout.JAVA_LONG, tf & TimerBases.TIMER_CPUMASK);
        return unit + TimerBases.PCPU_TIMER_BASES + index * TimerBases.TIMER_BASE_SIZE;
    }

    /** Whether the lock word of the base at {@code base} is held. */
    private static boolean isLocked(long base) {
        return (int) ValueLayout.JAVA_INT.varHandle().getVolatile(MemorySegment.NULL.reinterpret(Long.MAX_VALUE), base + TimerBases.BASE_LOCK) != 0;
    }

    /** {@code base->cpu} of the base at {@code address}. */
    private static int baseCpu(long address) {
        return MemorySegment.NULL.reinterpret(Long.MAX_VALUE).get(ValueLayout.JAVA_INT_UNALIGNED, address + TimerBases.BASE_CPU);
    }
}
