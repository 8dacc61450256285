package dev.corescope.affinity;

import dev.corescope.sys.Errno;
import dev.corescope.sys.Flock;
import dev.corescope.sys.NativeException;
import dev.corescope.topology.proc.ProcLocks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * This process's lock files in one reservation directory: one read-only descriptor per CPU,
 * opened the first time the CPU is asked for and kept open, so reserving is one
 * {@code flock(LOCK_EX|LOCK_NB)} and releasing one {@code flock(LOCK_UN)} (no open, no close,
 * no write). The kernel drops the locks when the process dies.
 *
 * <p>One table per directory per process, shared by every {@link Reservations} over that
 * directory: an {@code flock} taken twice through one descriptor succeeds twice, so the table
 * keeps what this process holds itself (and which thread took it, for the dump), and the
 * kernel keeps other processes off.
 *
 * <p><b>Note:</b> thread-safe; every method locks the table.
 */
final class LockTable {

    private static final int LOCK_FILE_MODE = 0444;
    private static final Map<Path, LockTable> TABLES = new HashMap<>();

    /** One CPU's lock file: its descriptor, its {@code /proc/locks} key, and this process's hold on it. */
    static final class Slot {
        final int fd;
        final String key;
        boolean held;
        String thread;
        long sinceMillis;

        Slot(int fd, String key) {
            this.fd = fd;
            this.key = key;
        }
    }

    private final Path directory;
    private final int dirFd;
    private Slot[] slots = new Slot[64];

    private LockTable(LockDirectory.Opened dir) {
        this.directory = dir.path();
        this.dirFd = dir.fd();
    }

    /** The table of {@code dir}, opened and checked the first time this process uses it. */
    static LockTable of(Path dir) {
        Path key = dir.toAbsolutePath().normalize();
        synchronized (TABLES) {
            LockTable t = TABLES.get(key);
            if (t == null) {
                t = new LockTable(LockDirectory.open(key));
                TABLES.put(key, t);
            }
            return t;
        }
    }

    Path directory() {
        return directory;
    }

    static String fileName(int cpu) {
        return "cpu-" + cpu + ".lock";
    }

    /** Takes CPU {@code cpu}'s lock: false when this or another process holds it. */
    synchronized boolean tryLock(int cpu) {
        Slot s = slot(cpu);
        if (s.held || !Flock.tryLockExclusive(s.fd)) return false;
        s.held = true;
        s.thread = Thread.currentThread().getName();
        s.sinceMillis = System.currentTimeMillis();
        return true;
    }

    /** Releases CPU {@code cpu}'s lock if this process holds it. */
    synchronized void release(int cpu) {
        Slot s = cpu < slots.length ? slots[cpu] : null;
        if (s == null || !s.held) return;
        s.held = false;
        s.thread = null;
        Flock.unlock(s.fd);
    }

    /** This process's hold on {@code cpu}: {@code {thread, since}} or null when it holds none. */
    synchronized Slot heldHere(int cpu) {
        Slot s = cpu < slots.length ? slots[cpu] : null;
        if (s == null || !s.held) return null;
        Slot copy = new Slot(s.fd, s.key);
        copy.held = true;
        copy.thread = s.thread;
        copy.sinceMillis = s.sinceMillis;
        return copy;
    }

    /**
     * The {@code /proc/locks} key of {@code cpu}'s lock file: from the open descriptor when this
     * process has one, else from the file (empty when there is none).
     */
    synchronized String key(int cpu) {
        Slot s = cpu < slots.length ? slots[cpu] : null;
        if (s != null) return s.key;
        return ProcLocks.key(directory.resolve(fileName(cpu)), LinkOption.NOFOLLOW_LINKS);
    }

    private Slot slot(int cpu) {
        if (cpu >= slots.length) slots = Arrays.copyOf(slots, Math.max(cpu + 1, slots.length * 2));
        Slot s = slots[cpu];
        if (s == null) slots[cpu] = s = open(cpu);
        return s;
    }

    /**
     * Opens {@code cpu-<n>.lock} read-only, creating it {@code 0444} when missing (exclusively:
     * whoever creates it first, the others open it); refuses a symbolic link, anything but a
     * regular file, and a file with more than one name (a hard link to a file elsewhere).
     */
    private Slot open(int cpu) {
        String name = fileName(cpu);
        int fd = -1;
        for (int attempt = 0; fd < 0; attempt++) {
            try {
                fd = Flock.openLockFile(dirFd, name, false, 0);
            } catch (NativeException e) {
                if (e.errno() != Errno.ENOENT) throw unusable(name, e);
                try {
                    fd = Flock.openLockFile(dirFd, name, true, LOCK_FILE_MODE);
                    Flock.fchmod(fd, LOCK_FILE_MODE);  // whatever the umask is, every user may open it
                } catch (NativeException c) {
                    if (c.errno() != Errno.EEXIST || attempt >= 3) throw unusable(name, c);
                }
            }
        }
        Path proc = Path.of("/proc/self/fd/" + fd);
        try {
            if (!Files.isRegularFile(proc)) throw notALockFile(name, "it is not a regular file");
            int links = (Integer) Files.getAttribute(proc, "unix:nlink");
            if (links != 1) throw notALockFile(name, "it has " + links + " names (a hard link to another file?)");
            return new Slot(fd, ProcLocks.key(proc));
        } catch (IOException | RuntimeException e) {
            Flock.close(fd);
            if (e instanceof ReservationException r) throw r;
            throw notALockFile(name, "cannot read its attributes: " + e.getMessage());
        }
    }

    private ReservationException unusable(String name, NativeException e) {
        Path file = directory.resolve(name);
        String why = switch (e.errno()) {
            case ELOOP -> "it is a symbolic link, which corescope does not follow";
            case EACCES -> Files.exists(file, LinkOption.NOFOLLOW_LINKS)
                    ? "this user may not read it (mode " + modeOf(file) + ")"
                    : "this user may not create files in " + directory;
            default -> e.getMessage();
        };
        return new ReservationException("cannot use the lock file " + file + ": " + why, e);
    }

    private ReservationException notALockFile(String name, String why) {
        return new ReservationException("cannot use the lock file " + directory.resolve(name) + ": " + why);
    }

    private static String modeOf(Path file) {
        try {
            int mode = (Integer) Files.getAttribute(file, "unix:mode", LinkOption.NOFOLLOW_LINKS);
            int uid = (Integer) Files.getAttribute(file, "unix:uid", LinkOption.NOFOLLOW_LINKS);
            return LockDirectory.octal(mode) + ", owner uid " + uid;
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }
}
