package dev.corescope.sys.tool;

import dev.corescope.sys.NativeException;
import dev.corescope.sys.ffi.LibC;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * A glibc {@code pthread_spinlock_t} driven from Java: every {@link #lock()} and {@link #unlock()}
 * is one downcall, so from Java it costs two FFM transitions more than the lock itself (the C twin
 * {@code cs_locks_pthread_spin_lock} measures the lock alone). The pthread_spin functions return
 * an error number rather than setting errno.
 *
 * <p><b>Note:</b> a lock is for sharing, so its memory is in a shared arena (by design: any thread
 * may lock it); {@link #close()} must come after every thread is done with it.
 */
public final class PthreadSpinLock implements AutoCloseable {

    private final Arena arena;
    private final MemorySegment lock;

    private PthreadSpinLock(Arena arena, MemorySegment lock) {
        this.arena = arena;
        this.lock = lock;
    }

    /** {@code pthread_spin_init(lock, PTHREAD_PROCESS_PRIVATE)} on fresh, cache-line aligned memory. */
    public static PthreadSpinLock create() {
        Arena arena = Arena.ofShared();
        MemorySegment lock = arena.allocate(LibC.pthread_spinlock_t, 64);
        int rc = LibC.pthread_spin_init(lock, LibC.PTHREAD_PROCESS_PRIVATE());
        if (rc != 0) {
            arena.close();
            throw new NativeException("pthread_spin_init", "pshared=PTHREAD_PROCESS_PRIVATE", rc);
        }
        return new PthreadSpinLock(arena, lock);
    }

    public void lock() {
        int rc = LibC.pthread_spin_lock(lock);
        if (rc != 0) throw new NativeException("pthread_spin_lock", "lock", rc);
    }

    public void unlock() {
        int rc = LibC.pthread_spin_unlock(lock);
        if (rc != 0) throw new NativeException("pthread_spin_unlock", "lock", rc);
    }

    @Override
    public void close() {
        LibC.pthread_spin_destroy(lock);
        arena.close();
    }
}
