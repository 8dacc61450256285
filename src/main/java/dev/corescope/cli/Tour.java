package dev.corescope.cli;

import dev.corescope.bench.BenchContext;
import dev.corescope.bench.BenchFamily;
import dev.corescope.bench.BenchSession;
import dev.corescope.bench.RunSize;
import dev.corescope.report.EnvironmentProbe;
import dev.corescope.report.ResultsFile;
import dev.corescope.report.ResultsText;
import dev.corescope.sys.internal.Os;
import dev.corescope.text.Width;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code ./run.sh} with no arguments: the machine in a few lines, every registered family in
 * quick mode with a progress bar on stderr, one summary table, and the results saved as
 * {@code corescope-results.json} (atomically) with the commands that turn it into a report.
 */
final class Tour {

    static final String RESULTS_FILE = "corescope-results.json";

    private final List<BenchFamily> families;
    private final Path saveTo;
    private final boolean named;
    private final PrintWriter out;
    private final PrintWriter err;
    private int width = Width.DEFAULT;

    /**
     * @param saveTo where the results go
     * @param named  whether the user named it ({@code -o}): then it is replaced by a complete run;
     *               the default name never replaces an earlier run (this run's results get a new name)
     */
    Tour(List<BenchFamily> families, Path saveTo, boolean named, PrintWriter out, PrintWriter err) {
        this.families = families;
        this.saveTo = saveTo;
        this.named = named;
        this.out = out;
        this.err = err;
    }

    /**
     * The parts a family could not measure on this machine, with the family's own reason
     * ({@link BenchFamily#notMeasured}, decided on its saved model); empty when nothing was left
     * out. The summary table alone would just be missing those rows.
     */
    static List<String> notMeasured(ResultsFile file, List<BenchFamily> families) {
        return families.stream().flatMap(f -> f.notMeasured(file).stream().map(n -> f.name() + ": " + n)).toList();
    }

    private boolean explain;

    /** Whether the summary gives each claim's reasoning in full. */
    Tour explain(boolean explain) {
        this.explain = explain;
        return this;
    }

    /** The text's width: the terminal's ({@link Width#of}) by default, {@link Integer#MAX_VALUE} for {@code --wide}. */
    Tour width(int columns) {
        this.width = columns;
        return this;
    }

    int run() throws InterruptedException, IOException {
        OutputFile target = OutputFile.check(saveTo, named ? "-o" : "saving " + saveTo.getFileName() + ":");
        // an earlier tour's results stay as they are (they are the "before" of a compare): the
        // writer decides when it writes, so a tour started beside another keeps both
        ResultsWriter writer = new ResultsWriter(target, !named);
        long t0 = System.nanoTime();
        LiveMachine live = LiveMachine.read();
        EnvironmentProbe probe = live.probe();
        out.println("corescope tour: the machine, then each benchmark family in quick mode, then a summary.");
        out.println();
        out.print(TourText.machine(probe.finish(probe.start(Instant.now()), Instant.now(), null), live.forResults()).render(width));
        out.println();
        if (families.isEmpty()) {
            out.println("No benchmark families are registered in this build.");
        } else {
            out.println("Running " + families.size() + " " + (families.size() == 1 ? "family" : "families") + " in quick mode ("
                    + String.join(", ", families.stream().map(BenchFamily::name).toList()) + "); progress on stderr.");
        }
        out.flush();

        ProgressBar bar = new ProgressBar(err, ProgressBar.stderrIsTerminal(), System::nanoTime);
        BenchContext ctx = new BenchContext(Optional.empty(), RunSize.QUICK, bar, Os.live(), live.topology());
        BenchSession session = new BenchSession(families, ctx, probe, BenchSession.Listener.both(bar, writer), live::forResults);
        GuardedRun guarded = new GuardedRun(session, writer, err);
        try {
            ResultsFile file = guarded.run();
            if (file == null) return 128 + 2;
            if (!families.isEmpty() && session.runs().isEmpty()) {
                writer.finish(file, 0);
                out.println();
                out.print(ResultsText.failures(file.failures()));
                out.println("Nothing was saved: no family finished.");
                out.flush();
                err.println("corescope: " + BenchCommand.failureLine(file.failures(), families.size()) + "; nothing was saved");
                err.flush();
                return Main.EXIT_FAILURE;
            }
            ResultsWriter.Saved saved = writer.finish(file, Math.max(1, session.runs().size()));
            Path earlier = saved.beside() ? target.path() : null;
            out.println();
            out.print(TourText.summary(file, families, notMeasured(file, families), launcher(), saved.path(), width, explain).render(width));
            String failed = ResultsText.failures(file.failures());
            if (!failed.isEmpty()) out.print("\n" + failed);
            out.println();
            out.printf(Locale.ROOT, "Took %.0f s. %s%n", (System.nanoTime() - t0) / 1e9,
                    saved.line().replaceFirst("^results written to ", "Saved ").replaceFirst(" \\(.*\\)$", ""));
            if (earlier != null) out.println("(" + earlier + " from an earlier run was kept.)");
            out.println();
            out.print(TourText.next(launcher(), saved.path(), earlier).render(width));
            out.flush();
            return BenchCommand.partial(file, families.size(), err);
        } finally {
            guarded.done();
        }
    }

    /**
     * How to start corescope from the current folder: {@code ./run.sh} in the clone,
     * {@code ../corescope/run.sh} or an absolute path elsewhere (found from where this jar is:
     * {@code target/corescope.jar} beside {@code run.sh}).
     */
    static String launcher() {
        try {
            Path code = Path.of(Tour.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            Path script = code.toAbsolutePath().getParent().getParent().resolve("run.sh");
            if (Files.isRegularFile(script)) return shell(fromHere(script));
        } catch (RuntimeException | URISyntaxException e) {
            // not started from a jar or a class folder: the plain form
        }
        return "./run.sh";
    }

    /** {@code p} as a command path from the current folder: {@code ./x}, {@code ../a/x} or absolute. */
    static String fromHere(Path p) {
        Path cwd = Path.of("").toAbsolutePath().normalize();
        Path abs = p.toAbsolutePath().normalize();
        if (abs.startsWith(cwd)) return "./" + cwd.relativize(abs);
        Path rel = cwd.relativize(abs);
        int ups = 0;
        for (Path part : rel) if (part.toString().equals("..")) ups++;
        return ups <= 2 ? rel.toString() : abs.toString();
    }

    /** A word for a POSIX shell: as it is when it is plain, else in single quotes. */
    static String shell(String s) {
        if (!s.isEmpty() && s.matches("[A-Za-z0-9_./@%+=:,-]+")) return s;
        return "'" + s.replace("'", "'\\''") + "'";
    }

}
