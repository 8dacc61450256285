package dev.corescope.report;

import dev.corescope.topology.proc.ProcPid;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Set;

/**
 * Files written whole or not at all: the content goes to a temporary file in the same folder
 * (created 0600), which then takes the target's name by an atomic rename ({@link #write}) or a
 * hard link that fails when the name is taken ({@link #create}). A replaced file keeps its
 * permissions, owner and group; a new one gets 0666 less this process's umask.
 */
public final class AtomicFile {

    private AtomicFile() {
    }

    /**
     * Writes {@code text} to {@code file} whole or not at all: into a temporary file in the
     * same folder, then an atomic rename over the target. On failure the target is untouched
     * and the temporary file is removed.
     */
    public static void write(Path file, String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        write(file, os -> os.write(bytes));
    }

    /** What goes into a file: written to a stream that the body must not close. */
    @FunctionalInterface
    public interface Body {
        /**
         * Writes the content.
         *
         * @param os the stream, closed by the caller
         * @throws IOException when the content cannot be written
         */
        void writeTo(OutputStream os) throws IOException;
    }

    /**
     * {@link #write(Path, String)} for content produced as a stream (an archive):
     * {@code file} is a regular file or none; the caller resolves links and refuses devices
     * first (the CLI's {@code OutputFile}), since a rename would replace them.
     */
    public static void write(Path file, Body body) throws IOException {
        Path abs = file.toAbsolutePath();
        Path dir = abs.getParent();
        Path tmp = Files.createTempFile(dir, "." + abs.getFileName() + ".", ".tmp");
        try {
            try (OutputStream os = new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16)) {
                body.writeTo(os);
            }
            keepOrShare(tmp, abs);
            try {
                Files.move(tmp, abs, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /**
     * {@code file} written whole, only if it does not exist yet, decided when the file appears
     * (not when the run started): the content goes to a temporary file that is then hard-linked
     * to {@code file}, which fails when another process took the name first. Returns false then,
     * and nothing is written. On a file system without hard links the name is created with
     * {@code O_CREAT|O_EXCL} and written in place.
     */
    public static boolean create(Path file, Body body) throws IOException {
        Path abs = file.toAbsolutePath();
        Path tmp = Files.createTempFile(abs.getParent(), "." + abs.getFileName() + ".", ".tmp");
        try {
            try (OutputStream os = new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16)) {
                body.writeTo(os);
            }
            keepOrShare(tmp, abs);
            try {
                Files.createLink(abs, tmp);
                return true;
            } catch (FileAlreadyExistsException e) {
                return false;
            } catch (UnsupportedOperationException | FileSystemException e) {
                if (Files.exists(abs, LinkOption.NOFOLLOW_LINKS)) return false;
                try (OutputStream os = new BufferedOutputStream(Files.newOutputStream(abs, StandardOpenOption.CREATE_NEW,
                        StandardOpenOption.WRITE), 1 << 16)) {
                    body.writeTo(os);
                    return true;
                } catch (FileAlreadyExistsException taken) {
                    return false;
                }
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /**
     * A temporary file is created 0600; the file it replaces keeps its own permissions and its
     * owner and group (root replacing another user's file leaves it theirs), and a new one gets
     * 0666 less this process's umask, as a shell's {@code >} would.
     */
    private static void keepOrShare(Path tmp, Path target) throws IOException {
        try {
            if (Files.exists(target)) {
                Files.setPosixFilePermissions(tmp, Files.getPosixFilePermissions(target));
                int uid = (Integer) Files.getAttribute(target, "unix:uid");
                int gid = (Integer) Files.getAttribute(target, "unix:gid");
                if (uid != (Integer) Files.getAttribute(tmp, "unix:uid") || gid != (Integer) Files.getAttribute(tmp, "unix:gid")) {
                    try {
                        Files.setAttribute(tmp, "unix:uid", uid);
                        Files.setAttribute(tmp, "unix:gid", gid);
                    } catch (IOException e) {
                        // not root: a user can give a file away to no one, and the new file is theirs as before
                    }
                }
            } else {
                Files.setPosixFilePermissions(tmp, permissions(0666 & ~umask()));
            }
        } catch (UnsupportedOperationException | IllegalArgumentException e) {
            // not a POSIX file system: its defaults apply
        }
    }

    /** This process's umask from {@code /proc/self/status} ({@code Umask: 0022}); 022 when it cannot be read. */
    static int umask() {
        try {
            return ProcPid.selfStatus().map(AtomicFile::umask).orElse(022);
        } catch (RuntimeException e) {
            return 022;
        }
    }

    /** The umask a {@code /proc/<pid>/status} names; 022 when it names none. */
    public static int umask(List<String> status) {
        for (String line : status) {
            if (line.startsWith("Umask:")) return Integer.parseInt(line.substring(6).strip(), 8) & 0777;
        }
        return 022;
    }

    private static Set<PosixFilePermission> permissions(int mode) {
        StringBuilder sb = new StringBuilder();
        String rwx = "rwx";
        for (int bit = 8; bit >= 0; bit--) sb.append((mode & (1 << bit)) != 0 ? rwx.charAt(2 - bit % 3) : '-');
        return PosixFilePermissions.fromString(sb.toString());
    }
}
