package dev.corescope.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One benchmark run at a time per user: {@code bench}, the tour and {@code jmh} hold this lock
 * while they measure; a second run of the same user waits with one line on stderr. JMH's own
 * lock ({@code /tmp/jmh.lock}) is shared by every user, so one user's run failed another's;
 * corescope turns it off ({@code jmh.ignoreLock}) where it holds its own.
 *
 * <p>The lock file is {@code corescope-bench.lock} in {@code $XDG_RUNTIME_DIR}, else in
 * {@code ~/.cache/corescope/} (created {@code 0700}), a folder nobody else may write; where
 * neither is this user's alone, nothing is locked here and JMH's own lock stays on.
 *
 * <p><b>Note:</b> runs of different users are not serialised: each measures on the CPUs it was
 * given, and the results file records the machine's load.
 */
final class BenchLock implements AutoCloseable {

    static final String FILE = "corescope-bench.lock";
    private static final long POLL_MILLIS = 200;
    /** Two runs in one JVM (tests) wait here: a file lock cannot be taken twice by one process. */
    private static final ReentrantLock IN_PROCESS = new ReentrantLock();

    private final FileChannel channel;
    private final FileLock lock;
    private final boolean inProcess;

    private BenchLock(FileChannel channel, FileLock lock, boolean inProcess) {
        this.channel = channel;
        this.lock = lock;
        this.inProcess = inProcess;
    }

    /**
     * Takes this user's lock, waiting (with one line on {@code err}) while another run of this
     * user holds it; Ctrl-C ends the wait.
     */
    static BenchLock acquire(PrintWriter err) throws InterruptedException {
        if (IN_PROCESS.isHeldByCurrentThread()) return new BenchLock(null, null, false);
        IN_PROCESS.lockInterruptibly();
        try {
            Path file = file();
            if (file == null) return new BenchLock(null, null, true);
            FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE,
                    LinkOption.NOFOLLOW_LINKS);
            try {
                FileLock l = ch.tryLock();
                if (l == null) {
                    err.println("corescope: waiting for this user's other benchmark run (pid " + holder(ch)
                            + ") to finish; one run measures at a time (" + file + "; Ctrl-C stops waiting)");
                    err.flush();
                    while ((l = ch.tryLock()) == null) Thread.sleep(POLL_MILLIS);
                }
                System.setProperty("jmh.ignoreLock", "true");  // read when JMH's Runner class is first used
                byte[] pid = (ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII);
                ch.truncate(0);
                ch.write(ByteBuffer.wrap(pid), 0);
                return new BenchLock(ch, l, true);
            } catch (IOException | RuntimeException | InterruptedException e) {
                ch.close();
                throw e;
            }
        } catch (IOException e) {
            return new BenchLock(null, null, true);  // an unusable lock file: JMH's own lock decides, as before
        } catch (RuntimeException | InterruptedException e) {
            IN_PROCESS.unlock();
            throw e;
        }
    }

    /** The pid the holder wrote, or "unknown". */
    private static String holder(FileChannel ch) {
        try {
            ByteBuffer b = ByteBuffer.allocate(24);
            ch.read(b, 0);
            String s = new String(b.array(), 0, b.position(), StandardCharsets.US_ASCII).strip();
            return s.matches("[0-9]{1,10}") ? s : "unknown";
        } catch (IOException e) {
            return "unknown";
        }
    }

    /** The lock file in a folder only this user may enter, or null when there is none. */
    static Path file() {
        String runtime = System.getenv("XDG_RUNTIME_DIR");
        if (runtime != null && !runtime.isEmpty() && Path.of(runtime).isAbsolute()) {
            Path dir = Path.of(runtime);
            privateFolder(dir);
            if (private_(dir)) return dir.resolve(FILE);
        }
        String home = System.getProperty("user.home");
        if (home == null || home.isEmpty() || home.equals("?")) return null;
        Path dir = Path.of(home, ".cache", "corescope");
        privateFolder(dir);
        return private_(dir) ? dir.resolve(FILE) : null;
    }

    /** Creates {@code dir} {@code 0700} (its parents as the umask says) when it is missing; {@link #private_} then decides. */
    private static void privateFolder(Path dir) {
        try {
            if (Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) return;
            Files.createDirectories(dir.getParent());
            Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        } catch (IOException | UnsupportedOperationException e) {
            // not made: private_ finds it missing
        }
    }

    /** A real folder (not a link) of this user's that no one else may write into. */
    private static boolean private_(Path dir) {
        try {
            if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) return false;
            int owner = (Integer) Files.getAttribute(dir, "unix:uid", LinkOption.NOFOLLOW_LINKS);
            int mode = (Integer) Files.getAttribute(dir, "unix:mode", LinkOption.NOFOLLOW_LINKS);
            int me = (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
            return owner == me && (mode & 0022) == 0;
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return false;
        }
    }

    @Override
    public void close() {
        try {
            if (lock != null) lock.release();
            if (channel != null) channel.close();
        } catch (IOException e) {
            // closing the channel releases the lock; the process's end would too
        } finally {
            if (inProcess) IN_PROCESS.unlock();
        }
    }
}
