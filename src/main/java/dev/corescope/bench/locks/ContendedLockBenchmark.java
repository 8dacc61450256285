package dev.corescope.bench.locks;

import dev.corescope.sys.Pinning;
import dev.corescope.sys.internal.Os;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.ThreadParams;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The seed measured one CPU alone; a lock earns its keep under contention. Here two or more
 * threads, each pinned to its own CPU of {@link #cpus} (a pair from the topology: SMT siblings,
 * same L3, across packages), hammer one lock, and every thread counts what it got.
 *
 * <p>Throughput mode: the primary score is all threads' operations per microsecond together, so
 * {@code 1000 / score} is the ns per operation the lock hands out; the secondary scores
 * {@code thread0}, {@code thread1}, ... are each thread's share, the fairness. A test-and-set lock
 * promises none: the thread that just unlocked often wins again, its line still in its cache.
 *
 * <p>BASELINE, {@link #atomicLongIncrement()}: one contended {@code lock xadd}: the cache line
 * bouncing between the CPUs with no lock around it.
 *
 * <p>APPROACH 1, {@link #spinLockUnlock()}: {@link SpinLock} around a shared counter (the C twin
 * {@code cs_locks_contend} runs the same with threads in C).
 *
 * <p>APPROACH 2, {@link #synchronizedBlock()} and APPROACH 3, {@link #reentrantLock()}: Java's
 * locks, which spin briefly and then park the loser, trading throughput for not burning the CPU.
 *
 * <p>Where the analogy stops: the kernel's spinlock is a queued (MCS) lock, fair by design, and
 * its holders cannot be preempted; here a preempted holder makes every other thread spin until it
 * runs again.
 *
 * <p>HOW TO RUN: {@code ./run.sh bench locks} (picks the pairs), or
 * {@code ./run.sh jmh 'ContendedLockBenchmark' -t 2 -p cpus=0,1}: as many threads as CPUs listed.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 2, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@Warmup(iterations = 5, time = 200, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 10, time = 200, timeUnit = TimeUnit.MILLISECONDS)
@Threads(2)
@State(Scope.Benchmark)
public class ContendedLockBenchmark {

    /** Most threads whose share is reported: one counter method each in {@link Worker}. */
    public static final int MAX_THREADS = 8;

    /** Thread i is pinned to the i-th CPU of this list (comma-separated); empty: unpinned. */
    @Param("")
    public String cpus;

    private SpinLock spinLock;
    private final Object monitor = new Object();
    private final ReentrantLock reentrantLock = new ReentrantLock();
    private final AtomicLong atomicLong = new AtomicLong();
    private long counter;

    @Setup(Level.Trial)
    public void create() {
        spinLock = new SpinLock();
    }

    @TearDown(Level.Trial)
    public void close() {
        spinLock.close();
    }

    /**
     * One per thread: pins it, and counts its operations. JMH sums each counter over the threads;
     * {@code threadK()} is non-zero only on thread K, so each sum is that thread's share.
     */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Worker {
        private int index;
        private Pinning pinning;
        /** Operations in this iteration; JMH reads the counters after it. */
        long ops;

        @Setup(Level.Trial)
        public void pin(ThreadParams thread, BenchmarkParams params) {
            index = thread.getThreadIndex();
            int[] list = parseCpus(params.getParam("cpus"));
            if (list.length > 0) pinning = Os.live().pinChecked(list[index % list.length]);
        }

        @TearDown(Level.Trial)
        public void unpin() {
            if (pinning != null) pinning.close();
            pinning = null;
        }

        @Setup(Level.Iteration)
        public void reset() {
            ops = 0;
        }

        private long share(int thread) {
            return index == thread ? ops : 0;
        }

        public long thread0() {
            return share(0);
        }

        public long thread1() {
            return share(1);
        }

        public long thread2() {
            return share(2);
        }

        public long thread3() {
            return share(3);
        }

        public long thread4() {
            return share(4);
        }

        public long thread5() {
            return share(5);
        }

        public long thread6() {
            return share(6);
        }

        public long thread7() {
            return share(7);
        }
    }

    static int[] parseCpus(String list) {
        if (list == null || list.isBlank()) return new int[0];
        return Arrays.stream(list.split(",")).map(String::strip).mapToInt(Integer::parseInt).toArray();
    }

    @Benchmark
    public long atomicLongIncrement(Worker w) {
        w.ops++;
        return atomicLong.incrementAndGet();
    }

    @Benchmark
    public long spinLockUnlock(Worker w) {
        spinLock.lock();
        long c = ++counter;
        spinLock.unlock();
        w.ops++;
        return c;
    }

    @Benchmark
    public long synchronizedBlock(Worker w) {
        long c;
        synchronized (monitor) {
            c = ++counter;
        }
        w.ops++;
        return c;
    }

    @Benchmark
    public long reentrantLock(Worker w) {
        long c;
        reentrantLock.lock();
        try {
            c = ++counter;
        } finally {
            reentrantLock.unlock();
        }
        w.ops++;
        return c;
    }
}
