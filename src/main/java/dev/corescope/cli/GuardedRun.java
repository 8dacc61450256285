package dev.corescope.cli;

import dev.corescope.bench.BenchSession;
import dev.corescope.report.Json;
import dev.corescope.report.ResultsFile;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Runs a {@link BenchSession} under a JVM shutdown hook, so Ctrl-C (SIGINT), SIGTERM and
 * SIGHUP stop it cleanly: the hook interrupts the worker, waits up to {@link #STOP_WAIT} for the
 * families to stop their threads and unpin, then writes what finished to the results file
 * (atomically) and says so in one stderr line. The JVM then exits with 128 + the signal
 * number (130 for SIGINT), as shells expect.
 */
final class GuardedRun {

    static final Duration STOP_WAIT = Duration.ofSeconds(10);

    /**
     * JMH's stream drainers log a SEVERE stack trace when an interrupted run closes the forked
     * JVM's output under them; after Ctrl-C that is noise, so JMH's logger is silenced then.
     * Held here because java.util.logging keeps loggers only weakly.
     */
    private static final java.util.logging.Logger JMH_LOG = java.util.logging.Logger.getLogger("org.openjdk.jmh");

    private final BenchSession session;
    private final Path saveTo;
    private final PrintWriter err;
    private final CountDownLatch mainDone = new CountDownLatch(1);
    private volatile boolean signalled;

    /**
     * @param saveTo where the hook saves the finished results; null: nowhere (they are lost
     *               with the process, and the stderr line says so)
     */
    GuardedRun(BenchSession session, Path saveTo, PrintWriter err) {
        this.session = session;
        this.saveTo = saveTo;
        this.err = err;
    }

    /**
     * Runs the session. Returns the results file, or null when a signal stopped it (the hook
     * has then saved and reported; the caller should print nothing more).
     */
    ResultsFile run() throws InterruptedException {
        Thread hook = new Thread(this::onShutdown, "corescope-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            session.run();
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running or about to: it decides what is saved
            }
        }
        if (signalled && session.aborted()) return null;
        return session.resultsFile();
    }

    /** The caller has written and printed everything: a late hook has nothing to wait for. */
    void done() {
        mainDone.countDown();
    }

    private void onShutdown() {
        signalled = true;
        JMH_LOG.setLevel(java.util.logging.Level.OFF);
        if (!session.abort("interrupted by a signal (Ctrl-C)", STOP_WAIT)) {
            // finished just before the signal: let the caller finish writing what it has
            try {
                mainDone.await(STOP_WAIT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return;
        }
        ResultsFile partial = session.resultsFile();
        int kept = session.runs().size();
        String where;
        if (saveTo == null) {
            where = "not saved (no -o FILE given)";
        } else {
            try {
                Json.writeAtomically(saveTo, Json.write(partial));
                where = "saved to " + saveTo;
            } catch (IOException | RuntimeException e) {
                where = "could not be saved to " + saveTo + ": " + e.getMessage();
            }
        }
        err.println("corescope: interrupted: " + kept + " finished " + (kept == 1 ? "family" : "families") + " " + where);
        err.flush();
    }
}
