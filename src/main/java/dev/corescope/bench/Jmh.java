package dev.corescope.bench;

import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Runs JMH benchmarks from inside corescope, with the same run sizes and fork flags for every family.
 * Every figure corescope reports as a speed comes through here (or through the {@code jmh}
 * command); JMH's score error is the half-width of the 99.9% confidence interval, the
 * CONTRACT's {@code error}.
 */
public final class Jmh {

    /**
     * JMH run sizes.
     *
     * @param forks  0 runs in this JVM (smoke tests only: profile pollution between benchmarks)
     */
    public record Settings(int forks, int warmupIterations, int warmupMillis, int measurementIterations,
                           int measurementMillis) {
        /** Proves the code runs: numbers meaningless. */
        public static final Settings SMOKE = new Settings(0, 1, 20, 2, 20);
        /** {@code --quick}: one fork, short iterations. */
        public static final Settings QUICK = new Settings(1, 3, 100, 5, 100);
        /** The default: enough samples for a ~1% error on a quiet machine. */
        public static final Settings FULL = new Settings(2, 5, 500, 10, 500);

        /**
         * The settings of a row a claim counts: at least {@code runs} forks (runs are the unit of
         * its interval), the measured iterations shared out between them (at least 5 each), so
         * the time goes into forks; a smoke run (no fork) stays as it is.
         */
        public Settings forClaim(int runs) {
            if (forks == 0 || forks >= runs) return this;
            int iterations = Math.max(5, (measurementIterations * forks + runs - 1) / runs);
            return new Settings(runs, warmupIterations, warmupMillis, iterations, measurementMillis);
        }
    }

    private Jmh() {
    }

    /**
     * Runs the benchmarks of {@code benchmarkClass} whose method names match {@code methodRegex}
     * (null: all) with the given {@code @Param} values.
     */
    public static Collection<RunResult> run(Class<?> benchmarkClass, String methodRegex, Map<String, String[]> params,
                                            Settings s, List<String> extraJvmArgs) throws RunnerException {
        return new Runner(options(benchmarkClass, methodRegex, params, s, extraJvmArgs).build()).run();
    }

    /**
     * The options {@link #run} uses, for a family that must add its own (threads, thread groups)
     * before running them with {@code new Runner(options.build()).run()}. The forks' JVM flags are
     * set here in one {@code jvmArgsAppend} call; a second call would replace them.
     */
    public static ChainedOptionsBuilder options(Class<?> benchmarkClass, String methodRegex, Map<String, String[]> params,
                                                Settings s, List<String> extraJvmArgs) {
        String include = "^" + Pattern.quote(benchmarkClass.getName()) + "\\."
                + (methodRegex == null ? ".*" : methodRegex) + "$";
        ChainedOptionsBuilder ob = new OptionsBuilder()
                .include(include)
                .forks(s.forks())
                .warmupIterations(s.warmupIterations())
                .warmupTime(TimeValue.milliseconds(s.warmupMillis()))
                .measurementIterations(s.measurementIterations())
                .measurementTime(TimeValue.milliseconds(s.measurementMillis()))
                .shouldFailOnError(true)
                .verbosity(VerboseMode.SILENT);
        if (params != null) params.forEach(ob::param);
        if (s.forks() > 0) {
            // The forks need what corescope's own JVM has; JMH copies a fork's stderr warnings onto
            // stdout, so an Unsafe warning from JOL or JMH itself would break --format json.
            List<String> jvm = new ArrayList<>(List.of("--enable-native-access=ALL-UNNAMED", "-XX:-RestrictContended",
                    "--sun-misc-unsafe-memory-access=allow"));
            if (extraJvmArgs != null) jvm.addAll(extraJvmArgs);
            ob.jvmArgsAppend(jvm.toArray(String[]::new));
        }
        return ob;
    }
}
