package dev.corescope.cli;

import dev.corescope.sys.internal.Affinity;
import dev.corescope.testing.OwnThread;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code pin} as a program ({@link Main#main} in a child JVM): it becomes its command, like
 * {@code taskset}, so a signal sent to it is the command's, its status is the command's, and no
 * JVM stays around (nor prints a thread dump on SIGQUIT).
 */
class PinSignalsTest {

    @TempDir
    Path dir;

    private record Run(Process process, CompletableFuture<String> stdout, CompletableFuture<String> stderr) {
    }

    /** Every command started, killed after the test whatever happened (none may outlive it). */
    private final List<Process> started = new ArrayList<>();

    @AfterEach
    void killWhatIsLeft() throws Exception {
        for (Process p : started) {
            p.destroyForcibly();
            p.waitFor(30, TimeUnit.SECONDS);
        }
    }

    /** Skips when this JVM inherited SIG{@code name} as ignored: the command inherits that too and cannot trap it. */
    private static void assumeDeliverable(String name) {
        assumeTrue(!OwnThread.signalIgnoredHere(OwnThread.signalNumber(name)),
                () -> "SIG" + name + " is ignored in this JVM (inherited, e.g. from nohup or a background job), so the command cannot catch it either");
    }

    /** {@code pin --cpus FIRST -- sh -c SCRIPT}, returning once the shell has written {@code ready}. */
    private Run pin(String script) throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self")), "needs Linux /proc");
        Path ready = dir.resolve("ready");
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"), Main.class.getName(),
                "pin", "--cpus", String.valueOf(Affinity.allowed().first()), "--", "sh", "-c", script.replace("READY", "'" + ready + "'")));
        Process p = new ProcessBuilder(cmd).start();
        started.add(p);
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(p.getInputStream()), OwnThread.EACH);
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()), OwnThread.EACH);
        // the shell creates READY before it writes its pid there: wait for the pid, not the file
        for (int i = 0; i < 600 && !(Files.exists(ready) && Files.size(ready) > 0) && p.isAlive(); i++) Thread.sleep(100);
        assertTrue(Files.exists(ready), () -> "the command never started; stderr: " + err.getNow(""));
        return new Run(p, out, err);
    }

    private static String read(java.io.InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            return "";
        }
    }

    private static void kill(String signal, long pid) throws Exception {
        assertEquals(0, new ProcessBuilder("kill", "-" + signal, String.valueOf(pid)).inheritIO().start().waitFor());
    }

    private static final String LOOP = "; echo $$ > READY; while :; do sleep 0.1; done";

    @Test
    void sigtermReachesTheCommandAndPinExitsWithItsStatus() throws Exception {
        assumeDeliverable("TERM");
        Run r = pin("trap 'exit 4' TERM" + LOOP);
        long shellPid = Long.parseLong(Files.readString(dir.resolve("ready")).strip());
        assertEquals(r.process().pid(), shellPid, "pin became its command (same pid), so nothing of it can outlive the command");
        kill("TERM", r.process().pid());
        assertTrue(r.process().waitFor(30, TimeUnit.SECONDS), "the command did not stop on SIGTERM");
        assertEquals(4, r.process().exitValue(), r.stderr().get(5, TimeUnit.SECONDS));
    }

    @Test
    void sighupAndTheUserSignalsReachTheCommand() throws Exception {
        for (String[] s : new String[][] {{"USR1", "6"}, {"USR2", "7"}, {"HUP", "5"}}) {  // HUP last: the one nohup leaves ignored
            assumeDeliverable(s[0]);
            Files.deleteIfExists(dir.resolve("ready"));
            Run r = pin("trap 'exit " + s[1] + "' " + s[0] + LOOP);
            kill(s[0], r.process().pid());
            assertTrue(r.process().waitFor(30, TimeUnit.SECONDS), "the command did not stop on SIG" + s[0]);
            assertEquals(Integer.parseInt(s[1]), r.process().exitValue(), "SIG" + s[0]);
        }
    }

    @Test
    void sigquitIsTheCommandsAndPrintsNoThreadDump() throws Exception {
        assumeDeliverable("QUIT");
        Run r = pin("trap 'echo got-quit; exit 9' QUIT" + LOOP);
        kill("QUIT", r.process().pid());
        assertTrue(r.process().waitFor(30, TimeUnit.SECONDS), "SIGQUIT did not reach the command (blocked in its signal mask?)");
        assertEquals(9, r.process().exitValue());
        String out = r.stdout().get(5, TimeUnit.SECONDS);
        assertEquals("got-quit\n", out);
        assertFalse(out.contains("Full thread dump"), out);
    }

    @Test
    void theCommandStartsWithNoSignalBlockedAndNoDescriptorOfTheJvm() throws Exception {
        Run r = pin("grep SigBlk /proc/self/status > '"+dir.resolve("ready.status")+"'; ls /proc/self/fd | wc -l > '"+dir.resolve("ready.fds")+"'" + LOOP);
        kill("KILL", r.process().pid());
        r.process().waitFor(30, TimeUnit.SECONDS);
        assertEquals("SigBlk:\t0000000000000000", Files.readString(dir.resolve("ready.status")).strip());
        // 0, 1, 2 and the one ls opens to list the folder
        assertEquals("4", Files.readString(dir.resolve("ready.fds")).strip());
    }
}
