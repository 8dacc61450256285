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
 * {@code topology.proc.SysfsReader} reads a saved tree as if it were the root.
 *
 * <p>{@code openat2} (Linux 5.6) has no glibc wrapper and is not in the jextract symbol list
 * (jextract is not needed to call it): it is called through the generated {@code syscall}'s
 * address with errno captured, {@code SYS_openat2 = 437} on every architecture (the syscall
 * table was unified from 424 on). {@code statx}, {@code fdopendir}, {@code readdir} and
 * {@code closedir} are linked by name as {@link Flock} links its calls. Where the kernel or a
 * seccomp filter refuses {@code openat2} ({@code ENOSYS}, or {@code EPERM} from some container
 * filters), {@link #unavailable()} says why and the caller falls back to its own check.
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
    /** {@code struct statx} is 256 bytes; {@code stx_mode} (u16) is at offset 28 on every architecture. */
    private static final long STATX_SIZE = 256;
    private static final long STX_MODE = 28;
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
    private static final int STATX_SIZE_FLAG = 0x200;
    /** {@code stx_size} (u64) is at offset 40 on every architecture. */
    private static final long STX_SIZE = 40;
    private static final int AT_SYMLINK_NOFOLLOW = 0x100;
    private static final int AT_NO_AUTOMOUNT = 0x800;

    private static final class Openat2 {
        /** {@code long syscall(long nr, ...)}: nr, dirfd, path, how, size. */
        static final MethodHandle HANDLE = Libc.withErrnoVariadic(LibC.syscall.address(),
                FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG,
                        ValueLayout.JAVA_LONG, ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG), 1);
    }

    private static final class Openat {
        static final MethodHandle HANDLE = Libc.withErrnoVariadic(Libc.symbol("openat"),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS,
                        ValueLayout.JAVA_INT, ValueLayout.JAVA_INT), 3);
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
        this.stx = scratch.allocate(STATX_SIZE, 8);
        this.buf = scratch.allocate(READ_CHUNK, 8);
        this.empty = scratch.allocate(1);
    }

    /**
     * Opens {@code dir} ({@code O_PATH | O_DIRECTORY}; a link naming the directory itself is
     * followed: it is the directory the caller named).
     */
    public static BeneathDirectory open(Path dir) {
        String path = dir.toString();
        MemorySegment state = CALL_STATE.get();
        int fd;
        try (Arena arena = Arena.ofConfined()) {
            fd = (int) Openat.HANDLE.invokeExact(state, AT_FDCWD, arena.allocateFrom(path), O_PATH | O_DIRECTORY | O_CLOEXEC, 0);
        } catch (Throwable t) {
            throw NativeCalls.rethrow(t);
        }
        if (fd == -1) throw new NativeException("openat", path + ", O_PATH|O_DIRECTORY", Libc.errno(state));
        return new BeneathDirectory(fd, path);
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
        try {
            int probe = openat2(AT_FDCWD, ".", O_PATH | O_CLOEXEC, "probe");
            Flock.close(probe);
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
        int f = openat2Here(rel, O_PATH | O_CLOEXEC);
        try {
            return kindOf(statxOf(f, rel));
        } finally {
            Flock.close(f);
        }
    }

    /**
     * The bytes of the regular file {@code rel}, at most {@code limit + 1} (so a caller sees
     * that it is longer than {@code limit}); empty when {@code rel} is no regular file. Opened
     * {@code O_NONBLOCK | O_NOCTTY}, and checked to be a regular file after the open, so a FIFO
     * or device swapped in cannot stall or feed the reader.
     */
    public synchronized Optional<byte[]> read(String rel, int limit) {
        int f = openat2Here(rel, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
        try {
            int mask = statxOf(f, rel);
            if (kindOf(mask) != Kind.REGULAR) return Optional.empty();
            long size = (mask & STATX_SIZE_FLAG) != 0 ? stx.get(ValueLayout.JAVA_LONG, STX_SIZE) : -1;
            return Optional.of(readAll(f, rel, limit + 1L, size));
        } finally {
            Flock.close(f);
        }
    }

    /**
     * {@link #read} when {@code rel} names a regular file, else what it names, with one open
     * for an ordinary file instead of two ({@link #kind} then {@link #read}): a {@code statx} of
     * the path (no open, the last component's link not followed, no automount) says whether it
     * is a plain regular file; only then is it opened beneath the directory, and checked again
     * after the open as {@link #read} does. Anything else (a link, a directory, a device, a path
     * that does not resolve) goes through {@link #kind}, whose open beneath the directory says
     * exactly what it is, or refuses it.
     *
     * @return the bytes, or empty with {@code kind[0]} set to what {@code rel} names instead
     */
    public synchronized Optional<byte[]> readIfRegular(String rel, int limit, Kind[] kind) {
        if (plainRegular(rel)) {
            Optional<byte[]> b = read(rel, limit);
            kind[0] = b.isPresent() ? Kind.REGULAR : kind(rel);
            return b;
        }
        kind[0] = kind(rel);
        return kind[0] == Kind.REGULAR ? read(rel, limit) : Optional.empty();
    }

    /** The names in directory {@code rel} ({@code .} and {@code ..} left out), in the order the kernel lists them. */
    public synchronized List<String> list(String rel) {
        int f = openat2Here(rel, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
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

    private static int openat2(int dirFd, String rel, int flags, String what) {
        MemorySegment state = CALL_STATE.get();
        long rc;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment how = arena.allocate(OPEN_HOW_SIZE, 8);
            how.set(ValueLayout.JAVA_LONG, 0, flags & 0xffffffffL);
            how.set(ValueLayout.JAVA_LONG, 8, 0L);
            how.set(ValueLayout.JAVA_LONG, 16, RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS);
            rc = (long) Openat2.HANDLE.invokeExact(state, SYS_OPENAT2, (long) dirFd, arena.allocateFrom(rel), how, OPEN_HOW_SIZE);
        } catch (Throwable t) {
            throw NativeCalls.rethrow(t);
        }
        if (rc == -1) throw new NativeException("openat2", what + ", RESOLVE_BENEATH|RESOLVE_NO_MAGICLINKS", Libc.errno(state));
        return (int) rc;
    }

    /** {@code rel} as a NUL-terminated string in the scratch path buffer (a longer one in {@code arena}). */
    private MemorySegment pathOf(String rel, Arena arena) {
        byte[] b = rel.getBytes(StandardCharsets.UTF_8);
        if (b.length >= PATH_BYTES) return arena.allocateFrom(rel);
        MemorySegment.copy(b, 0, path, ValueLayout.JAVA_BYTE, 0, b.length);
        path.set(ValueLayout.JAVA_BYTE, b.length, (byte) 0);
        return path;
    }

    /** {@code openat2(fd, rel, {flags, 0, RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS})} with the scratch segments. */
    private int openat2Here(String rel, int flags) {
        MemorySegment state = CALL_STATE.get();
        long rc;
        try (Arena arena = rel.length() * 3 >= PATH_BYTES ? Arena.ofConfined() : null) {
            how.set(ValueLayout.JAVA_LONG, 0, flags & 0xffffffffL);
            how.set(ValueLayout.JAVA_LONG, 8, 0L);
            how.set(ValueLayout.JAVA_LONG, 16, RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS);
            rc = (long) Openat2.HANDLE.invokeExact(state, SYS_OPENAT2, (long) fd, pathOf(rel, arena), how, OPEN_HOW_SIZE);
        } catch (Throwable t) {
            throw NativeCalls.rethrow(t);
        }
        if (rc == -1) throw new NativeException("openat2", rel + ", RESOLVE_BENEATH|RESOLVE_NO_MAGICLINKS", Libc.errno(state));
        return (int) rc;
    }

    /** {@code statx(f, "", AT_EMPTY_PATH, STATX_TYPE | STATX_SIZE)} into {@link #stx}; the mask of what it filled. */
    private int statxOf(int f, String rel) {
        MemorySegment state = CALL_STATE.get();
        int rc;
        try {
            rc = (int) Statx.HANDLE.invokeExact(state, f, empty, AT_EMPTY_PATH, STATX_TYPE | STATX_SIZE_FLAG, stx);
        } catch (Throwable t) {
            throw NativeCalls.rethrow(t);
        }
        if (rc == -1) throw new NativeException("statx", rel, Libc.errno(state));
        return stx.get(ValueLayout.JAVA_INT, 0);
    }

    /** Whether {@code rel} is, by a {@code statx} of its path (no open), a regular file that is not a link. */
    private boolean plainRegular(String rel) {
        MemorySegment state = CALL_STATE.get();
        int rc;
        try (Arena arena = rel.length() * 3 >= PATH_BYTES ? Arena.ofConfined() : null) {
            rc = (int) Statx.HANDLE.invokeExact(state, fd, pathOf(rel, arena), AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT, STATX_TYPE, stx);
        } catch (Throwable t) {
            throw NativeCalls.rethrow(t);
        }
        return rc == 0 && kindOf(STATX_TYPE) == Kind.REGULAR;
    }

    /** The kind {@link #stx} holds (its type was asked for). */
    private Kind kindOf(int mask) {
        int mode = Short.toUnsignedInt(stx.get(ValueLayout.JAVA_SHORT, STX_MODE));
        return switch (mode & S_IFMT) {
            case S_IFREG -> Kind.REGULAR;
            case S_IFDIR -> Kind.DIRECTORY;
            default -> Kind.OTHER;
        };
    }

    /**
     * Up to {@code max} bytes of {@code f}, through the one scratch buffer, copied out once.
     * A regular file of a known {@code size} read whole is not read again for its end: a
     * saved tree's files are ordinary files of the sizes {@code statx} says (sysfs's own report
     * 4096 and procfs's 0, so those are read to their end as before).
     */
    private byte[] readAll(int f, String rel, long max, long size) {
        MemorySegment state = CALL_STATE.get();
        byte[] out = null;
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
            if (out == null) {
                out = new byte[(int) n];
            } else {
                out = Arrays.copyOf(out, total + (int) n);
            }
            MemorySegment.copy(buf, ValueLayout.JAVA_BYTE, 0, out, total, (int) n);
            total += (int) n;
            if (size > 0 && total == size) break;
        }
        return out == null ? new byte[0] : out;
    }
}
