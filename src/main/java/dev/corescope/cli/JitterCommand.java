package dev.corescope.cli;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.jitter.JitterProbe;
import dev.corescope.jitter.JitterReport;
import dev.corescope.jitter.JitterView;
import dev.corescope.jitter.JitterText;
import dev.corescope.report.Environment;
import dev.corescope.report.EnvironmentProbe;
import dev.corescope.report.Json;
import dev.corescope.report.MachineSummary;
import dev.corescope.report.ResultsFile;
import dev.corescope.sys.internal.Os;
import dev.corescope.text.Width;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code jitter}: which CPUs are quiet, and why the others are not. */
@Command(name = "jitter",
        mixinStandardHelpOptions = true,
        description = {
                "Finds the quiet CPUs: gaps seen by a pinned spinning thread, and their causes.",
                "",
                "On each CPU in turn a pinned thread reads the clock in a loop and records every",
                "gap (time the CPU was taken from it) in a histogram: gaps per second over 1, 10",
                "and 100 µs, p99, p99.99 and the largest. Over the same window it counts that",
                "CPU's interrupts (/proc/interrupts) and softirqs (/proc/softirqs), its steal",
                "time (/proc/stat) and the thread's context switches (perf_event_open), reads",
                "what the kernel was told (isolcpus, nohz_full, rcu_nocbs, irqaffinity, each",
                "IRQ's smp_affinity_list), and names the likely cause of the worst gaps.",
                "Last, the CPUs quietest first: paste the list into --cpus, or use --cpus quiet",
                "with bench and pin to measure briefly and take the quietest.",
                "With many CPUs (more than 20 s of spinning in turn), CPUs that share no core",
                "are measured together; --in-turn or --together chooses.",
                "",
                "Examples:",
                "  ./run.sh jitter",
                "  ./run.sh jitter --cpus 2-7 --seconds 10 -o jitter.json",
                "  ./run.sh report jitter.json -o jitter.html",
                "  ./run.sh pin --cpus quiet -- ./my-latency-test"},
        footer = {"", "Exit codes: 0 done; 2 bad --cpus, --seconds or -o; 1 nothing could be measured."})
final class JitterCommand implements Callable<Integer> {

    /** Spinning longer than this per CPU is refused: a typo (3600 for 36) would hold the machine. */
    static final double MAX_SECONDS = 600;

    @Spec
    CommandSpec spec;

    @Option(names = "--cpus", paramLabel = "LIST", description = "CPUs to measure (cpulist); default: every allowed CPU")
    String cpus;

    @Option(names = "--seconds", paramLabel = "S", description = "spinning window per CPU, in seconds (default 2)")
    String seconds;

    @Option(names = "--in-turn", description = "one CPU at a time (default up to 20 s of spinning in all)")
    boolean inTurn;

    @Option(names = "--together", description = "CPUs that share no core at the same time")
    boolean together;

    @Option(names = "--format", paramLabel = "FMT", description = "text (default) or json", converter = OutputFormat.TextOrJson.class)
    OutputFormat format = OutputFormat.text;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "also write the results file (JSON) to FILE, for compare and report")
    Path output;

    @Override
    public Integer call() throws Exception {
        if (inTurn && together) throw new UsageException("--in-turn and --together: choose one");
        double window = parseSeconds(seconds);
        OutputFile target = output == null ? null : OutputFile.check(output, "-o");
        CpuMask measured = cpus == null ? null : BenchCommand.parseCpus(cpus);
        PrintWriter err = spec.commandLine().getErr();

        LiveMachine live = LiveMachine.read();
        if (measured == null) measured = live.topology() == null ? Os.live().processAllowed() : live.topology().usable();
        EnvironmentProbe probe = live.probe();
        EnvironmentProbe.Start start = probe.start(Instant.now());
        String hypervisor = probe.finish(start, Instant.now(), null).hypervisor();
        JitterProbe.Mode mode = inTurn ? JitterProbe.Mode.IN_TURN : together ? JitterProbe.Mode.TOGETHER : JitterProbe.Mode.AUTO;
        JitterProbe jitter = live.topology() == null ? new JitterProbe() : new JitterProbe(live.topology());
        JitterReport report = jitter.run(new JitterProbe.Options(measured, window, mode, hypervisor), line -> {
            err.println(line);
            err.flush();
        });
        if (report.rows().isEmpty()) {
            err.println("corescope: jitter: no CPU could be measured (" + String.join("; ", JitterText.notes(report)) + ")");
            err.flush();
            return Main.EXIT_FAILURE;
        }
        Environment env = probe.finish(start, Instant.now(), measured);
        ResultsFile probed = ResultsFile.builder().environment(env).topology(live.forResults()).jitter(JitterView.json(report)).build();
        ResultsFile file = probed.toBuilder().machine(MachineSummary.compute(probed, List.of(), JitterView.quantiles(probed))).build();
        String json = Json.write(file);
        new ResultsWriter(target, false).finish(file, 1);
        PrintWriter out = spec.commandLine().getOut();
        if (format == OutputFormat.json) {
            out.print(json);
        } else {
            out.print(JitterText.render(report, Width.of(false)));
            if (output != null) out.println("results written to " + output);
        }
        out.flush();
        return Main.EXIT_OK;
    }

    /** A plain decimal number of seconds, above 0 and at most {@link #MAX_SECONDS}. */
    static double parseSeconds(String text) {
        if (text == null) return JitterProbe.DEFAULT_SECONDS;
        String shown = text.length() > 40 ? text.substring(0, 40) + "..." : text;
        if (!text.matches("[0-9]{1,4}(\\.[0-9]{1,3})?")) {
            throw new UsageException("--seconds " + shown + ": a number of seconds such as 2 or 0.5");
        }
        double s = Double.parseDouble(text);
        if (s < 0.01 || s > MAX_SECONDS) {
            throw new UsageException("--seconds " + shown + ": between 0.01 and " + (int) MAX_SECONDS + " seconds");
        }
        return s;
    }
}
