package dev.corescope.cli;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.corescope.cpumask.CpuListParser;
import dev.corescope.cpumask.CpuMask;
import dev.corescope.report.Json;
import dev.corescope.sys.Errno;
import dev.corescope.sys.NativeException;
import dev.corescope.sys.internal.Affinity;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.UncheckedIOException;
import java.nio.file.Path;
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
        OutputFormat.TextOrJson accepted = new OutputFormat.TextOrJson();
        if (!accepted.accepts(format)) throw accepted.refused(format);
        long self = ProcessHandle.current().pid();
        CpuMask allowed;
        if (pid == null) {
            allowed = Affinity.allowed();
        } else {
            if (pid <= 0) throw new UsageException("--pid " + pid + ": not a process id (must be 1 or more)");
            allowed = allowedOf(pid);
        }
        int currentCpu = Affinity.currentCpu();
        long shownPid = pid == null ? self : pid;
        Report r = new Report(shownPid, allowed.toList(), online(allowed.nbits()), currentCpu);
        var out = ShortCommands.out(spec);
        out.print(format == OutputFormat.json ? Json.write(r) : r.text(allowed, shownPid == self));
        out.flush();
        return Main.EXIT_OK;
    }

    private static CpuMask allowedOf(int pid) {
        try {
            return Affinity.get(pid);
        } catch (NativeException e) {
            if (e.errno() == Errno.ESRCH) throw new UsageException("--pid " + pid + ": no such process (" + e.getMessage() + ")");
            throw e;
        }
    }

    /** The online CPUs as a cpulist, or null when sysfs does not have them. */
    private static String online(int nbits) {
        try {
            return CpuListParser.readList(ONLINE, Math.max(nbits, Affinity.nrCpuIds())).toList();
        } catch (UncheckedIOException | IllegalArgumentException e) {
            return null;
        }
    }
}
