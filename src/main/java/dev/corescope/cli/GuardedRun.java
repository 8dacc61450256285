package dev.corescope.cli;

import dev.corescope.bench.BenchSession;
import dev.corescope.report.ResultsFile;
import sun.misc.Signal;
import sun.misc.SignalHandler;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Runs a {@link BenchSession} under a JVM shutdown hook, so Ctrl-C (SIGINT), SIGTERM and
 * SIGHUP stop it cleanly (and under this user's {@link BenchLock}, one run at a time): the hook
 * interrupts the worker, waits up to {@link #STOP_WAIT} for the families to stop their threads
 * and unpin, then writes what finished through the run's {@link ResultsWriter} and says where
 * in one stderr line naming the signal. The JVM then exits with 128 + the signal number (130 for
 * SIGINT), as shells expect.
 */
final class GuardedRun {

    static final Duration STOP_WAIT = Duration.ofSeconds(10);

    /** Silenced after Ctrl-C (its drainers log the closed fork's output as SEVERE); held because JUL keeps loggers weakly. */
    private static final Logger JMH_LOG = Logger.getLogger("org.openjdk.jmh");

    private final BenchSession session;
    private final ResultsWriter writer;
    private final PrintWriter err;
    private final CountDownLatch mainDone = new CountDownLatch(1);
    private volatile boolean signalled;
    /** The signal that stopped the run, as its handler saw it (the shutdown hook cannot tell). */
    private volatile String signal;

    /** @param writer saves the finished results (it watches {@code session}) */
    GuardedRun(BenchSession session, ResultsWriter writer, PrintWriter err) {
        this.session = session;
        this.writer = writer.watch(session);
        this.err = err;
    }

    /**
     * Runs the session. Returns the results file, or null when a signal stopped it (the hook
     * has then saved and reported; the caller should print nothing more).
     */
    ResultsFile run() throws InterruptedException {
        try (BenchLock ignored = BenchLock.acquire(err)) {
            return runLocked();
        }
    }

    private ResultsFile runLocked() throws InterruptedException {
        Thread hook = new Thread(this::onShutdown, "corescope-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        List<Runnable> restore = recordSignals();
        try {
            session.run();
        } finally {
            restore.forEach(Runnable::run);
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

    /**
     * Handlers for SIGINT, SIGTERM and SIGHUP that note which signal came, then pass it on to the
     * JVM's (which starts the shutdown, and {@link #onShutdown}); returns what puts them back. A
     * signal ignored when the JVM started stays ignored.
     */
    @SuppressWarnings("removal")
    private List<Runnable> recordSignals() {
        List<Runnable> restore = new ArrayList<>();
        for (String name : List.of("INT", "TERM", "HUP")) {
            try {
                Signal sig = new Signal(name);
                SignalHandler[] previous = new SignalHandler[1];
                previous[0] = Signal.handle(sig, s -> {
                    signal = "SIG" + name;
                    SignalHandler p = previous[0];
                    if (p != null && p != SignalHandler.SIG_DFL && p != SignalHandler.SIG_IGN) p.handle(s);
                    else System.exit(128 + s.getNumber());
                });
                if (previous[0] == SignalHandler.SIG_IGN) {
                    Signal.handle(sig, SignalHandler.SIG_IGN);
                    continue;
                }
                restore.add(() -> Signal.handle(sig, previous[0]));
            } catch (IllegalArgumentException | UnsupportedOperationException e) {
                // the JVM keeps this signal for itself (-Xrs and the like): its shutdown hook still runs
            }
        }
        return restore;
    }

    /** {@code SIGTERM}, {@code SIGINT (Ctrl-C)}, or {@code a signal} when it is not known which. */
    private String signalName() {
        String s = signal;
        if (s == null) return "a signal";
        return s.equals("SIGINT") ? "SIGINT (Ctrl-C)" : s;
    }

    private void onShutdown() {
        signalled = true;
        JMH_LOG.setLevel(Level.OFF);
        StandardOutput.muteAfterInterrupt();  // exit 130 leaves stdout clean: no fork's stack trace relayed there
        if (!session.abort("interrupted by " + signalName(), STOP_WAIT)) {
            StandardOutput.unmute();  // it had finished: its output goes on
            // finished just before the signal: the results are saved now, then the caller may
            // finish printing (finish is done once, whoever comes first)
            try {
                writer.finish(session.resultsFile(), session.runs().size());
            } catch (RuntimeException e) {
                err.println("corescope: interrupted by " + signalName() + ": " + Main.reason(e));
                err.flush();
            }
            try {
                mainDone.await(STOP_WAIT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return;
        }
        ResultsFile partial = session.resultsFile();
        int kept = session.runs().size();
        String where = writer.interrupted(partial, kept);
        String finished = kept == 0 ? "no family had finished; " : kept + " finished " + (kept == 1 ? "family " : "families ");
        err.println("corescope: interrupted by " + signalName() + ": " + finished + where);
        err.flush();
    }
}
