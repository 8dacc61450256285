package dev.corescope.cli;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.corescope.cpumask.CpuListParser;
import dev.corescope.cpumask.CpuMask;
import dev.corescope.report.Json;
import dev.corescope.sys.Errno;
import dev.corescope.sys.NativeException;
import dev.corescope.sys.internal.Os;
import dev.corescope.text.Shorten;
import dev.corescope.text.Terminal;
import dev.corescope.text.TextDoc;
import dev.corescope.text.Width;
import dev.corescope.topology.CpuSelector;
import dev.corescope.topology.Topology;
import dev.corescope.topology.UsableCpus;
import dev.corescope.topology.proc.SysfsReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code affinity}: the CPUs a process may run on ({@code sched_getaffinity}), the online
 * CPUs, and the CPU this very call ran on ({@code sched_getcpu}).
 */
@Command(name = "affinity",
        mixinStandardHelpOptions = true,
        description = {
                "Shows the CPUs a process may run on, and where it runs.",
                "",
                "Prints the CPUs a process may run on (sched_getaffinity), the online CPUs",
                "(/sys/devices/system/cpu/online) and the CPU this call ran on (sched_getcpu).",
                "Without --pid: corescope's own main thread, i.e. the mask it was started with.",
                "",
                "Examples:",
                "  ./run.sh affinity                  allowed 0-1, currentCpu 0 or 1",
                "  taskset -c 1 ./run.sh affinity     allowed 1, currentCpu 1",
                "  ./run.sh affinity --pid 1234 --format json",
                "  ./run.sh affinity --why            every CPU: usable or not, and why",
                "  ./run.sh affinity --why 2-3 --root box   the same for a saved tree",
                "",
                "--why says for each CPU whether corescope uses it when no CPU is named (the start",
                "mask plus the isolated and nohz_full CPUs the cgroup's cpuset allows), whether a",
                "pin may name it (online and in the cpuset, as taskset), and every reason: offline,",
                "outside the cpuset, isolated (isolcpus, managed_irq), nohz_full, outside the start",
                "mask, the cgroup's CPU quota, device IRQs steered there.",
                ""},
        footer = {"",
                "currentCpu is where corescope's own thread ran, also with --pid.",
                "A PID that does not exist exits 2 (sched_getaffinity fails with ESRCH)."})
final class AffinityCommand implements Callable<Integer> {

    static final Path ONLINE = Path.of("/sys/devices/system/cpu/online");

    @Spec
    CommandSpec spec;

    @Option(names = "--pid", paramLabel = "PID", description = "a process (or thread) id; default: corescope itself")
    Integer pid;

    @Option(names = "--format", paramLabel = "FMT", description = "text (default) or json", converter = OutputFormat.TextOrJson.class)
    OutputFormat format = OutputFormat.text;

    @Option(names = "--why", arity = "0..1", fallbackValue = "", paramLabel = "CPUS",
            description = "for each CPU (default: the possible CPUs): usable or not, and every reason; CPUS as --cpus takes them")
    String why;

    @Option(names = "--root", paramLabel = "DIR", description = "with --why: a saved tree (capture) instead of this machine")
    Path root;

    /**
     * What {@code affinity} prints, in the CONTRACT's JSON field order; {@code online} is null
     * when sysfs is not mounted.
     */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    record Report(long pid, String allowed, String online, int currentCpu) {

        String text(CpuMask allowedMask, boolean self) {
            return "pid         " + pid + "\n"
                    + "allowed     " + allowed + " (" + allowedMask.weight() + (allowedMask.weight() == 1 ? " CPU" : " CPUs")
                    + ", hex " + allowedMask.toHex() + ")\n"
                    + "online      " + (online == null ? "not available: " + ONLINE + " is missing" : online) + "\n"
                    + "currentCpu  " + currentCpu + (self ? "" : " (where corescope ran this call, not pid " + pid + ")") + "\n";
        }
    }

    @Override
    public Integer call() {
        if (!OutputFormat.Only.TEXT_OR_JSON.accepted().contains(format)) throw OutputFormat.Only.TEXT_OR_JSON.refused(format);
        if (root != null && why == null) throw new UsageException("--root " + root + ": only with --why");
        if (why != null) return why();
        long self = ProcessHandle.current().pid();
        CpuMask allowed;
        if (pid == null) {
            allowed = Os.live().allowed();
        } else {
            if (pid <= 0) throw new UsageException("--pid " + pid + ": not a process id (must be 1 or more)");
            allowed = allowedOf(pid);
        }
        int currentCpu = Os.live().currentCpu();
        long shownPid = pid == null ? self : pid;
        Report r = new Report(shownPid, allowed.toList(), online(allowed.nbits()), currentCpu);
        var out = ShortCommands.out(spec);
        out.print(format == OutputFormat.json ? Json.write(r) : r.text(allowed, shownPid == self));
        out.flush();
        return Main.EXIT_OK;
    }

    /** {@code affinity --why}: in the CONTRACT's JSON, sets of CPUs as cpulist strings. */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    record WhyReport(String source, String start, boolean startMeasured, String usable, String pinnable, String cgroupCpuset,
                     String isolated, String nohzFull, List<UsableCpus.Why> cpus) {
    }

    private int why() {
        if (pid != null) throw new UsageException("--why and --pid: --why explains corescope's own CPUs; choose one");
        Topology t = TopologyCommand.read(root, null);
        SysfsReader reader = new SysfsReader(root == null ? Path.of("/") : root);
        UsableCpus use = root == null ? UsableCpus.of(t, Os.live().processAllowed()) : UsableCpus.of(t);
        CpuMask asked;
        if (why.isBlank()) {
            asked = t.possible().isEmpty() ? t.online() : t.possible();
        } else {
            try {
                asked = CpuSelector.select(why, t);
            } catch (IllegalArgumentException e) {
                throw new UsageException("--why " + Shorten.end(why, 60) + ": " + e.getMessage());
            }
        }
        List<UsableCpus.Why> answers = use.why(asked, reader);
        WhyReport r = new WhyReport(root == null ? "/" : root.toString(), use.start().toList(), root == null, use.usable().toList(),
                use.pinnable().toList(), t.cgroupCpus().map(CpuMask::toList).orElse(null), t.isolated().toList(), t.nohzFull().toList(), answers);
        var out = ShortCommands.out(spec);
        out.print(format == OutputFormat.json ? Json.write(r) : whyText(r, t).render(Width.of(false)));
        out.flush();
        return Main.EXIT_OK;
    }

    private static TextDoc whyText(WhyReport r, Topology t) {
        TextDoc d = new TextDoc();
        d.paragraph("start mask " + r.start() + (r.startMeasured() ? " (sched_getaffinity)" : " (a saved tree: what a process started normally there gets)")
                + "; cgroup cpuset " + (r.cgroupCpuset() == null ? "none" : r.cgroupCpuset())
                + "; isolated " + none(r.isolated()) + "; nohz_full " + none(r.nohzFull()));
        d.paragraph("usable " + none(r.usable()) + " (chosen when --cpus names none); a pin may name " + none(r.pinnable()));
        for (UsableCpus.Why w : r.cpus()) {
            d.paragraph("CPU " + w.cpu() + ": " + (w.usable() ? "usable" : w.pinnable() ? "usable when named" : "not usable"));
            d.notes("  ", "- ", w.reasons().stream().map(x -> Terminal.escape(x.detail())).toList());
        }
        return d;
    }

    private static String none(String cpus) {
        return cpus.isEmpty() ? "none" : cpus;
    }

    private static CpuMask allowedOf(int pid) {
        try {
            return Os.live().allowed(pid);
        } catch (NativeException e) {
            if (e.errno() == Errno.ESRCH) throw new UsageException("--pid " + pid + ": no such process (" + e.getMessage() + ")");
            throw e;
        }
    }

    /** The online CPUs as a cpulist, or null when sysfs does not have them. */
    private static String online(int nbits) {
        try {
            return CpuListParser.readList(ONLINE, Math.max(nbits, Os.live().nrCpuIds())).toList();
        } catch (UncheckedIOException | IllegalArgumentException e) {
            return null;
        }
    }
}
