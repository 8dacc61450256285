package dev.corescope.cli;

import dev.corescope.bench.BenchFamily;
import dev.corescope.bench.BenchSession;
import dev.corescope.report.Json;
import dev.corescope.report.ResultsFile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;

/**
 * The one writer of results files ({@code bench -o}, the tour, {@code jitter -o}): what finished
 * is written after each family ({@link #familyFinished}); a file is never replaced by a run that
 * has less (the tour's default name never, a named {@code -o} only by a complete run), the rest
 * goes beside it under a timestamped name taken with an exclusive create; a run in which nothing
 * finished writes nothing. docs/files-and-signals.md has the rules.
 *
 * <p>All methods are synchronized: the worker thread (after a family), the main thread (at the
 * end) and a shutdown hook (on a signal) share one writer.
 */
final class ResultsWriter implements BenchSession.Listener {

    /** Where results were saved ({@code path} as the user would type it) and the line that says so. */
    record Saved(String line, Path path, boolean beside) {
    }

    private final OutputFile target;
    private final boolean neverReplace;
    private BenchSession session;
    /** The file this run has claimed (created), or null before the first write. */
    private OutputFile claimed;
    /** Whether {@link #claimed} is {@link #target} itself. */
    private boolean claimedTarget;
    private boolean finished;
    private Saved last;

    /**
     * @param target       where the results go; null: nowhere (bench without {@code -o})
     * @param neverReplace true for the tour's default name, which an earlier run keeps;
     *                     false for a named {@code -o}, which a complete run replaces
     */
    ResultsWriter(OutputFile target, boolean neverReplace) {
        this.target = target;
        this.neverReplace = neverReplace;
    }

    /** The session whose finished families {@link #familyFinished} saves. */
    ResultsWriter watch(BenchSession session) {
        this.session = session;
        return this;
    }

    boolean saves() {
        return target != null;
    }

    @Override
    public void familyFinished(int index, int total, BenchFamily family, ResultsFile.Failure failure) {
        if (session == null || target == null || failure != null) return;
        try {
            checkpoint(session.resultsFile());
        } catch (IOException | RuntimeException e) {
            // the final write reports its own failure; a checkpoint that failed loses nothing yet
        }
    }

    /** What finished so far, written to this run's file (claimed at the first call). */
    synchronized void checkpoint(ResultsFile soFar) throws IOException {
        if (finished || target == null) return;
        // a device or FIFO gets one document, at the end
        if (claimed == null && Files.exists(target.path()) && !target.holdsAFile()) return;
        write(Json.write(soFar), "interrupted");
    }

    /**
     * The run's end: writes {@code file} when any family finished ({@code finishedFamilies > 0})
     * and returns where; null when nothing is saved (no target, or nothing finished: then no file
     * is left, not even an empty one).
     */
    synchronized Saved finish(ResultsFile file, int finishedFamilies) {
        if (finished) return last;
        finished = true;
        if (target == null || finishedFamilies == 0) return null;
        boolean complete = file.failures().isEmpty();
        String json = Json.write(file);
        try {
            if (complete && !neverReplace) {
                // a complete run replaces a named -o file; a checkpoint beside it is no longer needed
                target.write(json);
                if (claimed != null && !claimedTarget) Files.deleteIfExists(claimed.path());
                claimed = target;
                claimedTarget = true;
            } else {
                if (claimed != null && !claimedTarget && !complete) rename("partial");
                write(json, complete ? "run" : "partial");
            }
        } catch (IOException e) {
            throw claimed == null ? target.cannotWrite(e) : claimed.cannotWrite(e);
        }
        last = saved();
        return last;
    }

    /**
     * After a signal: what finished, saved as {@link #finish} would save a partial run, but
     * under {@code -interrupted-} beside an earlier file. Returns the end of the stderr line
     * ("saved to X", "not saved (...)").
     */
    synchronized String interrupted(ResultsFile partial, int finishedFamilies) {
        if (finished && last != null) return "saved to " + last.path();
        finished = true;
        if (finishedFamilies == 0) return "nothing saved";
        if (target == null) return "not saved (no -o FILE given)";
        try {
            write(Json.write(partial), "interrupted");
            last = saved();
            return "saved to " + claimed.path() + (claimedTarget ? "" : " (" + target.path() + " holds an earlier run and was kept)");
        } catch (IOException | RuntimeException e) {
            return "could not be saved to " + (claimed == null ? target : claimed).path() + ": " + Main.reason(e);
        }
    }

    private Saved saved() {
        String note = claimedTarget ? "" : " (" + target.path() + " holds an earlier run and was kept"
                + (neverReplace ? ")" : ": this run has failed families)");
        return new Saved("results written to " + claimed.path() + note, claimed.path(), !claimedTarget);
    }

    /** Writes to the claimed file, claiming one first: the target if it is free now, else a free name beside it. */
    private void write(String json, String tag) throws IOException {
        if (claimed != null) {
            claimed.write(json);
        } else if (!target.holdsAFile() && target.create(json)) {
            claimed = target;
            claimedTarget = true;
        } else {
            claimBeside(neverReplace ? "run" : tag, json);
        }
    }

    /** Claims a free {@code tag} name beside the target, with {@code text} in it. */
    private void claimBeside(String tag, String text) throws IOException {
        for (int attempt = 0; attempt <= 100; attempt++) {
            OutputFile beside = target.beside(tag, Instant.now());
            if (beside.create(text)) {
                claimed = beside;
                claimedTarget = false;
                return;
            }
        }
        throw new IOException("no free name beside " + target.path());
    }

    /** The claimed file under a {@code tag} name beside the target (e.g. from -interrupted- to -partial-). */
    private void rename(String tag) throws IOException {
        if (neverReplace) return;
        String text = Files.readString(claimed.path());
        OutputFile old = claimed;
        claimed = null;
        claimBeside(tag, text);
        Files.deleteIfExists(old.path());
    }
}
