package dev.corescope.sys.internal;

import dev.corescope.sys.Errno;
import dev.corescope.sys.NativeException;
import dev.corescope.sys.NativeUnavailableException;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.ref.Cleaner;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * A directory whose files are opened only beneath it: every path is resolved by the kernel with
 * {@code openat2(dirfd, path, {flags, 0, RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS})}, so no
 * symbolic link, {@code ..} or magic link can lead the open outside, at any component. Where
 * {@code openat2} is refused ({@link #unavailable()} says why), {@linkplain #open(Path, boolean)
 * the real-path check} resolves each path in Java and opens it with {@code O_NOFOLLOW}: two
 * steps, which a tree changed between them could still escape. {@code EAGAIN} and {@code EINTR}
 * are retried up to {@link #OPEN_ATTEMPTS} times. How a file is read (no FIFO, device or file
 * over the cap read into the answer, and the calls it costs) is in docs/files-and-signals.md
 * ("Input files and trees") and docs/performance.md.
 *
 * <p>Errors are {@link NativeException}s: {@code EXDEV} for a path that would leave the
 * directory, {@code ELOOP} for a magic link or a link loop.
 *
 * <p><b>Note:</b> thread-safe; calls on one directory take its lock (they share its scratch).
 * The descriptor is held until {@link #close()} or until the object is unreachable.
 */
public final class BeneathDirectory implements AutoCloseable {

    /** What a path names. */
    public enum Kind { REGULAR, DIRECTORY, OTHER }

    /**
     * What {@link #read} found: {@code size} from {@code statx} where one was asked (0 for procfs), else the
     * bytes read; {@code bytes} at most the cap plus one, null for no regular file or a size over the cap.
     */
    public record File(Kind kind, long size, byte[] bytes) {}

    /** How many times an open that the kernel says to retry ({@code EAGAIN}, {@code EINTR}) is tried. */
    public static final int OPEN_ATTEMPTS = 10_000;

    private static final long RESOLVE_BENEATH_NO_MAGICLINKS = 0x08 | 0x02;
    private static final int O_PATH = 010000000;
    private static final int O_DIRECTORY = Libc.O_DIRECTORY;
    private static final int O_CLOEXEC = Libc.O_CLOEXEC;
    private static final int READ_FLAGS = 0400 | Libc.O_NONBLOCK | O_CLOEXEC;  // O_RDONLY | O_NOCTTY | O_NONBLOCK
    private static final int AT_FDCWD = -100;
    private static final int AT_EMPTY_PATH = 0x1000;
    private static final int STATX_TYPE_SIZE = 0x1 | 0x200;
    /** {@code struct statx}: 256 bytes, {@code stx_mode} (u16) at 28, {@code stx_size} (u64) at 40. */
    private static final long STX_MODE = 28, STX_SIZE = 40;
    private static final int S_IFMT = 0170000, S_IFREG = 0100000, S_IFDIR = 0040000;
    /** {@code struct linux_dirent64}: d_ino, d_off (8 each), d_reclen (u16) at 16, d_type, d_name at 19. */
    private static final long D_RECLEN = 16, D_NAME = 19;

    private static final int READ_CHUNK = 64 << 10;
    private static final int PATH_BYTES = 4096;  // PATH_MAX, the NUL included

    private static final Cleaner CLEANER = Cleaner.create();
    private static final ThreadLocal<MemorySegment> CALL_STATE =
            // automatic arena by design: the segment lives as long as its thread
            ThreadLocal.withInitial(() -> Libc.callState(Arena.ofAuto()));
    private static volatile Optional<String> unavailable;

    private final int fd;
    private final String name;
    /** The directory's real path where paths are checked in Java instead of by {@code openat2}. */
    private final Path checked;
    /** Whether this is the live root's {@code /}, whose {@code proc/} files are read to their end. */
    private final boolean live;
    private final Cleaner.Cleanable closer;
    /** Native scratch, allocated once: the path, {@code open_how} (24 bytes), {@code struct statx} (256), the read buffer. */
    private final MemorySegment path, how, stx, buf;
    /** Native calls made, close included: the count docs/performance.md quotes, kept by its test. */
    long calls;

    private BeneathDirectory(int fd, String name, Path checked, boolean live) {
        this.fd = fd;
        this.name = name;
        this.checked = checked;
        this.live = live;
        this.closer = CLEANER.register(this, () -> Flock.close(fd));
        // automatic arena by design: the scratch lives as long as the directory object
        Arena scratch = Arena.ofAuto();
        this.path = scratch.allocate(PATH_BYTES);
        this.how = scratch.allocate(24, 8);
        this.stx = scratch.allocate(256, 8);
        this.buf = scratch.allocate(READ_CHUNK, 8);
    }

    /**
     * Opens {@code dir} for {@code openat2} beneath it (a link naming {@code dir} itself is followed);
     * with {@code realPathCheck} its paths are checked in Java and opened by {@code openat}.
     */
    public static BeneathDirectory open(Path dir, boolean realPathCheck) {
        if (!Libc.SYS_KNOWN) throw new NativeUnavailableException("no syscall numbers for " + System.getProperty("os.arch"));
        String p = dir.toString();
        Path abs = dir.toAbsolutePath().normalize();
        boolean live = abs.getParent() == null;
        if (realPathCheck) {  // no descriptor: paths are opened from their real paths
            try {
                return new BeneathDirectory(-1, p, dir.toRealPath(), live);
            } catch (IOException e) {
                return new BeneathDirectory(-1, p, abs, live);
            }
        }
        try (Arena arena = Arena.ofConfined()) {
            return new BeneathDirectory(openat2(AT_FDCWD, arena.allocateFrom(p), arena.allocate(24, 8),
                    O_PATH | O_DIRECTORY | O_CLOEXEC, 0, p), p, null, live);
        }
    }

    /** Empty when {@code openat2} works on this machine, else why not (tried once, on the working directory). */
    public static Optional<String> unavailable() {
        Optional<String> u = unavailable;
        if (u == null) unavailable = u = probe();
        return u;
    }

    private static Optional<String> probe() {
        try (Arena arena = Arena.ofConfined()) {
            if (!Libc.SYS_KNOWN) return Optional.of("no syscall numbers for " + System.getProperty("os.arch"));
            Flock.close(openat2(AT_FDCWD, arena.allocateFrom("."), arena.allocate(24, 8), O_PATH | O_CLOEXEC, RESOLVE_BENEATH_NO_MAGICLINKS, "probe"));
            return Optional.empty();
        } catch (NativeException e) {
            if (e.errno() == Errno.ENOSYS) return Optional.of("openat2 is not available (ENOSYS: a kernel before 5.6, or a seccomp filter)");
            if (e.errno() == Errno.EPERM) return Optional.of("openat2 is refused (EPERM: a seccomp filter)");
            return Optional.of("openat2 failed on the working directory: " + e.getMessage());
        } catch (NativeUnavailableException | UnsupportedOperationException | IllegalCallerException e) {
            return Optional.of("openat2 cannot be called: " + e.getMessage());
        }
    }

    /** Whether {@code rel} is a directory beneath this one (one open of it as a directory, and its close). */
    public synchronized boolean isDirectory(String rel) {
        try {
            closeCounted(openHere(rel, O_PATH | O_DIRECTORY | O_CLOEXEC));
            return true;
        } catch (NativeException e) {
            if (e.errno() == Errno.ENOTDIR || e.errno() == Errno.ENOENT) return false;
            throw e;
        }
    }

    /**
     * The regular file {@code rel}, at most {@code cap + 1} bytes of it (so a caller sees that a
     * file of unknown size is longer than {@code cap}), or what it names instead; a FIFO or
     * device is never read into the answer, and a file whose size is over {@code cap} not read on.
     */
    public synchronized File read(String rel, long cap) {
        int f = openHere(rel, READ_FLAGS);
        try {
            long want = Math.min(READ_CHUNK, cap + 1);
            long n = pread(f, rel, 0, want);
            if (n == -Errno.EISDIR.number()) return new File(Kind.DIRECTORY, 0, null);
            if (n < 0) return new File(Kind.OTHER, 0, null);  // ESPIPE or EAGAIN: a FIFO, terminal or socket
            boolean procfs = live && rel.startsWith("proc/");
            if (n > 0 && n < want && !procfs) return new File(Kind.REGULAR, n, buf.asSlice(0, n).toArray(ValueLayout.JAVA_BYTE));
            long size = 0;
            if (n == 0 || n == want) {  // the read says nothing of what the file is: ask
                calls++;
                if (Libc.syscall(CALL_STATE.get(), Libc.SYS_STATX, f, empty(), AT_EMPTY_PATH, STATX_TYPE_SIZE, stx.address()) == -1) {
                    throw new NativeException("statx", rel, Libc.errno(CALL_STATE.get()));
                }
                int mode = Short.toUnsignedInt(stx.get(ValueLayout.JAVA_SHORT, STX_MODE)) & S_IFMT;
                size = stx.get(ValueLayout.JAVA_LONG, STX_SIZE);
                Kind kind = mode == S_IFREG ? Kind.REGULAR : mode == S_IFDIR ? Kind.DIRECTORY : Kind.OTHER;
                if (kind != Kind.REGULAR || size > cap) return new File(kind, size, null);
            }
            return new File(Kind.REGULAR, size, readAll(f, rel, cap + 1, size, n, want, procfs));
        } finally {
            closeCounted(f);
        }
    }

    /** The names in directory {@code rel} ({@code .} and {@code ..} left out), in the order the kernel lists them. */
    public synchronized List<String> list(String rel) {
        int f = openHere(rel, O_DIRECTORY | O_CLOEXEC);
        List<String> names = new ArrayList<>();
        try {
            while (true) {
                calls++;
                long n = Libc.syscall(CALL_STATE.get(), Libc.SYS_GETDENTS64, f, buf.address(), READ_CHUNK, 0, 0);
                if (n == -1) throw new NativeException("getdents64", rel, Libc.errno(CALL_STATE.get()));
                if (n == 0) return names;
                for (long at = 0; at < n; at += Short.toUnsignedLong(buf.get(ValueLayout.JAVA_SHORT, at + D_RECLEN))) {
                    String e = buf.getString(at + D_NAME, StandardCharsets.UTF_8);
                    if (!e.equals(".") && !e.equals("..")) names.add(e);
                }
            }
        } finally {
            closeCounted(f);
        }
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

    private int openHere(String rel, int flags) {
        calls++;
        byte[] b = rel.getBytes(StandardCharsets.UTF_8);
        if (checked == null) return openat2(fd, cString(b, rel), how, flags, RESOLVE_BENEATH_NO_MAGICLINKS, rel);
        Path p = checked.resolve(rel);
        if (checked.getParent() != null) {  // a tree, not /: its real path, refused when it ends outside
            try {
                p = p.toRealPath();
            } catch (NoSuchFileException e) {
                throw new NativeException("openat", rel, Errno.ENOENT.number());  // missing, or a link to nothing
            } catch (IOException e) {
                // unreadable: the open says why
            }
            if (!p.startsWith(checked)) throw new NativeException("openat", rel + ", real-path check", Errno.EXDEV.number());
            flags |= Libc.O_NOFOLLOW;
        }
        return retried(Libc.SYS_OPENAT, AT_FDCWD, cString(p.toString().getBytes(StandardCharsets.UTF_8), rel), flags, 0, "openat", rel);
    }

    private MemorySegment cString(byte[] b, String rel) {
        if (b.length >= PATH_BYTES) throw new NativeException("openat2", rel, Errno.ENAMETOOLONG.number());
        MemorySegment.copy(b, 0, path, ValueLayout.JAVA_BYTE, 0, b.length);
        path.set(ValueLayout.JAVA_BYTE, b.length, (byte) 0);
        return path;
    }

    /** {@code openat2(dirFd, path, {flags, 0, resolve})}, retried as the class comment says. */
    private static int openat2(int dirFd, MemorySegment path, MemorySegment how, int flags, long resolve, String what) {
        how.set(ValueLayout.JAVA_LONG, 0, flags & 0xffffffffL);
        how.set(ValueLayout.JAVA_LONG, 8, 0L);
        how.set(ValueLayout.JAVA_LONG, 16, resolve);
        return retried(Libc.SYS_OPENAT2, dirFd, path, how.address(), 24, "openat2",
                what + (resolve == 0 ? "" : ", RESOLVE_BENEATH|RESOLVE_NO_MAGICLINKS"));
    }

    private static int retried(long nr, int dirFd, MemorySegment path, long a3, long a4, String function, String what) {
        MemorySegment state = CALL_STATE.get();
        for (int attempt = 1; ; attempt++) {
            long rc = Libc.syscall(state, nr, dirFd, path.address(), a3, a4, 0);
            if (rc != -1) return (int) rc;
            int errno = Libc.errno(state);
            boolean again = errno == Errno.EAGAIN.number() || errno == Errno.EINTR.number();
            if (!again || attempt >= OPEN_ATTEMPTS) {
                throw new NativeException(function, what + (again ? ", " + attempt + " attempts" : ""), errno);
            }
            if (attempt % 64 == 0) Thread.yield();
        }
    }

    /** {@code pread}, retried on {@code EINTR}: the bytes read, or minus an errno that says it is no regular file. */
    private long pread(int f, String rel, long at, long want) {
        MemorySegment state = CALL_STATE.get();
        while (true) {
            calls++;
            long n = Libc.syscall(state, Libc.SYS_PREAD64, f, buf.address(), want, at, 0);
            if (n != -1) return n;
            int errno = Libc.errno(state);
            if (errno == Errno.EINTR.number()) continue;
            if (errno == Errno.EISDIR.number() || errno == Errno.ESPIPE.number() || errno == Errno.EAGAIN.number()) return -errno;
            throw new NativeException("pread", rel, errno);
        }
    }

    /**
     * Up to {@code max} bytes of {@code f}, the first {@code n} (of {@code want}) already in the buffer. A
     * file of a known size stops at it; a short read ends all but a live procfs file, read until 0.
     */
    private byte[] readAll(int f, String rel, long max, long size, long n, long want, boolean procfs) {
        byte[] out = EMPTY;
        int total = 0;
        while (n > 0) {
            boolean last = size > 0 && total + n >= size || n < want && !procfs;
            if (total + n > out.length) out = Arrays.copyOf(out, capacity(out.length, total + (int) n, size, max, last));
            MemorySegment.copy(buf, ValueLayout.JAVA_BYTE, 0, out, total, (int) n);
            total += (int) n;
            if (last || total >= max) break;
            want = Math.min(READ_CHUNK, max - total);
            n = pread(f, rel, total, want);
            if (n < 0) throw new NativeException("pread", rel, (int) -n);
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

    /** The empty C string {@code statx} takes with {@code AT_EMPTY_PATH}. */
    private long empty() {
        path.set(ValueLayout.JAVA_BYTE, 0, (byte) 0);
        return path.address();
    }

    private void closeCounted(int f) {
        calls++;
        Flock.close(f);
    }
}
