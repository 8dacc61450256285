package dev.corescope.sys.internal;

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
import java.util.concurrent.ThreadLocalRandom;

/**
 * Files written whole or not at all, the one writer below every output ({@code -o} of the
 * commands, {@code capture}): the content goes to a temporary file in the same folder, which
 * then takes the target's name by an atomic rename ({@link #write}) or a hard link that fails
 * when the name is taken ({@link #create}).
 *
 * <p>One permission rule: a replaced file keeps its permissions, owner and group (root
 * replacing another user's file leaves it theirs); a new one gets 0666 less the umask, as a
 * shell's {@code >} would, because the kernel applies the umask when the temporary file is
 * created. The temporary file takes the replaced file's permissions before any byte is written.
 */
public final class AtomicFile {

    private AtomicFile() {
    }

    /** What goes into a file: written to a stream that the body must not close. */
    @FunctionalInterface
    public interface Body {
        void writeTo(OutputStream os) throws IOException;
    }

    /** {@link #write(Path, Body)} of {@code text} in UTF-8. */
    public static void write(Path file, String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        write(file, os -> os.write(bytes));
    }

    /**
     * Writes {@code file} whole or not at all: into a temporary file in the same folder, then an
     * atomic rename over the target. On failure the target is untouched and the temporary file
     * is removed. {@code file} is a regular file or none; the caller resolves links and refuses
     * devices first (the CLI's {@code OutputFile}), since a rename would replace them.
     */
    public static void write(Path file, Body body) throws IOException {
        Path abs = file.toAbsolutePath();
        Path tmp = temporary(abs, body);
        try {
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
        Path tmp = temporary(abs, body);
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
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** A new file beside {@code target} ({@code O_EXCL}, so the umask applies) holding {@code body}; removed on failure. */
    private static Path temporary(Path target, Body body) throws IOException {
        Path tmp;
        OutputStream raw;
        while (true) {
            tmp = target.resolveSibling("." + target.getFileName() + "." + Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36) + ".tmp");
            try {
                raw = Files.newOutputStream(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                break;
            } catch (FileAlreadyExistsException e) {
                // another writer's name: draw again
            }
        }
        try (OutputStream os = new BufferedOutputStream(raw, 1 << 16)) {
            keep(tmp, target);
            body.writeTo(os);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(tmp);
            throw e;
        }
        return tmp;
    }

    /** The permissions, owner and group of the file {@code tmp} replaces, if there is one. */
    private static void keep(Path tmp, Path target) throws IOException {
        if (!Files.exists(target)) return;
        try {
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
        } catch (UnsupportedOperationException | IllegalArgumentException e) {
            // not a POSIX file system: its defaults apply
        }
    }
}
