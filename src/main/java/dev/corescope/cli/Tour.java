package dev.corescope.cli;

import dev.corescope.bench.BenchContext;
import dev.corescope.bench.BenchFamily;
import dev.corescope.bench.BenchSession;
import dev.corescope.report.Environment;
import dev.corescope.report.EnvironmentProbe;
import dev.corescope.report.Json;
import dev.corescope.report.ResultsFile;
import dev.corescope.report.ResultsText;
import dev.corescope.report.TextTable;
import dev.corescope.sys.Os;
import dev.corescope.topology.Topology;
import dev.corescope.topology.TopologyText;

import java.io.IOException;
import java.io.PrintWriter;
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
    private final PrintWriter out;
    private final PrintWriter err;

    Tour(List<BenchFamily> families, Path saveTo, PrintWriter out, PrintWriter err) {
        this.families = families;
        this.saveTo = saveTo;
        this.out = out;
        this.err = err;
    }

    /**
     * The parts a family could not measure on this machine, with the family's own reason
     * (its notes that say "not measured", "skipped" or "not available"); empty when nothing was
     * left out. The summary table alone would just be missing those rows.
     */
    static String notMeasured(java.util.List<dev.corescope.bench.FamilyRun> runs) {
        StringBuilder sb = new StringBuilder();
        for (var r : runs) {
            for (String note : r.notes()) {
                String n = note.toLowerCase(Locale.ROOT);
                if (n.contains("not measured") || n.contains("skipped") || n.contains("not available")) {
                    if (sb.isEmpty()) sb.append("\nNot measured here:\n");
                    sb.append("  ").append(r.family()).append(": ").append(note).append('\n');
                }
            }
        }
        return sb.toString();
    }

    int run() throws InterruptedException, IOException {
        TopologyCommand.checkOutputFolder(saveTo, "saving " + saveTo.getFileName() + ":");
        long t0 = System.nanoTime();
        LiveMachine live = LiveMachine.read();
        EnvironmentProbe probe = live.probe();
        out.println("corescope tour: the machine, then each benchmark family in quick mode, then a summary.");
        out.println();
        out.print(machine(live.topology(), probe.finish(probe.start(Instant.now()), Instant.now(), null)));
        out.println();
        if (families.isEmpty()) {
            out.println("No benchmark families are registered in this build.");
        } else {
            out.println("Running " + families.size() + " " + (families.size() == 1 ? "family" : "families") + " in quick mode ("
                    + String.join(", ", families.stream().map(BenchFamily::name).toList()) + "); progress on stderr.");
        }
        out.flush();

        ProgressBar bar = new ProgressBar(err, ProgressBar.stderrIsTerminal(), System::nanoTime);
        BenchContext ctx = new BenchContext(Optional.empty(), true, bar, false, Os.live(), live.topology());
        BenchSession session = new BenchSession(families, ctx, probe, bar, live::forResults);
        GuardedRun guarded = new GuardedRun(session, saveTo, err);
        try {
            ResultsFile file = guarded.run();
            if (file == null) return 128 + 2;
            Json.writeAtomically(saveTo, Json.write(file));
            out.println();
            out.print(ResultsText.full(file));
            out.print(notMeasured(session.runs()));
            out.println();
            out.printf(Locale.ROOT, "Took %.0f s. Saved %s%n", (System.nanoTime() - t0) / 1e9, saveTo.toAbsolutePath());
            String name = saveTo.getFileName().toString();
            TextTable next = new TextTable("Next:", "");
            next.row("  ./run.sh report " + name + " -o corescope-report.html", "one page: tables, charts, environment");
            next.row("  ./run.sh compare " + name + " AFTER.json", "run again after a change, then compare");
            next.row("  ./run.sh bench NAME", "one family in full, with its own report");
            out.print(next.render(""));
            out.flush();
            if (file.failures().isEmpty()) return Main.EXIT_OK;
            err.println("corescope: " + BenchCommand.failureLine(file.failures(), families.size()));
            err.flush();
            return Main.EXIT_PARTIAL;
        } finally {
            guarded.done();
        }
    }

    /**
     * The machine in a few lines: the topology's first line and summary (the full tree is
     * {@code ./run.sh topology}), the CPU sets and the software.
     */
    static String machine(Topology t, Environment e) {
        StringBuilder sb = new StringBuilder();
        if (t != null) {
            sb.append(TopologyText.render(t).lines().findFirst().orElse("Machine")).append('\n');
            sb.append("  ").append(TopologyText.summaryLine(t)).append('\n');
        } else {
            sb.append("Machine: ").append(e.cpuModel() == null ? "unknown CPU" : e.cpuModel()).append('\n');
        }
        sb.append("  CPUs online ").append(e.online()).append(", allowed ").append(e.allowed())
                .append(", SMT ").append(e.smt() == null ? "unknown" : e.smt() ? "on" : "off").append('\n');
        sb.append("  ").append(e.kernel()).append("; ").append(e.jdk()).append('\n');
        sb.append("  (the whole tree: ./run.sh topology; as a picture: ./run.sh topology --format svg -o topology.svg)\n");
        return sb.toString();
    }
}
