package dev.corescope.sys.internal;

import dev.corescope.sys.Errno;
import dev.corescope.sys.NativeException;
import dev.corescope.sys.NativeUnavailableException;
import dev.corescope.sys.ffi.LibC;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.ref.Cleaner;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A directory whose files are opened only beneath it: every path is resolved by the kernel with
 * {@code openat2(dirfd, path, {flags, 0, RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS})}, so no
 * symbolic link, {@code ..} or {@code /proc/self/...} magic link can lead the open outside, at
 * any component and at the moment of the open itself (no check-then-open window). This is how
 * {@code topology.proc.SysfsReader} reads a saved tree as if it were the root, and {@code /}.
 *
 * <p>{@code openat2} (Linux 5.6) has no glibc wrapper and is not in the jextract symbol list
 * (jextract is not needed to call it): it is called through the generated {@code syscall}'s
 * address with errno captured, {@code SYS_openat2 = 437} on every architecture (the syscall
 * table was unified from 424 on). {@code statx}, {@code fdopendir}, {@code readdir} and
 * {@code closedir} are linked by name as {@link Flock} links its calls. Where the kernel or a
 * seccomp filter refuses {@code openat2} ({@code ENOSYS}, or {@code EPERM} from some container
 * filters), {@link #unavailable()} says why and the caller falls back to its own check.
 *
 * <p>With {@code RESOLVE_BENEATH} the kernel answers {@code EAGAIN} when a rename or a mount
 * anywhere on the system raced with a lookup through {@code ..} (sysfs's own links climb:
 * {@code cpu0/cpufreq -> ../cpufreq/policy0}); openat2(2) says to retry, and so does an
 * {@code EINTR}. Each open is retried up to {@link #OPEN_ATTEMPTS} times, so a busy machine
 * reads the same tree as a quiet one instead of a tree with holes.
 *
 * <p>A file is read with four calls ({@code openat2}, {@code statx} of the descriptor,
 * {@code read} into the directory's one buffer, {@code close}; a file longer than the buffer
 * or of unknown size takes more reads). The {@code statx} stays: it refuses a FIFO, device or
 * socket planted in a tree after an open that cannot block ({@code O_NONBLOCK | O_NOCTTY})
 * and before any byte is read (a block or {@code kmsg} device would otherwise be read as a
 * file), and its size refuses a file over the caller's cap before reading it and sizes the
 * array once.
 *
 * <p>Errors are thrown as {@link NativeException} with the errno as a value: {@code EXDEV} for a
 * path that would leave the directory, {@code ELOOP} for a magic link or a link loop,
 * {@code ENOENT}, {@code EACCES} as usual.
 *
 * <p>The directory's descriptor ({@code O_PATH}) is held from {@link #open(Path)} until
 * {@link #close()}, or until the object is unreachable (a {@link Cleaner} closes it).
 *
 * <p><b>Note:</b> thread-safe; calls on one directory take its lock (they share its native
 * scratch segments) and use their thread's call state.
 */
public final class BeneathDirectory implements AutoCloseable {

    /** What a path names, from {@code statx}'s {@code stx_mode}. */
    public enum Kind { REGULAR, DIRECTORY, OTHER }

    /**
     * What {@link #read} found.
     *
     * @param kind what the path names
     * @param size the size {@code statx} gave (0 for procfs, 4096 for a sysfs attribute)
     * @param bytes the regular file's bytes, at most the cap plus one; null when it is no
     *              regular file, or when its size alone is over the cap (nothing was read)
     */
    public record File(Kind kind, long size, byte[] bytes) {}

    /** How many times an open that the kernel says to retry ({@code EAGAIN}, {@code EINTR}) is tried. */
    public static final int OPEN_ATTEMPTS = 10_000;

    private static final long SYS_OPENAT2 = 437;
    private static final long RESOLVE_NO_MAGICLINKS = 0x02;
    private static final long RESOLVE_BENEATH = 0x08;

    private static final int O_RDONLY = 0;
    private static final int O_NOCTTY = 0400;
    private static final int O_NONBLOCK = 04000;
    private static final int O_CLOEXEC = 02000000;
    private static final int O_PATH = 010000000;
    private static final boolean ARM_STYLE_FLAGS = switch (System.getProperty("os.arch", "").toLowerCase(Locale.ROOT)) {
        case "aarch64", "arm", "ppc64", "ppc64le" -> true;
        default -> false;
    };
    private static final int O_DIRECTORY = ARM_STYLE_FLAGS ? 040000 : 0200000;
    private static final int AT_FDCWD = -100;

    private static final int AT_EMPTY_PATH = 0x1000;
    private static final int STATX_TYPE = 0x1;
    private static final int STATX_SIZE = 0x200;
    /** {@code struct statx} is 256 bytes; {@code stx_mode} (u16) at 28 and {@code stx_size} (u64) at 40 on every architecture. */
    private static final long STATX_BYTES = 256;
    private static final long STX_MODE = 28;
    private static final long STX_SIZE = 40;
    private static final int S_IFMT = 0170000;
    private static final int S_IFREG = 0100000;
    private static final int S_IFDIR = 0040000;

    /** {@code struct open_how { u64 flags; u64 mode; u64 resolve; }}. */
    private static final long OPEN_HOW_SIZE = 24;
    /** glibc's 64-bit {@code struct dirent}: d_ino, d_off (8 each), d_reclen (2), d_type (1), then d_name. */
    private static final long D_NAME = 19;

    private static final int READ_CHUNK = 64 << 10;
    /** PATH_MAX: a longer path is copied to an arena of its own (the kernel refuses it anyway). */
    private static final int PATH_BYTES = 4096;

    private static final class Openat2 {
        /** {@code long syscall(long nr, ...)}: nr, dirfd, path, how, size. */
        static final MethodHandle HANDLE = Libc.withErrnoVariadic(LibC.syscall.address(),
                FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG,
                        ValueLayout.JAVA_LONG, ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG), 1);
    }

    private static final class Statx {
        static final MethodHandle HANDLE = Libc.withErrno(Libc.symbol("statx"),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS,
                        ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS));
    }

    private static final class Read {
        static final MethodHandle HANDLE = Libc.withErrno(LibC.read$address(),
                FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG));
    }

    private static final class Dirs {
        static final MethodHandle FDOPENDIR = Libc.withErrno(Libc.symbol("fdopendir"),
                FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
        static final MethodHandle READDIR = Libc.withErrno(Libc.symbol("readdir"),
                FunctionDescriptor.of(ValueLayout.ADDRESS.withTargetLayout(
                        MemoryLayout.sequenceLayout(D_NAME + 256, ValueLayout.JAVA_BYTE)), ValueLayout.ADDRESS));
        static final MethodHandle CLOSEDIR = Libc.withErrno(Libc.symbol("closedir"),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS));
    }

    private static final Cleaner CLEANER = Cleaner.create();

    /** Per-thread errno call state, as in {@link Flock}. */
    private static final ThreadLocal<MemorySegment> CALL_STATE =
            // automatic arena by design: the segment lives as long as its thread
            ThreadLocal.withInitial(() -> Libc.callState(Arena.ofAuto()));

    private static volatile Optional<String> unavailable;

    private final int fd;
    private final String name;
    private final Cleaner.Cleanable closer;

    /**
     * Native scratch of this directory's calls, allocated once (a file read costs no arena, no
     * malloc and no zeroing of a buffer): the path, {@code open_how}, {@code struct statx}, the
     * read buffer and an empty string. Calls are {@code synchronized} on the directory.
     */
    private final MemorySegment path;
    private final MemorySegment how;
    private final MemorySegment stx;
    private final MemorySegment buf;
    private final MemorySegment empty;

    private BeneathDirectory(int fd, String name) {
        this.fd = fd;
        this.name = name;
        this.closer = CLEANER.register(this, () -> Flock.close(fd));
        // automatic arena by design: the scratch lives as long as the directory object
        Arena scratch = Arena.ofAuto();
        this.path = scratch.allocate(PATH_BYTES);
        this.how = scratch.allocate(OPEN_HOW_SIZE, 8);
        this.stx = scratch.allocate(STATX_BYTES, 8);
        this.buf = scratch.allocate(READ_CHUNK, 8);
        this.empty = scratch.allocate(1);
    }

    /**
     * Opens {@code dir} ({@code O_PATH | O_DIRECTORY}; a link naming the directory itself is
     * followed: it is the directory the caller named).
     */
    public static BeneathDirectory open(Path dir) {
        String path = dir.toString();
        try (Arena arena = Arena.ofConfined()) {
            return new BeneathDirectory(openat2(AT_FDCWD, arena.allocateFrom(path), arena.allocate(OPEN_HOW_SIZE, 8),
                    O_PATH | O_DIRECTORY | O_CLOEXEC, 0, path), path);
        }
    }

    /**
     * Empty when {@code openat2} works on this machine; otherwise why not (tried once, on the
     * working directory). Callers then fall back to a check of their own and should say so.
     */
    public static Optional<String> unavailable() {
        Optional<String> u = unavailable;
        if (u == null) {
            u = probe();
            unavailable = u;
        }
        return u;
    }

    private static Optional<String> probe() {
        try (Arena arena = Arena.ofConfined()) {
            Flock.close(openat2(AT_FDCWD, arena.allocateFrom("."), arena.allocate(OPEN_HOW_SIZE, 8),
                    O_PATH | O_CLOEXEC, RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS, "probe"));
            return Optional.empty();
        } catch (NativeException e) {
            if (e.errno() == Errno.ENOSYS) return Optional.of("openat2 is not available (ENOSYS: a kernel before 5.6, or a seccomp filter)");
            if (e.errno() == Errno.EPERM) return Optional.of("openat2 is refused (EPERM: a seccomp filter)");
            return Optional.of("openat2 failed on the working directory: " + e.getMessage());
        } catch (NativeUnavailableException | UnsupportedOperationException | IllegalCallerException e) {
            return Optional.of("openat2 cannot be called: " + e.getMessage());
        }
    }

    /** What {@code rel} names, resolved beneath this directory (links followed inside it). */
    public synchronized Kind kind(String rel) {
        int f = openHere(rel, O_PATH | O_CLOEXEC);
        try {
            statx(f, rel);
            return kindOf();
        } finally {
            Flock.close(f);
        }
    }

    /**
     * The regular file {@code rel}, at most {@code cap + 1} bytes of it (so a caller sees that a
     * file of unknown size is longer than {@code cap}), or what it names instead. Opened
     * {@code O_NONBLOCK | O_NOCTTY} and checked to be a regular file by a {@code statx} of the
     * descriptor before any read, so a FIFO or device swapped in can neither stall nor feed
     * the reader; a file whose size is over {@code cap} is not read at all.
     */
    public synchronized File read(String rel, long cap) {
        int f = openHere(rel, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
        try {
            statx(f, rel);
            Kind kind = kindOf();
            long size = stx.get(ValueLayout.JAVA_LONG, STX_SIZE);
            if (kind != Kind.REGULAR || size > cap) return new File(kind, size, null);
            return new File(kind, size, readAll(f, rel, cap + 1, size));
        } finally {
            Flock.close(f);
        }
    }

    /** The names in directory {@code rel} ({@code .} and {@code ..} left out), in the order the kernel lists them. */
    public synchronized List<String> list(String rel) {
        int f = openHere(rel, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        MemorySegment state = CALL_STATE.get();
        MemorySegment dir;
        try {
            dir = (MemorySegment) Dirs.FDOPENDIR.invokeExact(state, f);
        } catch (Throwable t) {
            Flock.close(f);
            throw NativeCalls.rethrow(t);
        }
        if (dir.address() == 0) {
            int errno = Libc.errno(state);
            Flock.close(f);
            throw new NativeException("fdopendir", rel, errno);
        }
        List<String> names = new ArrayList<>();
        try {
            while (true) {
                MemorySegment entry;
                try {
                    entry = (MemorySegment) Dirs.READDIR.invokeExact(state, dir);
                } catch (Throwable t) {
                    throw NativeCalls.rethrow(t);
                }
                if (entry.address() == 0) break;
                String n = entry.getString(D_NAME, StandardCharsets.UTF_8);
                if (!n.equals(".") && !n.equals("..")) names.add(n);
            }
        } finally {
            try {
                int ignored = (int) Dirs.CLOSEDIR.invokeExact(state, dir);  // closes f too
            } catch (Throwable t) {
                throw NativeCalls.rethrow(t);
            }
        }
        return names;
    }

    /** Closes the directory's descriptor (once; later calls do nothing). */
    @Override
    public void close() {
        closer.clean();
    }

    @Override
    public String toString() {
        return "BeneathDirectory[" + name + "]";
    }

    /**
     * {@code openat2(dirFd, path, {flags, 0, resolve})}, tried again while the kernel answers
     * {@code EAGAIN} (a rename or mount raced with a {@code ..} beneath the directory) or
     * {@code EINTR}, up to {@link #OPEN_ATTEMPTS} times.
     */
    private static int openat2(int dirFd, MemorySegment path, MemorySegment how, int flags, long resolve, String what) {
        how.set(ValueLayout.JAVA_LONG, 0, flags & 0xffffffffL);
        how.set(ValueLayout.JAVA_LONG, 8, 0L);
        how.set(ValueLayout.JAVA_LONG, 16, resolve);
        MemorySegment state = CALL_STATE.get();
        for (int attempt = 1; ; attempt++) {
            long rc;
            try {
                rc = (long) Openat2.HANDLE.invokeExact(state, SYS_OPENAT2, (long) dirFd, path, how, OPEN_HOW_SIZE);
            } catch (Throwable t) {
                throw NativeCalls.rethrow(t);
            }
            if (rc != -1) return (int) rc;
            int errno = Libc.errno(state);
            boolean again = errno == Errno.EAGAIN.number() || errno == Errno.EINTR.number();
            if (!again || attempt >= OPEN_ATTEMPTS) {
                throw new NativeException("openat2", what + (resolve == 0 ? "" : ", RESOLVE_BENEATH|RESOLVE_NO_MAGICLINKS")
                        + (again ? ", " + attempt + " attempts" : ""), errno);
            }
            if (attempt % 64 == 0) Thread.yield();
        }
    }

    /** {@code openat2} of {@code rel} beneath this directory, with the scratch segments. */
    private int openHere(String rel, int flags) {
        byte[] b = rel.getBytes(StandardCharsets.UTF_8);
        if (b.length >= PATH_BYTES) {
            try (Arena arena = Arena.ofConfined()) {
                return openat2(fd, arena.allocateFrom(rel), how, flags, RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS, rel);
            }
        }
        MemorySegment.copy(b, 0, path, ValueLayout.JAVA_BYTE, 0, b.length);
        path.set(ValueLayout.JAVA_BYTE, b.length, (byte) 0);
        return openat2(fd, path, how, flags, RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS, rel);
    }

    /** {@code statx(f, "", AT_EMPTY_PATH, STATX_TYPE | STATX_SIZE)} into {@link #stx}. */
    private void statx(int f, String rel) {
        MemorySegment state = CALL_STATE.get();
        int rc;
        try {
            rc = (int) Statx.HANDLE.invokeExact(state, f, empty, AT_EMPTY_PATH, STATX_TYPE | STATX_SIZE, stx);
        } catch (Throwable t) {
            throw NativeCalls.rethrow(t);
        }
        if (rc == -1) throw new NativeException("statx", rel, Libc.errno(state));
    }

    /** The kind {@link #stx} holds. */
    private Kind kindOf() {
        int mode = Short.toUnsignedInt(stx.get(ValueLayout.JAVA_SHORT, STX_MODE));
        return switch (mode & S_IFMT) {
            case S_IFREG -> Kind.REGULAR;
            case S_IFDIR -> Kind.DIRECTORY;
            default -> Kind.OTHER;
        };
    }

    /**
     * Up to {@code max} bytes of {@code f} through the one scratch buffer, into an array sized
     * once from {@code size} where the file has one, grown geometrically where it has not
     * ({@link #capacity}), so each byte is copied a bounded number of times. A file of a known
     * size stops at that size, or at a short read (a sysfs attribute says 4096 and prints its
     * value in one read); a procfs file (size 0) is read to its end.
     */
    private byte[] readAll(int f, String rel, long max, long size) {
        MemorySegment state = CALL_STATE.get();
        byte[] out = EMPTY;
        int total = 0;
        while (total < max) {
            long want = Math.min(READ_CHUNK, max - total);
            long n;
            try {
                n = (long) Read.HANDLE.invokeExact(state, f, buf, want);
            } catch (Throwable t) {
                throw NativeCalls.rethrow(t);
            }
            if (n == -1) {
                int errno = Libc.errno(state);
                if (errno == Errno.EINTR.number()) continue;
                throw new NativeException("read", rel, errno);
            }
            if (n == 0) break;
            boolean last = size > 0 && (total + n >= size || n < want);
            if (total + n > out.length) out = Arrays.copyOf(out, capacity(out.length, total + (int) n, size, max, last));
            MemorySegment.copy(buf, ValueLayout.JAVA_BYTE, 0, out, total, (int) n);
            total += (int) n;
            if (last) break;
        }
        return total == out.length ? out : Arrays.copyOf(out, total);
    }

    private static final byte[] EMPTY = new byte[0];

    /**
     * The new length of a read's array of {@code length} bytes that must hold {@code need}:
     * exactly {@code need} when it is the last read, the file's {@code size} when it has one
     * that holds {@code need}, else twice the length (at most {@code max}): the copies of a
     * read add up to less than three times its bytes, whatever the sizes of the reads.
     */
    static int capacity(int length, int need, long size, long max, boolean last) {
        if (last) return need;
        if (size >= need) return (int) Math.min(size, max);
        return (int) Math.min(max, Math.max(need, 2L * length));
    }
}
