package dev.corescope.bench.locks;

import dev.corescope.sys.tool.PthreadSpinLock;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;

/**
 * Seed 004's first line, "12.775 ns - 'clean' spin_lock_unlock": what one uncontended lock plus
 * unlock costs, timed per element of a loop as {@code time_bench_sample.c} did on an i7-2620M
 * (kernel 3.17, 2015).
 *
 * <p>BASELINE, {@link #forLoop()}: JMH's own loop around an empty method, the counterpart of
 * time_bench's {@code for_loop} row (0.360 ns there). Like time_bench, the overhead is shown, not
 * subtracted.
 *
 * <p>APPROACH 1, {@link #spinLockUnlock()}: {@link SpinLock}, a test-and-set word off-heap, locked
 * with one {@code xchg} and unlocked with one store, which is also the uncontended fast path of the
 * kernel's spinlock. Its C twin {@code cs_locks_spin_lock_unlock} runs the same loop inside C.
 *
 * <p>APPROACH 1b, {@link #spinLockUnlockBoundedSegment()}: the same lock with the word reached
 * through its own 64-byte segment, the textbook FFM way. Kept to show why {@link SpinLock} does not
 * do that: the segment's checks are reloaded after every {@code xchg}.
 *
 * <p>APPROACH 2, {@link #pthreadSpinLock()}: glibc's {@code pthread_spin_lock}/{@code unlock}, two
 * downcalls per element, so from Java this row is mostly the FFM transitions (compare
 * {@code function_call}); the C twin shows the lock alone.
 *
 * <p>Where the analogy stops: the kernel's {@code spin_lock} also disables preemption (the seed's
 * kernel counted it); a userspace thread can always be preempted while holding this lock, which is
 * why userspace spinlocks are only safe for very short sections.
 *
 * <p>HOW TO RUN: {@code ./run.sh bench locks} (with the C twins and the seed's figures beside), or
 * this class alone: {@code ./run.sh jmh 'SpinLockBenchmark' -p cpu=1}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 2, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@Warmup(iterations = 5, time = 200, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 10, time = 200, timeUnit = TimeUnit.MILLISECONDS)
public class SpinLockBenchmark extends PinnedBenchmark {

    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();

    private SpinLock lock;
    private Arena boundedArena;
    private MemorySegment boundedWord;
    private PthreadSpinLock pthreadLock;
    /** time_bench's {@code loops_cnt++}: something to do inside the critical section. */
    private long count;

    @Setup(Level.Trial)
    public void createLocks() {
        lock = new SpinLock();
        boundedArena = Arena.ofConfined();
        boundedWord = boundedArena.allocate(SpinLock.CACHE_LINE_LENGTH, SpinLock.CACHE_LINE_LENGTH);
        pthreadLock = PthreadSpinLock.create();
    }

    @TearDown(Level.Trial)
    public void closeLocks() {
        lock.close();
        boundedArena.close();
        pthreadLock.close();
    }

    @Benchmark
    public void forLoop() {
        // empty: what JMH's loop costs per call
    }

    @Benchmark
    public long spinLockUnlock() {
        lock.lock();
        long c = ++count;
        lock.unlock();
        return c;
    }

    @Benchmark
    public long spinLockUnlockBoundedSegment() {
        while ((int) INT.getAndSet(boundedWord, 0L, 1) != 0) {
            Thread.onSpinWait();
        }
        long c = ++count;
        INT.setRelease(boundedWord, 0L, 0);
        return c;
    }

    @Benchmark
    public long pthreadSpinLock() {
        pthreadLock.lock();
        long c = ++count;
        pthreadLock.unlock();
        return c;
    }
}
