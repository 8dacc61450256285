package dev.corescope.cli;

import dev.corescope.bench.BenchFamily;
import dev.corescope.bench.BenchSession;
import dev.corescope.bench.Progress;
import dev.corescope.report.ResultsFile;
import dev.corescope.text.Width;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Timer;
import java.util.TimerTask;
import java.util.function.LongSupplier;

/**
 * Progress of a bench run on stderr. On a terminal: one bar redrawn in place,
 * {@code [2/5] timerbase [######......] 3/8 before/java 0:14}; elsewhere (a pipe, a CI log):
 * one plain line per step and per family, so logs stay readable.
 *
 * <p><b>Note:</b> thread-safe; a family may report from its own threads.
 */
final class ProgressBar implements Progress, BenchSession.Listener {

    private static final int BAR_WIDTH = 24;

    private final PrintWriter err;
    private final boolean terminal;
    private final LongSupplier nanoTime;

    private String family = "";
    private String counter = "";
    private long familyStart;
    private String task = "";
    private int total;
    private int done;
    private String detail = "";
    private boolean drawn;
    private Timer ticker;

    private final long tickMillis;
    private final int width = Width.of(false);

    ProgressBar(PrintWriter err, boolean terminal, LongSupplier nanoTime) {
        this(err, terminal, nanoTime, 1000);
    }

    /** @param tickMillis how often a terminal bar redraws between steps; 0: only on steps */
    ProgressBar(PrintWriter err, boolean terminal, LongSupplier nanoTime, long tickMillis) {
        this.err = err;
        this.terminal = terminal;
        this.nanoTime = nanoTime;
        this.tickMillis = tickMillis;
    }

    /** Whether file descriptor 2 is a terminal: its {@code /proc/self/fd/2} link names a tty. */
    static boolean stderrIsTerminal() {
        if ("dumb".equals(System.getenv("TERM"))) return false;
        try {
            String target = Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty") || target.equals("/dev/console");
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return false;
        }
    }

    @Override
    public synchronized void familyStarted(int index, int total, BenchFamily f) {
        family = f.name();
        counter = "[" + (index + 1) + "/" + total + "]";
        familyStart = nanoTime.getAsLong();
        task = "";
        this.total = 0;
        done = 0;
        detail = "";
        if (terminal) {
            draw();
            startTicker();
        } else {
            line(counter + " " + family + ": running");
        }
    }

    /** On a terminal, the clock keeps moving during a long step: redraw once a second. */
    private void startTicker() {
        if (ticker != null || tickMillis <= 0) return;
        ticker = new Timer("corescope-progress", true);
        ticker.scheduleAtFixedRate(new TimerTask() {
            @Override
            public void run() {
                synchronized (ProgressBar.this) {
                    if (drawn) draw();
                }
            }
        }, tickMillis, tickMillis);
    }

    @Override
    public synchronized void familyFinished(int index, int total, BenchFamily f, ResultsFile.Failure failure) {
        String outcome = failure == null ? "done in " + elapsed() : "FAILED after " + elapsed() + ": " + failure.reason();
        if (ticker != null) {
            ticker.cancel();
            ticker = null;
        }
        if (terminal) clear();
        line(counter + " " + family + ": " + outcome);
    }

    @Override
    public synchronized void start(String task, int total) {
        this.task = task;
        this.total = Math.max(0, total);
        done = 0;
        detail = "";
        if (terminal) draw();
    }

    /** The step that starts now: on a terminal the bar names it; elsewhere the first step of a task is printed at once. */
    @Override
    public synchronized void begin(String detail) {
        this.detail = detail == null ? "" : detail;
        if (terminal) draw();
        else if (done == 0) progressLine((done + 1) + "/" + total + " " + this.detail + " ...");
    }

    @Override
    public synchronized void step(String detail) {
        done = Math.min(done + 1, Math.max(total, done + 1));
        this.detail = detail == null ? "" : detail;
        if (terminal) {
            draw();
        } else {
            // the family is named once: a task that repeats it ("bench locks") is left out
            progressLine(done + "/" + total + " " + this.detail);
        }
    }

    private void draw() {
        StringBuilder sb = new StringBuilder("\r\033[K").append(counter).append(' ').append(family).append(' ');
        if (total > 0) {
            int filled = (int) Math.round((double) BAR_WIDTH * Math.min(done, total) / total);
            sb.append('[').append("#".repeat(filled)).append(".".repeat(BAR_WIDTH - filled)).append("] ")
                    .append(done).append('/').append(total).append(' ');
        } else {
            sb.append("[").append(".".repeat(BAR_WIDTH)).append("] ");
        }
        String clock = "  " + elapsed();
        // "\r\033[K" takes no columns; the line keeps within the width, the clock last
        int room = width - (sb.length() - 4) - clock.length();
        sb.append(fit(detail, room)).append(clock);
        err.print(sb);
        err.flush();
        drawn = true;
    }

    private void clear() {
        if (drawn) err.print("\r\033[K");
        drawn = false;
    }

    /**
     * A step's line off a terminal, within the width: the family named once (a task that repeats
     * it, "bench locks", is left out), the step, the clock last.
     */
    private void progressLine(String step) {
        String clock = " (" + elapsed() + ")";
        String head = "corescope: " + counter + " " + family + (task.isEmpty() || task.contains(family) ? "" : " " + task) + " ";
        err.println(head + fit(step, width - head.length() - clock.length()) + clock);
        err.flush();
    }

    private void line(String text) {
        err.println("corescope: " + text);
        err.flush();
    }

    /** {@code text} cut to {@code room} columns, with {@code ...} where it was cut. */
    static String fit(String text, int room) {
        if (text.length() <= room) return text;
        if (room <= 3) return "";
        return text.substring(0, room - 3) + "...";
    }

    private String elapsed() {
        long s = Math.max(0, (nanoTime.getAsLong() - familyStart) / 1_000_000_000L);
        return String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
    }
}
