package dev.corescope.affinity;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * The directory holding the per-CPU lock files, made and checked so that another user can
 * neither redirect them nor spoil them.
 *
 * <p>Default: {@code /tmp/corescope-<uid>}, mode 0700. It is the same path for every process
 * of a user whatever its environment ({@code $XDG_RUNTIME_DIR} differs between a login
 * session, a service and a cron job, so two processes of one user could miss each other's
 * reservations there), and {@code /tmp}'s sticky bit means that once the directory is ours,
 * nobody else can rename or replace it. Before use it is checked with {@code lstat}
 * semantics: not a symbolic link, a directory, owned by this user (or root), writable by no
 * one else. Lock files are opened with {@code O_NOFOLLOW} and created 0600.
 *
 * <p>A directory shared by a group (so that several users' processes see each other's
 * reservations) is chosen with the system property {@value #PROPERTY} or the environment
 * variable {@value #ENV}; it may then be group-writable (lock files are created 0660), but
 * never world-writable.
 */
final class LockDirectory {

    static final String PROPERTY = "corescope.reservations.dir";
    static final String ENV = "CORESCOPE_RESERVATIONS_DIR";

    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rwx------");

    private LockDirectory() {
    }

    /** The configured directory, else {@code /tmp/corescope-<uid>}. */
    static Path configured() {
        String p = System.getProperty(PROPERTY);
        if (p == null || p.isBlank()) p = System.getenv(ENV);
        if (p != null && !p.isBlank()) return Path.of(p).toAbsolutePath();
        return Path.of("/tmp", "corescope-" + uid());
    }

    /** This process's effective uid: the owner of {@code /proc/self}. */
    static int uid() {
        try {
            return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        } catch (IOException | UnsupportedOperationException e) {
            throw new ReservationException("cannot tell this process's user id from /proc/self: " + e.getMessage(), e);
        }
    }

    /**
     * Creates {@code dir} (0700) if it is missing, then checks it; returns its real path.
     *
     * @throws ReservationException with the reason and the remedy when it cannot be used
     */
    static Path prepare(Path dir) {
        try {
            Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
        } catch (FileAlreadyExistsException e) {
            // someone made it first (maybe us, maybe not): the checks below decide
        } catch (AccessDeniedException e) {
            throw unusable(dir, "permission denied creating it");
        } catch (IOException e) {
            throw unusable(dir, "cannot create it: " + e.getMessage());
        }
        PosixFileAttributes a;
        try {
            a = Files.readAttributes(dir, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
            throw unusable(dir, "cannot read its attributes: " + e.getMessage());
        }
        if (a.isSymbolicLink()) throw unusable(dir, "it is a symbolic link, which corescope does not follow");
        if (!a.isDirectory()) throw unusable(dir, "it is not a directory");
        int owner;
        try {
            owner = (Integer) Files.getAttribute(dir, "unix:uid", LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
            throw unusable(dir, "cannot read its owner: " + e.getMessage());
        }
        int me = uid();
        if (owner != me && owner != 0) throw unusable(dir, "it belongs to uid " + owner + ", not to this user (uid " + me + ")");
        Set<PosixFilePermission> p = a.permissions();
        if (p.contains(PosixFilePermission.OTHERS_WRITE)) throw unusable(dir, "anyone may write into it (mode " + PosixFilePermissions.toString(p) + ")");
        if (!Files.isWritable(dir)) throw unusable(dir, "this user may not write into it");
        try {
            return dir.toRealPath(LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
            throw unusable(dir, e.getMessage());
        }
    }

    /** File mode for new lock files: 0600, or 0660 in a group-writable (shared on purpose) directory. */
    static Set<PosixFilePermission> lockFileMode(Path dir) {
        try {
            boolean group = Files.getPosixFilePermissions(dir, LinkOption.NOFOLLOW_LINKS).contains(PosixFilePermission.GROUP_WRITE);
            return PosixFilePermissions.fromString(group ? "rw-rw----" : "rw-------");
        } catch (IOException e) {
            return PosixFilePermissions.fromString("rw-------");
        }
    }

    private static ReservationException unusable(Path dir, String why) {
        return new ReservationException("cannot use the reservation directory " + dir + ": " + why
                + "; remove it, or set -D" + PROPERTY + " (or " + ENV + ") to a directory of yours");
    }
}
