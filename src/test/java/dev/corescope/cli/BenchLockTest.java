package dev.corescope.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Two processes of one user: the second benchmark run waits for the first with one line,
 * instead of failing on JMH's machine-wide lock; the lock lives where only this user may write.
 */
class BenchLockTest {

    @TempDir
    Path tmp;

    /** A process that takes the lock, says "held", and keeps it until its stdin closes. */
    public static final class Holder {
        public static void main(String[] args) throws Exception {
            if (args.length > 0 && args[0].equals("where")) {
                System.out.println(BenchLock.file());
                return;
            }
            try (BenchLock ignored = BenchLock.acquire(new PrintWriter(System.err, true))) {
                System.out.println("held ignoreLock=" + System.getProperty("jmh.ignoreLock"));
                System.out.flush();
                while (System.in.read() >= 0) {
                    // hold until stdin closes
                }
            }
        }
    }

    private Process start(Path runtimeDir, String... args) throws Exception {
        List<String> cmd = new java.util.ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Duser.home=" + tmp.resolve("home"), "-cp", System.getProperty("java.class.path"), Holder.class.getName()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().put("XDG_RUNTIME_DIR", runtimeDir.toString());
        return pb.start();
    }

    private static BufferedReader lines(java.io.InputStream in) {
        return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
    }

    @Test
    void aSecondRunOfTheSameUserWaitsForTheFirstWithOneLineAndThenRuns() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self")), "needs Linux /proc");
        Path runtime = Files.createDirectory(tmp.resolve("run"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Process first = start(runtime);
        Process second = null;
        try {
            assertEquals("held ignoreLock=true", lines(first.getInputStream()).readLine(), "JMH's machine-wide lock is off where corescope holds its own");
            second = start(runtime);
            BufferedReader err = lines(second.getErrorStream());
            assertEquals("corescope: waiting for this user's other benchmark run (pid " + first.pid() + ") to finish; one run measures at a time ("
                    + runtime.resolve(BenchLock.FILE) + "; Ctrl-C stops waiting)", err.readLine());
            assertEquals(0, second.getInputStream().available(), "the second waits while the first holds the lock");
            first.getOutputStream().close();
            assertTrue(first.waitFor(60, TimeUnit.SECONDS));
            assertEquals("held ignoreLock=true", lines(second.getInputStream()).readLine());
            second.getOutputStream().close();
            assertTrue(second.waitFor(60, TimeUnit.SECONDS));
            assertEquals(0, second.exitValue());
            assertEquals(null, err.readLine(), "one line on stderr");
        } finally {
            first.destroyForcibly();
            if (second != null) second.destroyForcibly();
        }
    }

    /** A runtime folder others may write into could hold a lock file another user planted: the lock goes to the user's own cache. */
    @Test
    void aFolderOthersMayWriteIsNotWhereTheLockLives() throws Exception {
        Path open = Files.createDirectory(tmp.resolve("open"));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
        Process p = start(open, "where");
        String where = lines(p.getInputStream()).readLine();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(tmp.resolve("home/.cache/corescope").resolve(BenchLock.FILE).toString(), where);
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(tmp.resolve("home/.cache/corescope"))));
    }
}
