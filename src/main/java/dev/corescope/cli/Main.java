package dev.corescope.cli;

import dev.corescope.bench.BenchFamily;
import dev.corescope.bench.Families;
import dev.corescope.cpumask.CpuMaskFormatException;
import dev.corescope.report.BadResultsFileException;
import dev.corescope.sys.CpuNotAllowedException;
import dev.corescope.sys.NativeException;
import dev.corescope.sys.NativeUnavailableException;
import dev.corescope.text.Shorten;
import dev.corescope.text.Terminal;
import dev.corescope.text.Width;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/**
 * The {@code corescope} command line, with the exit codes of CONTRACT.md: on 1 and 2 stdout
 * stays empty and stderr gets one line ({@code corescope: --cpus 99: CPU 99 is not in the
 * allowed set 0-1}); only corescope's own input checks are 2 ({@link #exitCodeFor}), anything
 * unexpected is an internal error, 1, with the stack trace only under {@code --debug}.
 */
@Command(name = "corescope",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        description = {
                "Linux CPU topology probe and kernel-patch micro-benchmarks, from Java (FFM).",
                "With no command: the tour (topology, every benchmark family in quick mode, a summary),",
                "saved to corescope-results.json; when that file is there from an earlier run it is",
                "kept, and this run's results get a new name (the next-step lines say which)."},
        footer = {"",
                "Exit codes: 0 done; 1 a runtime failure or an internal error; 2 bad usage or bad",
                "input; 3 some benchmark families failed (the others' results are saved); 130",
                "interrupted (128 + the signal); pin: its command's own.",
                "On an internal error corescope prints one line naming it; --debug (on any",
                "command) or the environment variable CORESCOPE_DEBUG=1 adds the Java stack trace.",
                "What happens to existing files, interrupted runs and signals: docs/files-and-signals.md."},
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
                JitterCommand.class,
                ReservationsCommand.class,
                ExportCommand.class,
                CompletionCommand.class,
        })
public final class Main implements Callable<Integer> {

    public static final int EXIT_OK = 0;
    public static final int EXIT_FAILURE = 1;
    public static final int EXIT_USAGE = 2;
    /** Some benchmark families failed; the others' results are printed and saved (CONTRACT.md). */
    public static final int EXIT_PARTIAL = 3;
    /** stdout's reader went away ({@code corescope ... | head}): 128 + SIGPIPE, as a shell reports for {@code cat}. */
    public static final int EXIT_BROKEN_PIPE = 141;

    /** The environment variable that turns on {@code --debug} for every run. */
    static final String DEBUG_ENV = "CORESCOPE_DEBUG";

    @Spec
    CommandSpec spec;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE",
            description = "the tour: save the results to FILE (replaced whole if it exists; an interrupted or partly failed run goes beside it)")
    Path output;

    @Option(names = "--wide", description = "the tour: every table row on one line, however long (by default the text fits the terminal: COLUMNS, else 100)")
    boolean wide;

    @Option(names = "--explain", description = "the tour: each claim's verdict with its reasoning in full")
    boolean explain;

    @Option(names = "--debug", scope = ScopeType.INHERIT,
            description = "on an internal error, also print the Java stack trace (or set CORESCOPE_DEBUG=1)")
    boolean debug;

    private final Supplier<List<BenchFamily>> families;
    private final Path tourResults;

    public Main() {
        this(Families::all, Path.of(Tour.RESULTS_FILE));
    }

    Main(Supplier<List<BenchFamily>> families, Path tourResults) {
        this.families = families;
        this.tourResults = tourResults;
    }

    @Override
    public Integer call() throws Exception {
        CommandLine cl = spec.commandLine();
        return new Tour(families.get(), output != null ? output : tourResults, output != null, cl.getOut(), cl.getErr())
                .width(Width.of(wide)).explain(explain).run();
    }

    public static void main(String[] args) {
        // the jar starts Launcher; this is the same for anyone who starts Main
        Launcher.main(args);
    }

    /**
     * Runs corescope with {@code args} and returns the exit code. Running out of heap, the one
     * error picocli does not hand to {@link #reportFailure}, is caught here as one line (exit 1).
     */
    public static int execute(String... args) {
        try {
            return commandLine().execute(args);
        } catch (OutOfMemoryError e) {
            System.err.println("corescope: " + oneLine(e));
            System.err.flush();
            return EXIT_FAILURE;
        }
    }

    public static CommandLine commandLine() {
        return configure(new CommandLine(new Main()));
    }

    /** The command line with another family registry for {@code bench} and the tour, which saves to {@code tourResults}. */
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
        // @FILE is an argument like any other, not a file to read arguments from (picocli's default
        // would read /etc/hostname for "mask @/etc/hostname" and quote its first word back)
        cl.setExpandAtFiles(false);
        // pin --cpus 1 ls -l: everything from COMMAND on is COMMAND's, even without --
        cl.getSubcommands().get("pin").setStopAtPositional(true);
        // jmh -f 1 -wi 3 ...: JMH's options are JMH's, not picocli's
        cl.getSubcommands().get("jmh").setUnmatchedOptionsArePositionalParams(true);
        cl.setParameterExceptionHandler((ex, a) -> {
            PrintWriter err = ex.getCommandLine().getErr();
            String unknown = unknownCommand(ex, a);
            err.println("corescope: " + (unknown != null ? unknown
                    : shorten(Terminal.escape(String.valueOf(ex.getMessage()).replace('\n', ' '))) + " (see --help)"));
            err.flush();
            return EXIT_USAGE;
        });
        cl.registerConverter(Path.class, Main::path);
        cl.registerConverter(Integer.class, Main::asciiInt);
        cl.registerConverter(Integer.TYPE, Main::asciiInt);
        cl.registerConverter(Long.class, Main::asciiLong);
        cl.registerConverter(Long.TYPE, Main::asciiLong);
        cl.setExecutionExceptionHandler((ex, command, parsed) -> reportFailure(command.getErr(), ex, parsed));
        reflowHelp(cl);
        return cl;
    }

    /**
     * {@code corescope NAME} where NAME is no command: one line naming it (picocli says
     * "Unmatched argument at index 0"), with picocli's closest command names when it has any;
     * null for every other parse error.
     */
    static String unknownCommand(CommandLine.ParameterException ex, String[] args) {
        if (!(ex instanceof CommandLine.UnmatchedArgumentException u) || u.getCommandLine().getParent() != null) return null;
        if (args.length == 0 || args[0].startsWith("-") || u.getUnmatched().isEmpty() || !u.getUnmatched().getFirst().equals(args[0])) return null;
        List<String> close = u.getSuggestions().stream().filter(s -> !s.startsWith("-")).limit(3).toList();
        return "unknown command: " + shorten(Terminal.escape(args[0]))
                + (close.isEmpty() ? "" : " (did you mean " + String.join(" or ", close) + "?)") + "; the commands: --help";
    }

    /** A path option or parameter: an empty string names no file (Path.of("") would be the current folder). */
    static Path path(String s) {
        if (s.isEmpty()) throw new CommandLine.TypeConversionException("an empty string names no file or folder");
        try {
            return Path.of(s);
        } catch (InvalidPathException e) {
            throw new CommandLine.TypeConversionException("not a path (" + e.getReason() + ")");
        }
    }

    /**
     * Joins the source lines of each prose paragraph of every command's help, so that picocli
     * wraps the paragraph, not each source line, at 80 columns. Blank and indented lines
     * (examples) stay; a line ending in {@code :}, or in {@code .} before a capital or {@code -},
     * ends its paragraph.
     */
    static void reflowHelp(CommandLine cl) {
        CommandLine.Model.UsageMessageSpec m = cl.getCommandSpec().usageMessage();
        m.header(reflow(m.header()));
        m.description(reflow(m.description()));
        m.footer(reflow(m.footer()));
        for (CommandLine sub : cl.getSubcommands().values()) reflowHelp(sub);
    }

    static String[] reflow(String[] lines) {
        List<String> out = new ArrayList<>(lines.length);
        for (String line : lines) {
            if (!out.isEmpty() && continues(out.getLast(), line)) out.set(out.size() - 1, out.getLast() + " " + line);
            else out.add(line);
        }
        return out.size() == lines.length ? lines : out.toArray(String[]::new);
    }

    private static boolean continues(String previous, String next) {
        if (previous.isBlank() || next.isBlank()) return false;
        if (Character.isWhitespace(previous.charAt(0)) || Character.isWhitespace(next.charAt(0))) return false;
        char end = previous.charAt(previous.length() - 1);
        if (end == ':') return false;
        return end != '.' || !(Character.isUpperCase(next.charAt(0)) || next.charAt(0) == '-');
    }

    /**
     * A command's failure as one line on {@code err} (and its stack trace when debugging was
     * asked for); returns its exit code. {@code parsed} is null for {@link ShortCommands}.
     */
    static int reportFailure(PrintWriter err, Exception ex, CommandLine.ParseResult parsed) {
        err.println("corescope: " + shorten(oneLine(ex)));
        if (debugRequested(parsed)) ex.printStackTrace(err);
        err.flush();
        return exitCodeFor(ex);
    }

    /** {@code --debug} on any command of the line, or {@code CORESCOPE_DEBUG} set to anything but 0 or empty. */
    static boolean debugRequested(CommandLine.ParseResult parsed) {
        String env = System.getenv(DEBUG_ENV);
        if (env != null && !env.isEmpty() && !env.equals("0")) return true;
        for (CommandLine.ParseResult p = parsed; p != null; p = p.subcommand()) {
            if (p.hasMatchedOption("--debug")) return true;
        }
        return false;
    }

    /** 2 for corescope's own checks of the user's input, 1 for a runtime failure or an internal error. */
    static int exitCodeFor(Throwable ex) {
        if (ex instanceof PinCommand.CannotRun c) return c.exit;
        if (ex instanceof UsageException || ex instanceof CpuMaskFormatException
                || ex instanceof BadResultsFileException || ex instanceof CpuNotAllowedException) {
            return EXIT_USAGE;
        }
        return EXIT_FAILURE;
    }

    static String oneLine(Throwable ex) {
        String msg;
        if (ex instanceof CpuMaskFormatException f) {
            msg = f.input().strip() + ": " + f.getMessage();
        } else if (exitCodeFor(ex) == EXIT_USAGE || ownFailure(ex)) {
            msg = ex.getMessage();
        } else if (ex instanceof UncheckedIOException u) {
            msg = u.getCause() instanceof FileSystemException ? reason(u.getCause()) : String.valueOf(u.getCause().getMessage());
        } else if (ex instanceof IOException io) {
            msg = reason(io);
        } else if (ex instanceof OutOfMemoryError) {
            msg = outOfMemory(Runtime.getRuntime().maxMemory());
        } else {
            msg = "internal error: " + ex.getClass().getName()
                    + (ex.getMessage() == null ? "" : ": " + ex.getMessage())
                    + " (a bug in corescope; --debug or " + DEBUG_ENV + "=1 prints where)";
        }
        // one line, and nothing quoted from an input or another process can steer the terminal
        return Terminal.escape(String.valueOf(msg));
    }

    /** Running out of a heap of {@code maxBytes}: the advice is twice that, never less than what failed. */
    static String outOfMemory(long maxBytes) {
        long mib = maxBytes / (1024 * 1024);
        long advice = Math.max(2, (2 * mib + 1023) / 1024);  // GiB, rounded up
        return "out of memory (the Java heap is " + mib + " MiB; a larger one: CORESCOPE_JVM_OPTS=-Xmx" + advice + "g)";
    }

    /**
     * corescope's own exception types ({@link NativeException}, {@link NativeUnavailableException},
     * ...) describe expected failures in its own words; any other is an internal error.
     */
    private static boolean ownFailure(Throwable ex) {
        return ex.getClass().getName().startsWith("dev.corescope.") && ex.getMessage() != null;
    }

    /** An I/O failure in plain words: {@code /x/y.json: no such file or folder}, not the exception's class name. */
    static String reason(Throwable e) {
        if (e instanceof FileSystemException f) {
            String file = f.getFile() == null ? "" : f.getFile() + ": ";
            String why = switch (f) {
                case NoSuchFileException n -> "no such file or folder";
                case AccessDeniedException a -> "permission denied";
                case FileAlreadyExistsException a -> "already exists";
                case NotDirectoryException n -> "not a folder";
                default -> f.getReason() != null ? f.getReason() : "cannot be accessed";
            };
            return file + why;
        }
        if (e.getMessage() != null) return e.getMessage();
        return e.getClass().getSimpleName().replaceAll("([a-z])([A-Z])", "$1 $2").toLowerCase(Locale.ROOT);
    }

    /** The most of an input an error line quotes. */
    static final int QUOTE_LIMIT = 80;

    /** An error line with every long word cut to {@link #QUOTE_LIMIT} characters (its start and its length). */
    static String shorten(String line) {
        return Shorten.end(Shorten.words(line, QUOTE_LIMIT), 4 * QUOTE_LIMIT * 2 + 3);
    }

    /** Number options take ASCII digits only, as CPU lists do: {@code ١} (Arabic-Indic one) is not 1. */
    static Integer asciiInt(String s) {
        long v = asciiLong(s);
        if (v != (int) v) throw new CommandLine.TypeConversionException("'" + s + "' is out of range");
        return (int) v;
    }

    static Long asciiLong(String s) {
        if (!s.matches("[+-]?[0-9]{1,19}")) {
            throw new CommandLine.TypeConversionException("'" + shorten(s) + "' is not a whole number (ASCII digits 0-9)");
        }
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw new CommandLine.TypeConversionException("'" + s + "' is out of range");
        }
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = Main.class.getPackage().getImplementationVersion();
            return new String[] {"corescope " + (v == null ? "dev" : v) + " (Java " + Runtime.version() + ")"};
        }
    }
}
