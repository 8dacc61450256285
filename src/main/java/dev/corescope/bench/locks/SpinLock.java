package dev.corescope.bench.locks;

import dev.corescope.sys.tool.RawMemory;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * A test-and-set spinlock on an off-heap word: the Java twin of {@code cs_spin_lock} in
 * {@code native/src/locks.c}, and the userspace stand-in for the kernel's {@code spin_lock()} fast
 * path. Locking is one {@code VarHandle.getAndSet} (an {@code xchg} on x86, as
 * {@code __atomic_exchange_n} in the C twin); unlocking is one {@code setRelease} (a plain store
 * on x86). Under contention it waits reading, not writing (test-and-test-and-set), so waiters do
 * not keep stealing the line from the holder.
 *
 * <p>Two choices come from reading the JIT's code for the uncontended loop (JDK 25, x86-64):
 * <ul>
 *   <li>{@code getAndSet}, not {@code getAndSetAcquire}: only the former is a C2 intrinsic
 *       ({@code xchg}); the acquire form is a Java loop of a load and a {@code lock cmpxchg}.</li>
 *   <li>the word is reached as {@code (RawMemory.ALL, address)}, not through its own segment: a
 *       segment's bounds, alignment, read-only and liveness checks are reloaded after every
 *       {@code xchg} (a full fence), about 25 more instructions per lock/unlock: 1.32x this lock in
 *       a full {@code bench locks} run (3.283 against 2.479 ns), twice it in a run on a loaded
 *       machine. {@link SpinLockBenchmark} keeps that form as a row.</li>
 * </ul>
 *
 * <p>The word sits alone on a 64-byte line, so nothing else shares it.
 *
 * <p><b>Note:</b> not reentrant, no owner check, no fairness: what {@code spin_lock} gives. The
 * memory is in a shared arena (by design: a lock is for several threads) and, as in C, nothing
 * checks it is still there: {@link #close()} only after every thread is done with the lock.
 */
public final class SpinLock implements AutoCloseable {

    static final int CACHE_LINE_LENGTH = 64;
    private static final VarHandle WORD = ValueLayout.JAVA_INT.varHandle();
    private static final MemorySegment MEMORY = RawMemory.ALL;
    private static final int FREE = 0;
    private static final int HELD = 1;

    private final Arena arena = Arena.ofShared();
    private final long address = arena.allocate(CACHE_LINE_LENGTH, CACHE_LINE_LENGTH).address();

    public void lock() {
        while ((int) WORD.getAndSet(MEMORY, address, HELD) != FREE) {
            while ((int) WORD.getOpaque(MEMORY, address) != FREE) {
                Thread.onSpinWait();
            }
        }
    }

    public boolean tryLock() {
        return (int) WORD.getAndSet(MEMORY, address, HELD) == FREE;
    }

    public void unlock() {
        WORD.setRelease(MEMORY, address, FREE);
    }

    /** The word's address, 64-byte aligned (for tests of the layout and the lock's state). */
    long address() {
        return address;
    }

    @Override
    public void close() {
        arena.close();
    }
}
