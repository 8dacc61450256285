package dev.corescope.cli;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.sys.Affinity;
import dev.corescope.sys.Pinning;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.concurrent.Callable;

/**
 * {@code pin --cpus LIST -- COMMAND}: runs a command with its affinity set, like
 * {@code taskset -c}. The launching thread is pinned around {@link ProcessBuilder#start()}
 * and unpinned right after; the child inherits the mask from the thread that forked it
 * (Linux copies the calling thread's {@code cpus_mask} on {@code fork}/{@code posix_spawn}),
 * and keeps it across {@code exec}.
 */
@Command(name = "pin",
        mixinStandardHelpOptions = true,
        customSynopsis = "corescope pin [-hV] --cpus=LIST [--] COMMAND [ARGS...]",
        description = {
                "Runs a command pinned to a CPU set, like taskset -c.",
                "",
                "Runs COMMAND with its CPU affinity set to LIST, like taskset -c, and exits",
                "with COMMAND's exit code (128+N if signal N killed it). COMMAND shares",
                "corescope's stdin, stdout and stderr; whatever it starts inherits the mask.",
                "LIST must lie within the CPUs corescope itself may use.",
                "",
                "Examples:",
                "  ./run.sh pin --cpus 1 -- cat /proc/self/status   Cpus_allowed_list: 1",
                "  ./run.sh pin --cpus 0-1 -- java -jar benchmarks.jar",
                ""},
        footer = {"",
                "Exit codes: COMMAND's own; 2 if LIST is malformed, empty or outside the",
                "allowed set, if COMMAND is missing, or if COMMAND cannot be started."})
final class PinCommand implements Callable<Integer> {

    @Option(names = "--cpus", required = true, paramLabel = "LIST", description = "cpulist, e.g. 1 or 0-3,8; quiet: the quietest CPU, measured now (see jitter)")
    String cpus;

    @Parameters(arity = "0..*", paramLabel = "COMMAND", description = "the command and its arguments (everything after LIST)")
    List<String> command;

    @Override
    public Integer call() throws InterruptedException {
        CpuMask mask = BenchCommand.parseCpus(cpus);
        if (command == null || command.isEmpty()) {
            throw new UsageException("pin --cpus " + cpus + ": missing COMMAND after -- (e.g. pin --cpus " + cpus + " -- cat /proc/self/status)");
        }
        Process child;
        try (Pinning pinned = Affinity.pin(mask)) {
            child = new ProcessBuilder(command).inheritIO().start();
        } catch (IOException e) {
            throw new UsageException(command.getFirst() + ": cannot run it: " + reason(e));
        }
        return child.waitFor();
    }

    /**
     * The OS's words from the JDK's message, which differs by launch mechanism:
     * {@code error=2, No such file or directory} or {@code Exec failed, error: 2 (No such file or directory)}.
     */
    static String reason(IOException e) {
        String msg = String.valueOf(e.getCause() != null ? e.getCause().getMessage() : e.getMessage()).strip();
        Matcher m = Pattern.compile("\\(([^()]+)\\)$").matcher(msg);
        if (m.find()) return m.group(1);
        return msg.replaceFirst("^error=\\d+, ", "");
    }
}
