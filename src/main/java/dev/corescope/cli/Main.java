package dev.corescope.cli;

import dev.corescope.bench.BenchFamily;
import dev.corescope.bench.Families;
import dev.corescope.cpumask.CpuMaskFormatException;
import dev.corescope.sys.NativeException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

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
                TopologyCommand.class,
                CaptureCommand.class,
                CompareCommand.class,
                ReportCommand.class,
                JmhCommand.class,
                ReservationsCommand.class,
        })
public final class Main implements Callable<Integer> {

    public static final int EXIT_OK = 0;
    public static final int EXIT_FAILURE = 1;
    public static final int EXIT_USAGE = 2;
    /**
     * Some benchmark families failed and the others finished: their results are printed and
     * saved as usual, with the failures listed in them, and stderr has one line naming the
     * failed families. Distinct from 1, after which stdout is empty (CONTRACT.md).
     */
    public static final int EXIT_PARTIAL = 3;

    @Spec
    CommandSpec spec;

    private final Supplier<List<BenchFamily>> families;
    private final Path tourResults;

    public Main() {
        this(Families::all, Path.of(Tour.RESULTS_FILE));
    }

    Main(Supplier<List<BenchFamily>> families, Path tourResults) {
        this.families = families;
        this.tourResults = tourResults;
    }

    /** No command: the tour. */
    @Override
    public Integer call() throws Exception {
        CommandLine cl = spec.commandLine();
        return new Tour(families.get(), tourResults, cl.getOut(), cl.getErr()).run();
    }

    public static void main(String[] args) {
        // the one command people time: see TopologyCommand.runWithoutPicocli
        OptionalInt fast = TopologyCommand.runWithoutPicocli(args);
        System.exit(fast.isPresent() ? fast.getAsInt() : execute(args));
    }

    /** Runs corescope with {@code args} and returns the exit code. */
    public static int execute(String... args) {
        return commandLine().execute(args);
    }

    /** The configured command line, with corescope's one-line error handling. */
    public static CommandLine commandLine() {
        return configure(new CommandLine(new Main()));
    }

    /**
     * The command line with another family registry for {@code bench} and the tour, and the
     * tour saving to {@code tourResults}: tests register families that fail or block.
     */
    static CommandLine commandLine(Supplier<List<BenchFamily>> families, Path tourResults) {
        CommandLine.IFactory factory = new CommandLine.IFactory() {
            @Override
            public <K> K create(Class<K> cls) throws Exception {
                if (cls == BenchCommand.class) return cls.cast(new BenchCommand(families));
                return CommandLine.defaultFactory().create(cls);
            }
        };
        return configure(new CommandLine(new Main(families, tourResults), factory));
    }

    private static CommandLine configure(CommandLine cl) {
        // pin --cpus 1 ls -l: everything from COMMAND on is COMMAND's, even without --
        cl.getSubcommands().get("pin").setStopAtPositional(true);
        // jmh -f 1 -wi 3 ...: JMH's options are JMH's, not picocli's
        cl.getSubcommands().get("jmh").setUnmatchedOptionsArePositionalParams(true);
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
