package dev.corescope.cli;

import dev.corescope.bench.BenchContext;
import dev.corescope.bench.BenchFamily;
import dev.corescope.bench.BenchSession;
import dev.corescope.bench.Families;
import dev.corescope.bench.FamilyRun;
import dev.corescope.bench.RunSize;
import dev.corescope.cpumask.CpuMask;
import dev.corescope.report.Json;
import dev.corescope.report.ResultsFile;
import dev.corescope.sys.internal.Os;
import dev.corescope.text.Shorten;
import dev.corescope.text.TextDoc;
import dev.corescope.text.Width;
import dev.corescope.topology.CpuSelector;
import dev.corescope.topology.Topology;
import dev.corescope.topology.UsableCpus;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/** {@code bench NAME|all}: runs benchmark families, pinned, and prints or saves their results. */
@Command(name = "bench",
        mixinStandardHelpOptions = true,
        description = {
                "Runs one benchmark family (or all), pinned, and prints a report.",
                "The report: the family's tables; perf_event_open counters around each",
                "family (task-clock, context switches, CPU migrations, page faults; cycles,",
                "instructions and cache misses where a PMU exists); the environment, with",
                "warnings about what undermines the numbers.",
                "Families: cpumask (seed 000), timerbase (seed 001), cpupri and c2c (seed",
                "002), locks (seed 004).",
                "",
                "A family that fails is listed under FAILED (and in the JSON's \"failures\");",
                "the others still run, their results are printed and saved, and the exit",
                "code is 3; when every family failed it is 1, with nothing printed or saved.",
                "Ctrl-C stops the run cleanly and saves the finished families to -o FILE.",
                "To keep every thread of a run on one CPU, pin the whole process:",
                "  ./run.sh pin --cpus 1 -- ./run.sh bench timerbase",
                "",
                "Examples:",
                "  ./run.sh bench cpumask --quick",
                "  ./run.sh bench c2c --quick --format svg > c2c.svg   (the heatmap)",
                "  ./run.sh bench c2c --plan --root saved-tree --full  (pairs, time: no run)",
                "  ./run.sh bench c2c --plan --from node.xml       (the same, from hwloc XML)",
                "  ./run.sh bench all --cpus 0-1 --format json -o before.json"})
final class BenchCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "NAME", description = "cpumask, timerbase, cpupri, locks, c2c or all")
    String name;

    @Option(names = "--cpus", paramLabel = "LIST", description = "CPUs to pin to (cpulist, e.g. 0-1, or quiet:N for the N quietest, measured now); default: chosen from the topology")
    String cpus;

    @Option(names = "--quick", description = "short runs (each family well under 20 s on 2 cores); errors are wider")
    boolean quick;

    @Option(names = "--format", paramLabel = "FMT", description = "text (default), json, or svg (one family's picture: c2c's heatmap, timerbase's histograms, cpupri's cache lines)",
            converter = OutputFormat.TextJsonOrSvg.class)
    OutputFormat format = OutputFormat.text;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "also write the results as JSON to FILE (atomically)")
    Path output;

    @Option(names = "--explain", description = "text: each claim's verdict with its reasoning in full (by default three lines: the finding, measured against claimed, the reason that decided it)")
    boolean explain;

    @Option(names = "--wide", description = "text: every table row on one line, however long (by default the text fits the terminal: COLUMNS, else 100)")
    boolean wide;

    @Option(names = "--plan", description = "c2c: print what the run would measure (pair classes, pairs, samples) and how long it would take, then stop")
    boolean plan;

    @Option(names = "--full", description = "c2c: the whole matrix (every pair once, in Java), not only a few pairs of each relation")
    boolean full;

    @Option(names = "--root", paramLabel = "DIR", description = "with --plan: plan for the saved sysfs tree under DIR (capture's, or /) instead of this machine")
    Path root;

    @Option(names = "--from", paramLabel = "FILE.xml", description = "with --plan: plan for the machine in an hwloc XML file (lstopo --of xml, hwloc-gather-topology) instead of this machine")
    Path from;

    private final Supplier<List<BenchFamily>> families;

    BenchCommand() {
        this(Families::all);
    }

    /** With another family registry (tests register families that fail or block). */
    BenchCommand(Supplier<List<BenchFamily>> families) {
        this.families = families;
    }

    @Override
    public Integer call() throws Exception {
        List<BenchFamily> selected = selectFamilies();
        if ((plan || full) && (plan && selected.size() != 1 || selected.stream().allMatch(f -> f.plan().isEmpty()))) {
            String planned = String.join(", ", families.get().stream().filter(f -> f.plan().isPresent()).map(BenchFamily::name).toList());
            throw new UsageException("bench " + name + (plan ? " --plan" : " --full") + ": only " + planned + " has a plan and a full matrix");
        }
        if (root != null && !plan) throw new UsageException("bench --root: goes with --plan (a benchmark runs on this machine)");
        if (from != null && !plan) throw new UsageException("bench --from: goes with --plan (a benchmark runs on this machine)");
        if (from != null && root != null) throw new UsageException("bench --from " + from + ": give --root or --from, not both");
        if (plan) return printPlan(selected.getFirst().plan().orElseThrow());
        if (full) selected = selected.stream().map(f -> f.plan().map(BenchFamily.Plan::full).orElse(f)).toList();
        if (format == OutputFormat.svg && (selected.size() != 1 || !selected.getFirst().draws())) {
            String drawing = String.join(", ", families.get().stream().filter(BenchFamily::draws).map(BenchFamily::name).toList());
            throw new UsageException("--format svg: only bench " + (drawing.isEmpty() ? "NAME of a family with a picture" : drawing)
                    + " draws a picture; " + name + " prints text or json");
        }
        OutputFile file = output == null ? null : OutputFile.check(output, "-o");
        Optional<CpuMask> pinTo = Optional.ofNullable(cpus).map(BenchCommand::parseCpus);
        PrintWriter err = spec.commandLine().getErr();
        ProgressBar bar = new ProgressBar(err, ProgressBar.stderrIsTerminal(), System::nanoTime);
        LiveMachine live = LiveMachine.read();
        BenchContext ctx = new BenchContext(pinTo, RunSize.of(quick), bar, Os.live(), live.topology());

        ResultsWriter writer = new ResultsWriter(file, false);
        BenchSession session = new BenchSession(selected, ctx, live.probe(), BenchSession.Listener.both(bar, writer), live::forResults);
        GuardedRun guarded = new GuardedRun(session, writer, err);
        try {
            ResultsFile results = guarded.run();
            if (results == null) return 128 + 2;
            return print(results, writer, session.runs(), err, selected.size());
        } finally {
            guarded.done();
        }
    }

    /**
     * {@code bench c2c --plan}: what a run would measure on this machine (or the tree under
     * {@code --root}) and how long it would take, from the topology alone; nothing is measured.
     */
    private int printPlan(BenchFamily.Plan family) {
        if (format != OutputFormat.text) throw new UsageException("bench c2c --plan: prints text");
        if (output != null) throw new UsageException("bench c2c --plan: -o goes with a run, not a plan");
        Topology topology = TopologyCommand.read(root, from);
        String source = root != null ? "the tree under " + root : from != null ? "the machine in " + from : "this machine";
        CpuMask set = topology.usable();
        if (cpus != null) {
            CpuMask m;
            try {
                m = CpuSelector.select(cpus, topology);
            } catch (IllegalArgumentException e) {
                throw new UsageException("--cpus " + cpus + ": " + e.getMessage());
            }
            CpuMask outside = m.andNot(UsableCpus.of(topology).pinnable());
            if (!outside.isEmpty()) throw new UsageException("--cpus " + cpus + ": CPUs " + outside.toList() + " are not usable in " + source);
            set = m;
        }
        PrintWriter out = spec.commandLine().getOut();
        out.print(family.text(topology, set, RunSize.of(quick), full, source));
        out.flush();
        return Main.EXIT_OK;
    }

    private int print(ResultsFile file, ResultsWriter writer, List<FamilyRun> runs, PrintWriter err, int total) {
        if (file.failures().size() == total) {
            // Nothing finished, so there are no results to print or save: a plain runtime failure (CONTRACT.md's 1).
            writer.finish(file, 0);
            err.println("corescope: " + failureLine(file.failures(), total) + (writer.saves() ? "; nothing was saved" : ""));
            err.flush();
            return Main.EXIT_FAILURE;
        }
        String json = Json.write(file);
        ResultsWriter.Saved saved = writer.finish(file, runs.size());
        PrintWriter out = spec.commandLine().getOut();
        if (format == OutputFormat.svg) {
            BenchFamily drawn = families.get().stream().filter(f -> f.name().equals(runs.getFirst().family())).findFirst().orElseThrow();
            out.print(drawn.picture(file).orElseThrow(() -> new IllegalStateException(
                    drawn.name() + " measured nothing to draw: " + String.join("; ", drawn.document(file).map(TextDoc::allNotes).orElse(List.of())))));
        } else if (format == OutputFormat.json) {
            out.print(json);
        } else {
            ReportText.write(out, file, selectFamilies(), null, null, Width.of(wide), explain);
            if (saved != null) out.println(saved.line());
        }
        out.flush();
        if (saved != null && saved.beside() && format != OutputFormat.text) {
            err.println("corescope: " + saved.line());
            err.flush();
        }
        return partial(file, total, err);
    }

    /** 0, or 3 with the failure line on {@code err} when some of {@code total} families failed. */
    static int partial(ResultsFile file, int total, PrintWriter err) {
        if (file.failures().isEmpty()) return Main.EXIT_OK;
        err.println("corescope: " + failureLine(file.failures(), total));
        err.flush();
        return Main.EXIT_PARTIAL;
    }

    /** {@code 1 of 5 families failed: locks (reason)}: one line however many failed. */
    static String failureLine(List<ResultsFile.Failure> failures, int total) {
        String list = failures.stream().map(f -> f.benchmark() + " (" + f.reason() + ")").collect(Collectors.joining("; "));
        return failures.size() + " of " + total + (total == 1 ? " family" : " families") + " failed: " + list;
    }

    private List<BenchFamily> selectFamilies() {
        List<BenchFamily> all = families.get();
        String names = String.join(", ", all.stream().map(BenchFamily::name).toList());
        if (name.equals("all")) return all;
        return List.of(all.stream().filter(f -> f.name().equals(name)).findFirst().orElseThrow(() ->
                new UsageException("bench " + name + ": no such benchmark family (one of: "
                        + (names.isEmpty() ? "none registered in this build" : names + ", all") + ")")));
    }

    /**
     * {@code --cpus LIST}: CPUs by list ({@code 0-3,8}), taskset's stride ({@code 0-10:2}) or hex
     * mask ({@code 0x3}), or selectors ({@code node:0}, {@code package:1}, {@code core:2},
     * {@code l3:0}, {@code kind:performance}), combinable ({@code node:0,5}); each CPU must be
     * one a pin may name ({@code topology.UsableCpus#pinnable}: online and in the cgroup's
     * cpuset, as taskset), or exit 2 naming the value. {@code all}: the usable CPUs (the start
     * mask plus the isolated and nohz_full CPUs the cpuset allows); {@code quiet} /
     * {@code quiet:N}, the N (default 1) quietest usable CPUs, measured now by the jitter probe
     * (about half a second per CPU), with one stderr line saying which.
     */
    static CpuMask parseCpus(String list) {
        if (list.equals("quiet") || list.startsWith("quiet:")) return QuietCpus.choose(list);
        String shown = Shorten.end(list, 60);
        Os os = Os.live();
        CpuMask start = os.processAllowed();
        boolean plain = list.strip().matches("[0-9,:/\\- ]+");
        if (plain) {
            // a plain list inside the start mask needs no topology: pin stays as quick as taskset
            CpuMask m = parse(list, shown, null, Math.max(start.nbits(), os.nrCpuIds()));
            if (m.isSubsetOf(start)) return m.resize(Math.max(start.nbits(), m.nbits()));
        }
        Topology t;
        try {
            t = Topology.live();
        } catch (RuntimeException e) {
            throw new UsageException("--cpus " + shown + ": cannot read this machine's CPUs (" + e.getMessage() + ")");
        }
        UsableCpus use = UsableCpus.of(t, start);
        // "all": every CPU this process may use (the kernel's "all" is every possible CPU, most of
        // which a pinned or cgroup-limited process may not run on, so it could never work here)
        if (list.strip().equals("all")) return use.usable();
        CpuMask m = parse(list, shown, t, t.nbits());
        use.refusal(m).ifPresent(why -> {
            throw new UsageException("--cpus " + shown + ": " + why);
        });
        return m.resize(Math.max(use.pinnable().nbits(), m.nbits()));
    }

    private static CpuMask parse(String list, String shown, Topology t, int nbits) {
        CpuMask m;
        try {
            m = t == null ? CpuSelector.list(list, nbits) : CpuSelector.select(list, t);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--cpus " + shown + ": " + e.getMessage());
        }
        if (m.isEmpty()) throw new UsageException("--cpus " + shown + ": the set is empty");
        return m;
    }
}
