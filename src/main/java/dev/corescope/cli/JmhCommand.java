package dev.corescope.cli;

import dev.corescope.text.Terminal;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.NoBenchmarksException;
import org.openjdk.jmh.runner.ProfilersFailedException;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.format.OutputFormat;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.VerboseMode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Collectors;

/**
 * {@code jmh [JMH options]}: JMH's own command line over the benchmark classes in this jar, with
 * corescope's exit codes: a bad option or a pattern that matches nothing is 2, a failed benchmark 1.
 */
@Command(name = "jmh",
        description = {
                "Runs JMH's own command line over corescope's benchmark classes.",
                "Every argument goes to JMH (its help: ./run.sh jmh -h). Forked JVMs get the",
                "same JVM flags as this one (native access, @Contended) unless -jvmArgs",
                "replaces them, and inherit this process's CPU affinity.",
                "",
                "Examples:",
                "  ./run.sh jmh -l                  # list the benchmarks",
                "  ./run.sh jmh -lp                 # ... with their @Params",
                "  ./run.sh jmh CpumaskBenchmark -f 1 -wi 3 -i 5 -rf json -rff cpumask.json",
                "  ./run.sh jmh C2cBenchmark -p placement=any -p cpus=0-1",
                "  ./run.sh pin --cpus 1 -- ./run.sh jmh TimerbaseBenchmark -f 1"},
        footer = {"", "corescope's own option is only --help; everything else is JMH's."})
final class JmhCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--help", usageHelp = true, description = "this help (JMH's own options: -h)")
    boolean help;

    @Parameters(paramLabel = "JMH_OPTION", arity = "0..*", description = "passed to JMH unchanged")
    List<String> args = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        CommandLineOptions options = parse(args);
        if (options.shouldHelp()) {
            options.showHelp();
        } else if (options.shouldList()) {
            new Runner(options).list();
        } else if (options.shouldListWithParams()) {
            new Runner(options).listWithParams(options);
        } else if (options.shouldListProfilers()) {
            options.listProfilers();
        } else if (options.shouldListResultFormats()) {
            options.listResultFormats();
        } else {
            JmhParams.check(args, options);
            checkJvm(options);
            JmhResultFile results = JmhResultFile.of(args, options);
            try (BenchLock ignored = BenchLock.acquire(spec.commandLine().getErr())) {
                if (results == null) {
                    run(options);
                } else {
                    boolean ok = false;
                    try {
                        run(parse(results.args()));
                        ok = true;
                    } finally {
                        results.finish(ok, spec.commandLine().getErr());
                    }
                }
            }
        }
        System.out.flush();
        return Main.EXIT_OK;
    }

    /** {@code -jvm PATH}: a program that can be run, checked before JMH tries to start forks with it (2 otherwise). */
    static void checkJvm(CommandLineOptions options) {
        if (!options.getJvm().hasValue()) return;
        String jvm = options.getJvm().get();
        Path p = Path.of(jvm);
        String why = !Files.exists(p) ? "no such file"
                : Files.isDirectory(p) ? "a folder, not a java program"
                : !Files.isExecutable(p) ? "not executable" : null;
        if (why != null) throw new UsageException("jmh -jvm " + Terminal.escape(jvm) + ": " + why + " (give the path of a java binary, e.g. $JAVA_HOME/bin/java)");
    }

    /** JMH's options, or a {@link UsageException} saying in plain words what is wrong with them. */
    static CommandLineOptions parse(List<String> args) {
        CommandLineOptions options;
        try {
            options = new CommandLineOptions(args.toArray(String[]::new));
            options.getBenchModes(); // parsed lazily; a bad -bm fails here, not in the run
        } catch (CommandLineOptionException | IllegalArgumentException | IllegalStateException e) {
            throw new UsageException("jmh: " + plain(e.getMessage()) + " (JMH's options: ./run.sh jmh -h)");
        }
        checkPatterns(options.getIncludes(), "");
        checkPatterns(options.getExcludes(), "-e ");
        return options;
    }

    /** The benchmark patterns are the user's regular expressions: one that does not compile is bad input (2), not a bug. */
    private static void checkPatterns(List<String> patterns, String option) {
        for (String p : patterns) {
            try {
                Pattern.compile(p);
            } catch (PatternSyntaxException e) {
                throw new UsageException("jmh " + option + "'" + Terminal.escape(p) + "': not a regular expression ("
                        + e.getDescription() + (e.getIndex() >= 0 ? " at character " + (e.getIndex() + 1) : "") + ")");
            }
        }
    }

    private void run(CommandLineOptions options) throws RunnerException {
        boolean debug = Main.debugRequested(spec.commandLine().getParseResult());
        VerboseMode verbosity = options.verbosity().orElse(VerboseMode.NORMAL);
        FailureWatch out = new FailureWatch(OutputFormatFactory.createFormatInstance(System.out, verbosity), debug);
        try {
            new Runner(options, out).run();
        } catch (NoBenchmarksException e) {
            throw new UsageException("jmh " + String.join(" ", options.getIncludes())
                    + ": no benchmark matches (list them: ./run.sh jmh -l)");
        } catch (ProfilersFailedException e) {
            if (innermost(e) instanceof ClassNotFoundException c) {
                throw new UsageException("jmh -prof " + c.getMessage() + ": no such profiler (./run.sh jmh -lprof lists them)");
            }
            throw new JmhFailedException("jmh: a profiler could not start: " + reasonOf(e) + " (./run.sh jmh -lprof lists them)");
        } catch (RunnerException e) {
            // -foe true: the first failure stops the run
            throw new JmhFailedException("jmh: a benchmark failed: " + (out.firstReason != null ? out.firstReason : reasonOf(e)) + (debug ? "" : " (--debug prints its stack trace)"));
        }
        if (out.failures > 0) {
            throw new JmhFailedException("jmh: " + out.failures + (out.failures == 1 ? " benchmark run failed: " : " benchmark runs failed; the first: ")
                    + out.firstReason + (debug ? "" : " (--debug prints the stack traces)"));
        }
    }

    /** A benchmark that JMH ran and that failed: exit 1, with JMH's reason in plain words. */
    static final class JmhFailedException extends RuntimeException {
        JmhFailedException(String message) {
            super(message);
        }
    }

    private static final Pattern NO_ENUM = Pattern.compile("No enum constant ([\\w.$]+)\\.(\\S*)");
    private static final Pattern CLASS_PREFIX = Pattern.compile("^(?:Caused by: )?(?:[a-z][\\w$]*\\.)+[A-Z][\\w$]*(?:Exception|Error)(?:: |$)");

    /** A JMH or JDK message without class names: {@code 'BOGUS' is not a value this option takes (one of TEXT, ...)}. */
    static String plain(String message) {
        if (message == null) return "not understood";
        Matcher m = NO_ENUM.matcher(message);
        if (m.find()) {
            String values = "";
            Class<?> type = enumClass(m.group(1));
            if (type != null) {
                values = " (one of " + Arrays.stream(type.getEnumConstants()).map(c -> ((Enum<?>) c).name())
                        .collect(Collectors.joining(", ")) + ")";
            }
            return "'" + m.group(2) + "' is not a value this option takes" + values;
        }
        return CLASS_PREFIX.matcher(message.strip()).replaceFirst("").replace('\n', ' ');
    }

    /** The enum class a message names ({@code a.b.Outer.Inner} may be {@code a.b.Outer$Inner}), or null. */
    private static Class<?> enumClass(String name) {
        String n = name;
        for (int i = 0; i < 3 && n.lastIndexOf('.') > 0; i++) {
            try {
                Class<?> c = Class.forName(n, false, JmhCommand.class.getClassLoader());
                return c.isEnum() ? c : null;
            } catch (ClassNotFoundException | LinkageError e) {
                int dot = n.lastIndexOf('.');
                n = n.substring(0, dot) + "$" + n.substring(dot + 1);
            }
        }
        return null;
    }

    private static Throwable innermost(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) t = t.getCause();
        return t;
    }

    /** The innermost cause's message, without class names. */
    static String reasonOf(Throwable e) {
        Throwable[] suppressed = e.getSuppressed();
        Throwable t = innermost(suppressed.length > 0 ? suppressed[suppressed.length - 1] : e);
        return t.getMessage() == null ? t.getClass().getSimpleName() : plain(t.getMessage());
    }

    /**
     * JMH's console output with each benchmark failure counted and its stack traces cut to the
     * line that says why (whole under {@code --debug}); JMH prints a failure as {@code <failure>},
     * a blank line, a stack trace per failed thread, a blank line.
     */
    static final class FailureWatch implements OutputFormat {
        private final OutputFormat out;
        private final boolean debug;
        int failures;
        String firstReason;
        /** 0: ordinary output; 1: after {@code <failure>}, before its blank line; 2: in its stack traces. */
        private int state;

        FailureWatch(OutputFormat out, boolean debug) {
            this.out = out;
            this.debug = debug;
        }

        @Override
        public void println(String s) {
            if (s != null && s.startsWith("# WARNING: JMH lock is ignored")) return;  // corescope holds its own (BenchLock)
            if ("<failure>".equals(s)) {
                failures++;
                state = 1;
            } else if (state == 1 && (s == null || s.isEmpty())) {
                state = 2;
            } else if (state > 0 && (s == null || s.isEmpty())) {
                state = 0;
            } else if (state > 0) {
                String reason = traceReason(s);
                if (firstReason == null) firstReason = reason;
                out.println(debug ? s : "  " + reason);
                return;
            }
            out.println(s);
        }

        /** The last {@code Caused by:} line of a printed stack trace, or its first line, without class names. */
        static String traceReason(String trace) {
            String reason = trace.lines().findFirst().orElse("").strip();
            for (String line : trace.lines().toList()) {
                if (line.startsWith("Caused by: ")) reason = line.strip();
            }
            return plain(reason);
        }

        @Override public void iteration(BenchmarkParams b, IterationParams i, int n) { out.iteration(b, i, n); }
        @Override public void iterationResult(BenchmarkParams b, IterationParams i, int n, IterationResult r) { out.iterationResult(b, i, n, r); }
        @Override public void startBenchmark(BenchmarkParams b) { out.startBenchmark(b); }
        @Override public void endBenchmark(BenchmarkResult r) { out.endBenchmark(r); }
        @Override public void startRun() { out.startRun(); }
        @Override public void endRun(Collection<RunResult> r) { out.endRun(r); }
        @Override public void print(String s) { out.print(s); }
        @Override public void flush() { out.flush(); }
        @Override public void close() { out.close(); }
        @Override public void verbosePrintln(String s) { out.verbosePrintln(s); }
        @Override public void write(int b) { out.write(b); }
        @Override public void write(byte[] b) throws IOException { out.write(b); }
    }
}
