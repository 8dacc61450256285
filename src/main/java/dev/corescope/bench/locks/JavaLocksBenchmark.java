package dev.corescope.bench.locks;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.StampedLock;

/**
 * Not in the seed: what Java's own mutual exclusion costs uncontended, beside the spinlock the
 * seed measured, so a Java developer can place {@code spin_lock_unlock} among the tools they have.
 * Each has a C analogue in the twin (default pthread mutex, recursive mutex, seqlock read,
 * {@code lock xadd}), labelled as an analogue, not the same code.
 *
 * <p>BASELINE, {@link #atomicLongIncrement()}: {@code AtomicLong.incrementAndGet}, one
 * {@code lock xadd}: the cheapest write that excludes, and no lock at all.
 *
 * <p>APPROACH 1, {@link #synchronizedBlock()}: a monitor; HotSpot's lightweight locking takes it
 * with a CAS on the object header and releases it with another.
 *
 * <p>APPROACH 2, {@link #reentrantLock()}: {@code ReentrantLock} (AQS: a CAS to take, a volatile
 * store and a check for waiters to release).
 *
 * <p>APPROACH 3, {@link #stampedLockOptimistic()}: {@code StampedLock.tryOptimisticRead} plus
 * {@code validate}: a read that writes nothing, so it excludes nothing and costs loads and a fence.
 *
 * <p>Where the analogy stops: none of these disables anything; a monitor that sees contention
 * inflates and parks threads, which the kernel's spinlock never does.
 *
 * <p>HOW TO RUN: {@code ./run.sh bench locks}, or {@code ./run.sh jmh 'JavaLocksBenchmark' -p cpu=1}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 2, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@Warmup(iterations = 5, time = 200, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 10, time = 200, timeUnit = TimeUnit.MILLISECONDS)
public class JavaLocksBenchmark extends PinnedBenchmark {

    private final Object monitor = new Object();
    private final ReentrantLock reentrantLock = new ReentrantLock();
    private final StampedLock stampedLock = new StampedLock();
    private final AtomicLong atomicLong = new AtomicLong();
    private long count;
    private long data = 42;

    @Benchmark
    public long atomicLongIncrement() {
        return atomicLong.incrementAndGet();
    }

    @Benchmark
    public long synchronizedBlock() {
        synchronized (monitor) {
            return ++count;
        }
    }

    @Benchmark
    public long reentrantLock() {
        reentrantLock.lock();
        try {
            return ++count;
        } finally {
            reentrantLock.unlock();
        }
    }

    @Benchmark
    public long stampedLockOptimistic() {
        long stamp = stampedLock.tryOptimisticRead();
        long value = data;
        if (!stampedLock.validate(stamp)) {
            stamp = stampedLock.readLock();
            try {
                value = data;
            } finally {
                stampedLock.unlockRead(stamp);
            }
        }
        return value;
    }
}
