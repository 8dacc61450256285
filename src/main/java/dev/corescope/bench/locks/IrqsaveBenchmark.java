package dev.corescope.bench.locks;

import dev.corescope.sys.tool.SignalMask;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.CompilerControl;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * Seed 004's question: is {@code spin_lock_irqsave} cheaper than saving the IRQ flags by hand
 * before {@code spin_lock}, and how much does not saving them at all gain? The seed measured
 * 21.099 ns (irqsave), 22.808 ns (manual save, then lock), 14.618 ns ({@code local_irq_disable} +
 * lock) and 13.256 ns for {@code local_irq_save}/{@code restore} alone.
 *
 * <p>Userspace cannot disable interrupts. The stand-in is the thread's signal mask
 * ({@link SignalMask}, {@code pthread_sigmask}): signals are what interrupt a thread. Every signal
 * but the synchronous ones is blocked, as {@code cli} leaves exceptions on.
 *
 * <p>BASELINE, {@link #irqSaveRestore()}: block saving the old mask, restore it; no lock.
 *
 * <p>APPROACH 1, {@link #spinLockIrqsave()}: one out-of-line helper blocks and locks, another
 * unlocks and restores, as the kernel's {@code _raw_spin_lock_irqsave} is one function.
 *
 * <p>APPROACH 1b, {@link #spinLockIrqsavePushf()}: the second stand-in, what
 * {@code local_irq_save()}/{@code local_irq_restore()} ran on the seed's kernel without the
 * {@code cli} (which faults in ring 3): {@code pushfq; pop} before the lock, {@code push; popfq}
 * after the unlock. Java cannot run those instructions, so each is a critical downcall
 * ({@link LocksTwins#localIrqSave()}, {@link LocksTwins#localIrqRestore(long)}) around the Java
 * SpinLock: two downcalls per element, whose cost the {@code function_call call=downcall_critical}
 * row shows; the C twin ({@code cs_locks_spin_lock_irqsave_pushf}) runs the same instructions
 * with no downcall, and is the row to compare with the seed.
 *
 * <p>APPROACH 2, {@link #irqsaveManual()}: the mask saved inline, then the lock.
 *
 * <p>APPROACH 3, {@link #irqDisableSpinLock()}: block without saving, lock, unlock, unblock the
 * whole set ({@code local_irq_enable} sets IF whatever it was before).
 *
 * <p>Where the analogy stops: {@code local_irq_save} is a few instructions ({@code pushf; pop;
 * cli} on x86); {@code pthread_sigmask} is the {@code rt_sigprocmask} system call, hundreds of ns
 * for a save and a restore. The lock and the one function call the seed was weighing vanish
 * inside two system calls, so the three irq variants come out equal within noise here, and all
 * far above a lock, where the seed found them within 2x of one. What saving the old mask costs
 * against not saving it is measured (spin_lock_irqsave against irq_disable_spin_lock), not
 * assumed; the seed did not say which instruction its 6.481 ns went to.
 *
 * <p>HOW TO RUN: {@code ./run.sh bench locks}, or {@code ./run.sh jmh 'IrqsaveBenchmark' -p cpu=1}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 2, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@Warmup(iterations = 5, time = 200, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 10, time = 200, timeUnit = TimeUnit.MILLISECONDS)
public class IrqsaveBenchmark extends PinnedBenchmark {

    private SpinLock lock;
    private SignalMask mask;
    /** The thread's mask before the trial: irqDisableSpinLock's unblock may unblock more than it blocked. */
    private SignalMask original;
    private long count;

    @Setup(Level.Trial)
    public void create() {
        lock = new SpinLock();
        mask = SignalMask.open();
        original = SignalMask.open();
        original.save();
    }

    @TearDown(Level.Trial)
    public void close() {
        original.restore();
        original.close();
        mask.close();
        lock.close();
    }

    @Benchmark
    public long irqSaveRestore() {
        mask.blockSaving();
        long c = ++count;
        mask.restore();
        return c;
    }

    @Benchmark
    public long spinLockIrqsave() {
        lockIrqsave(lock, mask);
        long c = ++count;
        unlockIrqrestore(lock, mask);
        return c;
    }

    @Benchmark
    public long spinLockIrqsavePushf() {
        long flags = lockIrqsavePushf(lock);
        long c = ++count;
        unlockIrqrestorePushf(lock, flags);
        return c;
    }

    @Benchmark
    public long irqsaveManual() {
        mask.blockSaving();
        lock.lock();
        long c = ++count;
        lock.unlock();
        mask.restore();
        return c;
    }

    @Benchmark
    public long irqDisableSpinLock() {
        mask.block();
        lock.lock();
        long c = ++count;
        lock.unlock();
        mask.unblock();
        return c;
    }

    /** {@code spin_lock_irqsave()} with the signal mask for flags, out of line as the kernel's {@code _raw_spin_lock_irqsave()}. */
    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    static void lockIrqsave(SpinLock lock, SignalMask flags) {
        flags.blockSaving();
        lock.lock();
    }

    /** {@code spin_lock_irqsave()} with {@code pushfq; pop} (a critical downcall) for flags, out of line. */
    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    static long lockIrqsavePushf(SpinLock lock) {
        long flags = LocksTwins.localIrqSave();
        lock.lock();
        return flags;
    }

    /** {@code spin_unlock_irqrestore()}: the release store, then {@code push; popf} (a critical downcall). */
    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    static void unlockIrqrestorePushf(SpinLock lock, long flags) {
        lock.unlock();
        LocksTwins.localIrqRestore(flags);
    }

    /** {@code spin_unlock_irqrestore()}: the release store, then the saved signal mask restored. */
    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    static void unlockIrqrestore(SpinLock lock, SignalMask flags) {
        lock.unlock();
        flags.restore();
    }
}
