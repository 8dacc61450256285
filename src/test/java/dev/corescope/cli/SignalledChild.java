package dev.corescope.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A child JVM that a test interrupts: its stderr is collected line by line (the test waits for
 * a marker line that says the work has started), its stdout as a whole, and a signal is sent
 * with {@code kill}. Close it to make sure the child is gone.
 */
final class SignalledChild implements AutoCloseable {

    private final Process child;
    private final List<String> err = new ArrayList<>();
    private final CountDownLatch started = new CountDownLatch(1);
    private final CompletableFuture<Void> reader;
    private final CompletableFuture<String> stdout;

    /** Starts {@code pb}; {@code marker} is the text of the stderr line that says the work has started. */
    SignalledChild(ProcessBuilder pb, String marker) throws IOException {
        child = pb.start();
        reader = CompletableFuture.runAsync(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(child.getErrorStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    synchronized (err) {
                        err.add(line);
                    }
                    if (line.contains(marker)) started.countDown();
                }
            } catch (IOException ignored) {
                // the child is gone
            }
        }, dev.corescope.testing.OwnThread.EACH);
        stdout = CompletableFuture.supplyAsync(() -> {
            try {
                return new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                return "unreadable: " + e;
            }
        }, dev.corescope.testing.OwnThread.EACH);
    }

    /** Waits until the marker line came, sends SIG{@code signal} and waits for the child to end; returns its exit value. */
    int interruptOnceStarted(String signal) throws Exception {
        // a signal this JVM inherited as ignored is ignored by the child JVM too (it installs no handler for it)
        org.junit.jupiter.api.Assumptions.assumeTrue(!dev.corescope.testing.OwnThread.signalIgnoredHere(dev.corescope.testing.OwnThread.signalNumber(signal)),
                () -> "SIG" + signal + " is ignored in this JVM (inherited, e.g. from a background job), so the child cannot be interrupted by it");
        assertTrue(started.await(60, TimeUnit.SECONDS) || !child.isAlive(), () -> "the blocking family never started: " + err());
        assertTrue(child.isAlive(), () -> "the child exited early: " + err());
        assertEquals(0, new ProcessBuilder("kill", "-" + signal, String.valueOf(child.pid())).inheritIO().start().waitFor());
        assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the child did not stop within 60 s of SIG" + signal);
        reader.get(10, TimeUnit.SECONDS);
        return child.exitValue();
    }

    /** The stderr lines so far. */
    List<String> err() {
        synchronized (err) {
            return List.copyOf(err);
        }
    }

    /** All of stdout (waits for it to end). */
    String stdout() throws Exception {
        return stdout.get(10, TimeUnit.SECONDS);
    }

    @Override
    public void close() {
        child.destroyForcibly();
    }
}
