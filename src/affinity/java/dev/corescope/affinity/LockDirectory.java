package dev.corescope.affinity;

import dev.corescope.sys.Errno;
import dev.corescope.sys.NativeException;
import dev.corescope.sys.internal.Flock;
import dev.corescope.topology.proc.ProcPid;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * The directory holding the per-CPU lock files, opened and checked so that another user can
 * neither redirect them nor spoil them: {@value #DEFAULT} by default, made like {@code /tmp}
 * (mode {@code 1777}); another one through {@value #PROPERTY} or {@value #ENV} (a missing one is
 * made {@code 0700}). It is opened with {@code O_DIRECTORY|O_NOFOLLOW} and checked on the open
 * descriptor: root's or this user's, and sticky if anyone but its owner may write into it
 * ({@link #check}; docs/library.md, "Shared machines", has the why and root's setup, {@link #remedy}).
 */
final class LockDirectory {

    static final String PROPERTY = "corescope.reservations.dir";
    static final String ENV = "CORESCOPE_RESERVATIONS_DIR";
    static final String DEFAULT = "/tmp/corescope-reservations";

    private static final int STICKY = 01000;
    private static final int SHARED_MODE = 01777;
    private static final int PRIVATE_MODE = 0700;

    /**
     * An opened, checked directory: its path, the descriptor lock files are opened relative to,
     * and its owner (root or this user: the only users whose lock files in it are trusted).
     */
    record Opened(Path path, int fd, int owner) {
    }

    private LockDirectory() {
    }

    /** The configured directory, else {@value #DEFAULT}. */
    static Path configured() {
        String p = System.getProperty(PROPERTY);
        if (p == null || p.isBlank()) p = System.getenv(ENV);
        if (p != null && !p.isBlank()) return Path.of(p).toAbsolutePath();
        return Path.of(DEFAULT);
    }

    /** This process's effective uid: the owner of {@code /proc/self}. */
    static int uid() {
        try {
            return ProcPid.selfUid();
        } catch (IOException | UnsupportedOperationException e) {
            throw new ReservationException("cannot tell this process's user id from /proc/self: " + e.getMessage(), e);
        }
    }

    /**
     * Creates {@code dir} if it is missing ({@code 1777} for the default, else {@code 0700}),
     * opens it without following a symbolic link, and checks it.
     *
     * @throws ReservationException with the reason and the remedy when it cannot be used
     */
    static Opened open(Path dir) {
        Path abs = dir.toAbsolutePath().normalize();
        boolean shared = abs.equals(Path.of(DEFAULT));
        boolean created = false;
        try {
            Files.createDirectory(abs);  // mkdir(2): never follows a link at the last component
            created = true;
        } catch (FileAlreadyExistsException e) {
            // someone made it first (maybe us, maybe not): the checks below decide
        } catch (IOException e) {
            if (!Files.exists(abs.getParent() == null ? abs : abs.getParent())) throw unusable(abs, "its parent directory does not exist");
            throw unusable(abs, "cannot create it: " + e.getClass().getSimpleName().replace("Exception", "") + " " + e.getMessage());
        }
        int fd = openDirectory(abs);
        if (fd < 0) throw unusable(abs, "it was removed while it was being opened");
        return checked(abs, fd, created ? (shared ? SHARED_MODE : PRIVATE_MODE) : 0);
    }

    /**
     * Opens {@code dir} to look at it, creating nothing: null when it does not exist. The same
     * checks as {@link #open}.
     *
     * @throws ReservationException when it exists but cannot be used (a symbolic link, not a directory, ...)
     */
    static Opened inspect(Path dir) {
        Path abs = dir.toAbsolutePath().normalize();
        if (!Files.exists(abs, LinkOption.NOFOLLOW_LINKS)) return null;
        int fd = openDirectory(abs);
        return fd < 0 ? null : checked(abs, fd, 0);
    }

    /** Opens {@code abs} without following a symbolic link: its descriptor, or -1 when it does not exist. */
    private static int openDirectory(Path abs) {
        try {
            return Flock.openDirectory(abs.toString());
        } catch (NativeException e) {
            // O_DIRECTORY|O_NOFOLLOW fails a symbolic link with ENOTDIR (ELOOP without O_DIRECTORY)
            if (e.errno() == Errno.ENOENT) return -1;
            if (e.errno() == Errno.ELOOP || Files.isSymbolicLink(abs)) throw unusable(abs, "it is a symbolic link, which corescope does not follow");
            if (e.errno() == Errno.ENOTDIR) throw unusable(abs, "it is not a directory");
            if (e.errno() == Errno.EACCES) throw unusable(abs, "this user may not open it");
            throw unusable(abs, e.getMessage());
        }
    }

    /** The opened directory once {@link #check} passes (made {@code mode} first unless it is 0); the descriptor is closed when it fails. */
    private static Opened checked(Path abs, int fd, int mode) {
        try {
            if (mode != 0) Flock.fchmod(fd, mode);  // whatever the umask is
            return new Opened(abs, fd, check(abs, fd, abs.equals(Path.of(DEFAULT))));
        } catch (RuntimeException e) {
            Flock.close(fd);
            throw e;
        }
    }

    /**
     * The checks, made on the open descriptor (through {@code /proc/self/fd}); returns the owner.
     * A directory's owner may delete the lock files of others, and without the sticky bit so may
     * anyone who may write into it.
     */
    private static int check(Path dir, int fd, boolean shared) {
        Path self = Path.of("/proc/self/fd/" + fd);
        int owner;
        int mode;
        try {
            owner = (Integer) Files.getAttribute(self, "unix:uid");
            mode = (Integer) Files.getAttribute(self, "unix:mode");
        } catch (IOException | RuntimeException e) {
            throw unusable(dir, "cannot read its owner and mode: " + e.getMessage());
        }
        int me = uid();
        if (owner != me && owner != 0) {
            throw unusable(dir, "it belongs to uid " + owner + ", not to root or to this user (uid " + me
                    + "), and its owner could delete the lock files of others" + (shared ? "; " + remedy() : ""));
        }
        boolean sticky = (mode & STICKY) != 0;
        if ((mode & 0002) != 0 && !sticky) throw unusable(dir, "anyone may write into it (mode " + octal(mode) + ") and it has no sticky bit, so anyone could delete the lock files");
        if ((mode & 0020) != 0 && !sticky) throw unusable(dir, "its group may write into it (mode " + octal(mode) + ") and it has no sticky bit, so the group could delete the lock files (chmod +t fixes that)");
        return owner;
    }

    /** How root makes the shared directory for every user of the machine. */
    static String remedy() {
        return "have root create it for every user with 'install -d -m 1777 -o root -g root " + DEFAULT
                + "' (or a systemd-tmpfiles line 'd " + DEFAULT + " 1777 root root -') and its lock files (" + lockFilesRemedy(Path.of(DEFAULT)) + ")";
    }

    /** How root makes the lock files of a directory of root's, once, so that every user may lock them. */
    static String lockFilesRemedy(Path dir) {
        return "have root create them once with 'for c in $(seq 0 $(($(nproc --all) - 1))); do install -m 0444 -o root -g root /dev/null "
                + dir + "/cpu-$c.lock; done'";
    }

    static String octal(int mode) {
        return String.format("%04o", mode & 07777);
    }

    static ReservationException unusable(Path dir, String why) {
        return new ReservationException("cannot use the reservation directory " + dir + ": " + why
                + " (to use another, set -D" + PROPERTY + " or " + ENV + ")");
    }
}
