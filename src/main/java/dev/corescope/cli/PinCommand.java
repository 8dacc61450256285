package dev.corescope.cli;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.sys.Errno;
import dev.corescope.sys.tool.Exec;
import dev.corescope.sys.NativeException;
import dev.corescope.sys.Pinning;
import dev.corescope.sys.internal.Os;
import dev.corescope.text.Terminal;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.concurrent.Callable;

/**
 * {@code pin --cpus LIST -- COMMAND}, like {@code taskset -c}. Run as a program, corescope
 * becomes COMMAND ({@link Exec#execPinned}): same pid, its signals and exit status, no JVM
 * around it. Inside another Java program (the tests) COMMAND is a child started from a pinned
 * thread (Linux copies the forking thread's {@code cpus_mask}), destroyed if the wait is
 * interrupted.
 */
@Command(name = "pin",
        mixinStandardHelpOptions = true,
        customSynopsis = "corescope pin [-hV] --cpus=LIST [--] COMMAND [ARGS...]",
        description = {
                "Runs a command pinned to a CPU set, like taskset -c.",
                "",
                "Runs COMMAND with its CPU affinity set to LIST, like taskset -c: corescope",
                "becomes COMMAND (exec), so COMMAND keeps corescope's pid, stdin, stdout and",
                "stderr, gets every signal sent to it (TERM, HUP, INT, QUIT, USR1, USR2), and",
                "its exit status is pin's. Whatever it starts inherits the mask.",
                "LIST must lie within the CPUs corescope itself may use.",
                "",
                "Examples:",
                "  ./run.sh pin --cpus 1 -- cat /proc/self/status   Cpus_allowed_list: 1",
                "  ./run.sh pin --cpus 0-1 -- java -jar benchmarks.jar",
                ""},
        footer = {"",
                "Exit codes: COMMAND's own; 127 if COMMAND is not found, 126 if it is found but",
                "cannot be run (not executable, a folder), as taskset and the shell; 2 if LIST",
                "is malformed, empty or outside the allowed set, or if COMMAND is missing."})
final class PinCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

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
        if (Launcher.standalone) {
            // what is buffered must reach stdout/stderr before the process image is replaced
            if (spec != null) { // null when ShortCommands runs pin without picocli
                spec.commandLine().getOut().flush();
                spec.commandLine().getErr().flush();
            }
            System.out.flush();
            System.err.flush();
            NativeException failed = Exec.execPinned(mask, command);
            throw new CannotRun(command.getFirst(), failed.errno().description(), failed.errno() == Errno.ENOENT);
        }
        Process child;
        try (Pinning pinned = Os.live().pin(mask)) {
            child = new ProcessBuilder(command).inheritIO().start();
        } catch (IOException e) {
            String why = reason(e);
            throw new CannotRun(command.getFirst(), why, why.equals("No such file or directory"));
        }
        try {
            return child.waitFor();
        } finally {
            if (child.isAlive()) {
                child.destroy();
                if (!child.waitFor(2, TimeUnit.SECONDS)) child.destroyForcibly();
            }
        }
    }

    /**
     * COMMAND could not be started: exit 127 when it was not found, 126 when it was found but
     * could not be run (permission denied, not an executable, a folder), as taskset, numactl,
     * timeout and the shell exit.
     */
    static final class CannotRun extends RuntimeException {
        final int exit;

        CannotRun(String command, String why, boolean notFound) {
            super(Terminal.escape(command) + ": cannot run it: " + why);
            this.exit = notFound ? 127 : 126;
        }
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
