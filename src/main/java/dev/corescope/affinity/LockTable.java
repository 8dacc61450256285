package dev.corescope.affinity;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.Map;

/**
 * The lock files this process holds, one {@code FileChannel.tryLock} each (a POSIX record
 * lock: the kernel drops it when the process dies, however it dies).
 *
 * <p>One table per process, and every open and close of a lock file goes through it: POSIX
 * locks belong to the process, and closing <em>any</em> descriptor of a file drops all of the
 * process's locks on it. So a lock file this process holds is never opened a second time
 * (not to try it, not to read who holds it), and the table answers for it instead.
 */
final class LockTable {

    /** A lock this process holds. */
    record Held(Path file, FileChannel channel, FileLock lock, String holder) {
    }

    private static final Map<Path, Held> HELD = new HashMap<>();

    private LockTable() {
    }

    /**
     * Takes the lock on {@code file} (created with {@code O_NOFOLLOW} if missing) and writes
     * {@code holder} into it; null when this or another process holds it.
     */
    static synchronized Held tryLock(Path file, String holder) {
        if (HELD.containsKey(file)) return null;
        FileChannel ch;
        try {
            ch = FileChannel.open(file, java.util.Set.of(StandardOpenOption.CREATE, StandardOpenOption.READ,
                            StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS),
                    PosixFilePermissions.asFileAttribute(LockDirectory.lockFileMode(file.getParent())));
        } catch (IOException e) {
            throw new ReservationException("cannot open the lock file " + file + ": " + describe(e), e);
        }
        try {
            FileLock lock = ch.tryLock();
            if (lock == null) {
                ch.close();  // this process held no lock on the file, so closing drops nothing
                return null;
            }
            ch.truncate(0);
            ch.write(ByteBuffer.wrap((holder + "\n").getBytes(StandardCharsets.UTF_8)), 0);
            Held h = new Held(file, ch, lock, holder);
            HELD.put(file, h);
            return h;
        } catch (OverlappingFileLockException e) {
            closeQuietly(ch);
            return null;
        } catch (IOException e) {
            closeQuietly(ch);
            throw new ReservationException("cannot lock " + file + ": " + describe(e), e);
        }
    }

    /** Releases the lock on {@code file} if this process holds it. */
    static synchronized void release(Path file) {
        Held h = HELD.remove(file);
        if (h == null) return;
        try {
            h.lock().release();
        } catch (IOException e) {
            // closing the channel below drops the lock anyway
        }
        closeQuietly(h.channel());
    }

    /** The holder line this process wrote, when it holds {@code file}. */
    static synchronized String heldHere(Path file) {
        Held h = HELD.get(file);
        return h == null ? null : h.holder();
    }

    /**
     * The text in {@code file}: the last holder's line. Read from the table when this process
     * holds it (see the class note); empty when the file does not exist.
     */
    static synchronized String lastHolder(Path file) {
        Held h = HELD.get(file);
        if (h != null) return h.holder();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            ByteBuffer buf = ByteBuffer.allocate(4096);
            ch.read(buf, 0);
            buf.flip();
            return StandardCharsets.UTF_8.decode(buf).toString().strip();
        } catch (NoSuchFileException e) {
            return "";
        } catch (IOException e) {
            return "(unreadable: " + describe(e) + ")";
        }
    }

    private static void closeQuietly(FileChannel ch) {
        try {
            ch.close();
        } catch (IOException e) {
            // nothing more to release
        }
    }

    private static String describe(IOException e) {
        String name = e.getClass().getSimpleName().replace("Exception", "");
        return e.getMessage() == null ? name : name + " " + e.getMessage();
    }
}
