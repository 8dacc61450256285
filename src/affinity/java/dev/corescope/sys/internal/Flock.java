package dev.corescope.sys.internal;

import dev.corescope.sys.Errno;
import dev.corescope.sys.NativeException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Lock files for {@code affinity.Reservations}: {@code openat} without following symbolic
 * links, {@code fchmod}, {@code flock(2)} and {@code statx}, each a raw {@link Libc#syscall}
 * with errno captured. Why {@code flock} and not {@code FileChannel.lock}: docs/library.md
 * ("How a reservation works").
 *
 * <p><b>Note:</b> thread-safe; each thread uses its own call-state segment.
 */
public final class Flock {

    private static final int O_RDONLY = 0, O_CREAT = 0100, O_EXCL = 0200, AT_FDCWD = -100;
    private static final int LOCK_EX = 2, LOCK_NB = 4, LOCK_UN = 8;
    private static final int AT_SYMLINK_NOFOLLOW = 0x100, STATX_INO = 0x100;
    /** {@code struct statx}: 256 bytes; {@code stx_ino} (u64) at 32, {@code stx_dev_major}/{@code minor} (u32) at 136/140. */
    private static final long STATX_SIZE = 256, STX_INO = 32, STX_DEV_MAJOR = 136, STX_DEV_MINOR = 140;
    /** Room for a lock file's name ({@code cpu-N.lock}) and its NUL after the statx buffer. */
    private static final long NAME_SIZE = 64;

    /** Per-thread statx buffer and name, so the check after each lock allocates nothing. */
    private static final ThreadLocal<MemorySegment> STAT_SCRATCH =
            // automatic arena by design: the segment lives as long as its thread
            ThreadLocal.withInitial(() -> Arena.ofAuto().allocate(STATX_SIZE + NAME_SIZE, 8));

    /** Per-thread errno call state, so a lock or unlock allocates nothing. */
    private static final ThreadLocal<MemorySegment> CALL_STATE =
            // automatic arena by design: the segment lives as long as its thread
            ThreadLocal.withInitial(() -> Libc.callState(Arena.ofAuto()));

    private Flock() {
    }

    /**
     * {@code open(dir, O_RDONLY|Libc.O_DIRECTORY|Libc.O_NOFOLLOW|Libc.O_CLOEXEC)}: fails with {@code ELOOP}
     * when {@code dir} is a symbolic link and {@code ENOTDIR} when it is no directory.
     */
    public static int openDirectory(String dir) {
        return openat(AT_FDCWD, dir, O_RDONLY | Libc.O_DIRECTORY | Libc.O_NOFOLLOW | Libc.O_CLOEXEC, 0);
    }

    /**
     * {@code openat(dirFd, name, O_RDONLY|Libc.O_NOFOLLOW|Libc.O_NONBLOCK|Libc.O_CLOEXEC)}, with
     * {@code O_CREAT|O_EXCL} and {@code mode} when {@code create}. Read-only: {@code flock}
     * needs no more. {@code Libc.O_NONBLOCK} so a FIFO planted under the name cannot stall the
     * open; {@code Libc.O_NOFOLLOW} fails a symbolic link with {@code ELOOP}.
     */
    public static int openLockFile(int dirFd, String name, boolean create, int mode) {
        int flags = O_RDONLY | Libc.O_NOFOLLOW | Libc.O_NONBLOCK | Libc.O_CLOEXEC | (create ? O_CREAT | O_EXCL : 0);
        return openat(dirFd, name, flags, create ? mode : 0);
    }

    private static int openat(int dirFd, String path, int flags, int mode) {
        MemorySegment state = CALL_STATE.get();
        try (Arena arena = Arena.ofConfined()) {
            return (int) Libc.check(Libc.syscall(state, Libc.SYS_OPENAT, dirFd, arena.allocateFrom(path).address(), flags, mode, 0),
                    state, "openat", path);
        }
    }

    /** {@code fchmod(fd, mode)}: sets the mode whatever the umask was at creation. */
    public static void fchmod(int fd, int mode) {
        MemorySegment state = CALL_STATE.get();
        Libc.check(Libc.syscall(state, Libc.SYS_FCHMOD, fd, mode, 0, 0, 0), state, "fchmod", "fd=" + fd + ", mode=0" + Integer.toOctalString(mode));
    }

    /**
     * {@code flock(fd, LOCK_EX|LOCK_NB)}: true when this open file description now holds the
     * lock (or already did), false when another one holds it.
     */
    public static boolean tryLockExclusive(int fd) {
        MemorySegment state = CALL_STATE.get();
        if (Libc.syscall(state, Libc.SYS_FLOCK, fd, LOCK_EX | LOCK_NB, 0, 0, 0) == 0) return true;
        int errno = Libc.errno(state);
        if (errno == Errno.EAGAIN.number()) return false;  // EWOULDBLOCK
        throw new NativeException("flock", "fd=" + fd + ", LOCK_EX|LOCK_NB", errno);
    }

    /** {@code flock(fd, LOCK_UN)}. */
    public static void unlock(int fd) {
        MemorySegment state = CALL_STATE.get();
        Libc.check(Libc.syscall(state, Libc.SYS_FLOCK, fd, LOCK_UN, 0, 0, 0), state, "flock", "fd=" + fd + ", LOCK_UN");
    }

    /**
     * Whether {@code name} in the directory {@code dirFd} is, without following a link, the
     * file with device {@code dev} ({@code stat}'s {@code st_dev} encoding) and inode
     * {@code ino}: {@code statx(dirFd, name, AT_SYMLINK_NOFOLLOW)}. False when the name does not
     * exist. Allocates nothing for an ASCII name shorter than 64 characters (a lock file's).
     */
    public static boolean names(int dirFd, String name, long dev, long ino) {
        MemorySegment state = CALL_STATE.get();
        MemorySegment scratch = STAT_SCRATCH.get();
        MemorySegment buf = scratch.asSlice(0, STATX_SIZE);
        MemorySegment path = asciiName(scratch, name);
        if (Libc.syscall(state, Libc.SYS_STATX, dirFd, path.address(), AT_SYMLINK_NOFOLLOW, STATX_INO, buf.address()) == -1) {
            int errno = Libc.errno(state);
            if (errno == Errno.ENOENT.number()) return false;
            throw new NativeException("statx", name + ", AT_SYMLINK_NOFOLLOW", errno);
        }
        long major = Integer.toUnsignedLong(buf.get(ValueLayout.JAVA_INT, STX_DEV_MAJOR));
        long minor = Integer.toUnsignedLong(buf.get(ValueLayout.JAVA_INT, STX_DEV_MINOR));
        return buf.get(ValueLayout.JAVA_LONG, STX_INO) == ino && makedev(major, minor) == dev;
    }

    /** glibc's {@code makedev}: how {@code st_dev} (and Java's {@code unix:dev}) encodes a device number. */
    static long makedev(long major, long minor) {
        return ((major & 0xfffL) << 8) | ((major & 0xfffff000L) << 32) | (minor & 0xffL) | ((minor & 0xffffff00L) << 12);
    }

    /** {@code name} as a C string in the scratch segment, or in a fresh one when it is not short ASCII. */
    private static MemorySegment asciiName(MemorySegment scratch, String name) {
        int n = name.length();
        boolean ascii = n < NAME_SIZE;
        for (int i = 0; ascii && i < n; i++) ascii = name.charAt(i) > 0 && name.charAt(i) < 0x80;
        if (!ascii) return Arena.ofAuto().allocateFrom(name);  // automatic arena: rare, and freed with the segment
        MemorySegment path = scratch.asSlice(STATX_SIZE, NAME_SIZE);
        for (int i = 0; i < n; i++) path.set(ValueLayout.JAVA_BYTE, i, (byte) name.charAt(i));
        path.set(ValueLayout.JAVA_BYTE, n, (byte) 0);
        return path;
    }

    /** {@code close(fd)}, errors ignored: nothing is written through these descriptors. */
    public static void close(int fd) {
        Libc.syscall(CALL_STATE.get(), Libc.SYS_CLOSE, fd, 0, 0, 0, 0);
    }
}
