package dev.corescope.cli;

import org.openjdk.jmh.runner.NoBenchmarksException;
import org.openjdk.jmh.runner.ProfilersFailedException;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code jmh [JMH options]}: JMH's own command line over the benchmark classes in this jar
 * (their {@code META-INF/BenchmarkList}), as {@code java -jar benchmarks.jar} would run them,
 * with corescope's exit codes: a bad option or a pattern that matches nothing is bad input (2),
 * a benchmark that fails is 1. JMH prints its own progress and results on stdout.
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
        CommandLineOptions options;
        try {
            options = new CommandLineOptions(args.toArray(String[]::new));
        } catch (CommandLineOptionException e) {
            throw new UsageException("jmh: " + e.getMessage() + " (JMH's options: ./run.sh jmh -h)");
        }
        Runner runner = new Runner(options);
        if (options.shouldHelp()) {
            options.showHelp();
        } else if (options.shouldList()) {
            runner.list();
        } else if (options.shouldListWithParams()) {
            runner.listWithParams(options);
        } else if (options.shouldListProfilers()) {
            options.listProfilers();
        } else if (options.shouldListResultFormats()) {
            options.listResultFormats();
        } else {
            try {
                runner.run();
            } catch (NoBenchmarksException e) {
                throw new UsageException("jmh " + String.join(" ", options.getIncludes())
                        + ": no benchmark matches (list them: ./run.sh jmh -l)");
            } catch (ProfilersFailedException e) {
                throw new RunnerException("jmh: a profiler failed: " + e.getMessage(), e);
            }
        }
        System.out.flush();
        return Main.EXIT_OK;
    }
}
