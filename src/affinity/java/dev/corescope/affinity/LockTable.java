package dev.corescope.affinity;

import dev.corescope.sys.Errno;
import dev.corescope.sys.NativeException;
import dev.corescope.sys.internal.Flock;
import dev.corescope.topology.proc.ProcLocks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * This process's lock files in one reservation directory: one read-only descriptor per CPU,
 * opened when first asked for and kept, so reserving is one {@code flock(LOCK_EX|LOCK_NB)} and
 * releasing one {@code flock(LOCK_UN)}. One table per directory per process: an {@code flock}
 * taken twice through one descriptor succeeds twice, so the table keeps what this process holds
 * (and for which thread), and the kernel keeps other processes off.
 *
 * <p>Only lock files of root or of the directory's owner are trusted ({@link #untrusted};
 * docs/library.md, "Shared machines"). After each lock the name is checked to still lead to the
 * locked file (device and inode), else the descriptor is dropped and the file opened again.
 *
 * <p><b>Note:</b> thread-safe; every method locks the table.
 */
final class LockTable {

    private static final int LOCK_FILE_MODE = 0444;
    private static final int S_IFMT = 0170000;
    private static final int S_IFREG = 0100000;
    private static final Map<Path, LockTable> TABLES = new HashMap<>();

    /** One CPU's lock file: its descriptor, its device and inode, and this process's hold on it. */
    private static final class Slot {
        final int fd;
        final long dev;
        final long ino;
        final String key;
        /** {@code cpu-<n>.lock}, kept so the check after each lock makes no string. */
        final String name;
        boolean held;
        /** The thread the reservation is for: the one that took it, or the one it was handed to. */
        Thread owner;
        String thread;
        long sinceMillis;
        /** Counts the holds: a reservation releases only the hold it took, not one taken over since. */
        int generation;
        /** The ended thread this hold was taken over from, or null. */
        String reclaimedFrom;

        Slot(int fd, long dev, long ino, String name) {
            this.fd = fd;
            this.dev = dev;
            this.ino = ino;
            this.key = ProcLocks.key(dev, ino);
            this.name = name;
        }

        /** True when the thread the CPU is held for has ended: the reservation is stale. */
        boolean stale() {
            return owner != null && owner.getState() == Thread.State.TERMINATED;
        }
    }

    private final Path directory;
    private final int dirFd;
    private final int dirOwner;
    private final Path dirByFd;
    private Slot[] slots = new Slot[64];

    private LockTable(LockDirectory.Opened dir) {
        this.directory = dir.path();
        this.dirFd = dir.fd();
        this.dirOwner = dir.owner();
        this.dirByFd = Path.of("/proc/self/fd/" + dir.fd());
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

    /** This process's table of {@code dir} if it has opened one; null otherwise (nothing is opened or created). */
    static LockTable existing(Path dir) {
        synchronized (TABLES) {
            return TABLES.get(dir.toAbsolutePath().normalize());
        }
    }

    Path directory() {
        return directory;
    }

    static String fileName(int cpu) {
        return "cpu-" + cpu + ".lock";
    }

    /**
     * Takes CPU {@code cpu}'s lock: false when this or another process holds it. A hold of this
     * process whose thread has ended (stale) is taken over, and {@link #reclaimedFrom} names
     * that thread: in one process nothing else would ever release it.
     *
     * @throws ReservationException when its lock file cannot be used (see the class comment)
     */
    synchronized boolean tryLock(int cpu) {
        for (int attempt = 0; ; attempt++) {
            Slot s = slot(cpu);
            if (s.held) {
                if (!s.stale()) return false;
                take(s, s.thread);
                return true;
            }
            boolean locked = Flock.tryLockExclusive(s.fd);
            if (namesLockedFile(cpu, s)) {
                if (!locked) return false;
                s.held = true;
                take(s, null);
                return true;
            }
            // the name leads elsewhere now (removed, or removed and made anew): drop the old descriptor
            if (locked) Flock.unlock(s.fd);
            Flock.close(s.fd);
            slots[cpu] = null;
            if (attempt >= 3) {
                throw new ReservationException("cannot use the lock file " + directory.resolve(fileName(cpu))
                        + ": it is replaced each time it is locked (someone who may remove files in " + directory + " keeps doing so)");
            }
        }
    }

    private static void take(Slot s, String from) {
        s.owner = Thread.currentThread();
        s.thread = threadName(s.owner);
        s.sinceMillis = System.currentTimeMillis();
        s.generation++;
        s.reclaimedFrom = from;
    }

    /** The count of holds on {@code cpu} so far: a reservation keeps the one it took. */
    synchronized int generation(int cpu) {
        Slot s = opened(cpu);
        return s == null ? 0 : s.generation;
    }

    /** The ended thread the current hold on {@code cpu} was taken over from, or null. */
    synchronized String reclaimedFrom(int cpu) {
        Slot s = opened(cpu);
        return s == null || !s.held ? null : s.reclaimedFrom;
    }

    /** Releases CPU {@code cpu}'s lock if this process holds it still by the hold {@code generation}. */
    synchronized void release(int cpu, int generation) {
        Slot s = opened(cpu);
        if (s != null && s.generation == generation) release(cpu);
    }

    /** Records that CPU {@code cpu}'s hold (of this process) is for thread {@code t}: what the dump names. */
    synchronized void handTo(int cpu, Thread t) {
        Slot s = opened(cpu);
        if (s == null || !s.held) return;
        s.owner = t;
        s.thread = threadName(t);
    }

    private static String threadName(Thread t) {
        String n = t.getName();
        return n.isEmpty() ? (t.isVirtual() ? "virtual#" : "#") + t.threadId() : n;
    }

    /**
     * True when {@code cpu-<n>.lock} in the directory is still the file {@code s} has open: one
     * {@code statx} relative to the directory's descriptor, allocating nothing (the check runs
     * after every lock, so it is on the reserve path).
     */
    private boolean namesLockedFile(int cpu, Slot s) {
        try {
            return Flock.names(dirFd, s.name, s.dev, s.ino);
        } catch (NativeException e) {
            throw new ReservationException("cannot check the lock file " + directory.resolve(s.name) + ": " + e.getMessage(), e);
        }
    }

    /** Releases CPU {@code cpu}'s lock if this process holds it. */
    synchronized void release(int cpu) {
        Slot s = opened(cpu);
        if (s == null || !s.held) return;
        s.held = false;
        s.owner = null;
        s.thread = null;
        Flock.unlock(s.fd);
    }

    /** This process's hold on a CPU, as it is now: its lock file's {@code /proc/locks} key, the thread it is for, since when, and whether that thread has ended. */
    record Hold(String key, String thread, long sinceMillis, boolean stale) {
    }

    /** This process's hold on {@code cpu}, or null when it holds none. */
    synchronized Hold heldHere(int cpu) {
        Slot s = opened(cpu);
        return s == null || !s.held ? null : new Hold(s.key, s.thread, s.sinceMillis, s.stale());
    }

    /** Every hold of this process, by CPU. */
    synchronized Map<Integer, Hold> heldHere() {
        Map<Integer, Hold> out = new TreeMap<>();
        for (int cpu = 0; cpu < slots.length; cpu++) {
            Hold h = heldHere(cpu);
            if (h != null) out.put(cpu, h);
        }
        return out;
    }

    /**
     * The {@code /proc/locks} key of {@code cpu}'s lock file: from the open descriptor when this
     * process has one, else from the file (empty when there is none).
     */
    synchronized String key(int cpu) {
        Slot s = opened(cpu);
        if (s != null) return s.key;
        return ProcLocks.key(dirByFd.resolve(fileName(cpu)), LinkOption.NOFOLLOW_LINKS);
    }

    /** The slot of {@code cpu} if this process opened its lock file, else null. */
    private Slot opened(int cpu) {
        return cpu < slots.length ? slots[cpu] : null;
    }

    private Slot slot(int cpu) {
        if (cpu >= slots.length) slots = Arrays.copyOf(slots, Math.max(cpu + 1, slots.length * 2));
        Slot s = slots[cpu];
        if (s == null) slots[cpu] = s = open(cpu);
        return s;
    }

    /**
     * Opens {@code cpu-<n>.lock} read-only, creating it {@code 0444} when missing and this
     * process may make a trusted one (exclusively: whoever creates it first, the others open
     * it); refuses a symbolic link, anything but a regular file, a file with more than one name
     * (a hard link to a file elsewhere) and a file of an untrusted owner.
     */
    private Slot open(int cpu) {
        String name = fileName(cpu);
        int fd = -1;
        for (int attempt = 0; fd < 0; attempt++) {
            try {
                fd = Flock.openLockFile(dirFd, name, false, 0);
            } catch (NativeException e) {
                if (e.errno() != Errno.ENOENT) throw unusable(name, e);
                if (dirOwner != LockDirectory.uid()) throw noLockFile(cpu);
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
            Map<String, Object> a = Files.readAttributes(proc, "unix:mode,uid,nlink,dev,ino");
            String why = untrusted((Integer) a.get("mode"), (Integer) a.get("uid"), (Integer) a.get("nlink"), dirOwner);
            if (why != null) throw notALockFile(name, why);
            return new Slot(fd, (Long) a.get("dev"), (Long) a.get("ino"), name);
        } catch (IOException | RuntimeException e) {
            Flock.close(fd);
            if (e instanceof ReservationException r) throw r;
            throw notALockFile(name, "cannot read its attributes: " + e.getMessage());
        }
    }

    /**
     * Why a lock file with this mode, owner and link count cannot be trusted in a directory of
     * {@code dirOwner}; null when it can.
     */
    static String untrusted(int mode, int uid, int nlink, int dirOwner) {
        if ((mode & S_IFMT) != S_IFREG) return "it is not a regular file";
        if (nlink != 1) return "it has " + nlink + " names (a hard link to another file?)";
        if (uid != 0 && uid != dirOwner) {
            return "it belongs to uid " + uid + ", and only lock files of root" + (dirOwner == 0 ? "" : " or of the directory's owner (uid " + dirOwner + ")")
                    + " are trusted: its owner could remove it while another process holds it, and the CPU would be given twice (its owner or root may remove it)";
        }
        return null;
    }

    private ReservationException noLockFile(int cpu) {
        return new ReservationException("CPU " + cpu + " has no lock file in " + directory + ", and in a directory of uid " + dirOwner
                + " only its owner may make one every user can trust: " + LockDirectory.lockFilesRemedy(directory));
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

    static String modeOf(Path file) {
        try {
            int mode = (Integer) Files.getAttribute(file, "unix:mode", LinkOption.NOFOLLOW_LINKS);
            int uid = (Integer) Files.getAttribute(file, "unix:uid", LinkOption.NOFOLLOW_LINKS);
            return LockDirectory.octal(mode) + ", owner uid " + uid;
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }
}
