package dev.corescope.cli;

import dev.corescope.cpumask.CpuMaskFormatException;
import dev.corescope.sys.NativeException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;

/**
 * The {@code corescope} command line: one picocli class per subcommand; commands parse and
 * print, the packages below do the work.
 *
 * <p>Exit codes (CONTRACT.md): 0 done; 1 a runtime failure (a native call failed, a file
 * could not be written); 2 bad usage or bad input. On 1 and 2 stdout stays empty and stderr
 * gets one line: {@code corescope: --cpus 99: CPU 99 is not in the allowed set 0-1}.
 */
@Command(name = "corescope",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        description = {
                "Linux CPU topology probe and kernel-patch micro-benchmarks, from Java (FFM).",
                "With no command: the tour (topology, every benchmark family in quick mode, a summary)."},
        subcommands = {
                CommandLine.HelpCommand.class,
                BenchCommand.class,
                MaskCommand.class,
                AffinityCommand.class,
                PinCommand.class,
        })
public final class Main implements Runnable {

    public static final int EXIT_OK = 0;
    public static final int EXIT_FAILURE = 1;
    public static final int EXIT_USAGE = 2;

    @Override
    public void run() {
        new CommandLine(this).usage(System.out);
    }

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    /** Runs corescope with {@code args} and returns the exit code. */
    public static int execute(String... args) {
        return commandLine().execute(args);
    }

    /** The configured command line, with corescope's one-line error handling. */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new Main());
        // pin --cpus 1 ls -l: everything from COMMAND on is COMMAND's, even without --
        cl.getSubcommands().get("pin").setStopAtPositional(true);
        cl.setParameterExceptionHandler((ex, a) -> {
            PrintWriter err = ex.getCommandLine().getErr();
            err.println("corescope: " + ex.getMessage() + " (see --help)");
            err.flush();
            return EXIT_USAGE;
        });
        cl.setExecutionExceptionHandler((ex, command, parsed) -> {
            PrintWriter err = command.getErr();
            err.println("corescope: " + oneLine(ex));
            err.flush();
            return exitCodeFor(ex);
        });
        return cl;
    }

    /** 2 for the user's input, 1 for everything else. */
    static int exitCodeFor(Throwable ex) {
        if (ex instanceof UsageException || ex instanceof CpuMaskFormatException
                || ex instanceof IllegalArgumentException) {
            return EXIT_USAGE;
        }
        return EXIT_FAILURE;
    }

    static String oneLine(Throwable ex) {
        String msg;
        if (ex instanceof CpuMaskFormatException f) {
            msg = f.input().strip() + ": " + f.getMessage();
        } else if (ex instanceof NativeException || ex instanceof UsageException) {
            msg = ex.getMessage();
        } else if (ex instanceof UncheckedIOException u) {
            msg = String.valueOf(u.getCause().getMessage());
        } else if (ex instanceof IOException io) {
            msg = ex.getClass().getSimpleName() + ": " + io.getMessage();
        } else {
            msg = ex.getMessage() == null ? ex.toString() : ex.getMessage();
        }
        return msg.replace('\n', ' ');
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = Main.class.getPackage().getImplementationVersion();
            return new String[] {"corescope " + (v == null ? "dev" : v) + " (Java " + Runtime.version() + ")"};
        }
    }
}
