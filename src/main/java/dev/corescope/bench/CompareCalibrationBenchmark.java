package dev.corescope.bench;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import java.util.concurrent.TimeUnit;

/**
 * A known difference, for checking {@code compare} itself (scripts/compare-calibration.sh):
 * {@link Blackhole#consumeCPU} burns a fixed amount of work per token, so the same benchmark
 * run with {@code extra} more tokens is slower by {@code extra} times the cost of one token,
 * which a separate run measures ({@code -p tokens=0} against {@code -p tokens=2000}).
 *
 * <p><b>BASELINE</b>: {@code work} with {@code -p tokens=N}: N tokens per operation.
 *
 * <p><b>APPROACH</b>: the same with {@code -jvmArgsAppend -Dcorescope.calibration.extraTokens=E}:
 * N + E tokens. The extra tokens come from a system property, not a {@code @Param}, so both
 * runs have the same row identity and {@code compare} matches them, as it would a build before
 * and after a change.
 *
 * <p><b>HOW TO RUN</b>:
 * <pre>
 *   ./run.sh jmh CompareCalibrationBenchmark -f 3 -rf json -rff a.json
 *   ./run.sh jmh CompareCalibrationBenchmark -f 3 -jvmArgsAppend -Dcorescope.calibration.extraTokens=20 -rf json -rff b.json
 *   ./run.sh compare a.json b.json
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 200, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 5, time = 200, timeUnit = TimeUnit.MILLISECONDS)
@Fork(value = 3, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow"})
@State(Scope.Thread)
public class CompareCalibrationBenchmark {

    /** The system property that injects the difference. */
    public static final String EXTRA_TOKENS = "corescope.calibration.extraTokens";

    /** Base work per operation, in {@link Blackhole#consumeCPU} tokens. */
    @Param({"200"})
    public int tokens;

    private long total;

    @Setup(Level.Trial)
    public void setup() {
        total = tokens + Long.getLong(EXTRA_TOKENS, 0);
    }

    @Benchmark
    public void work() {
        Blackhole.consumeCPU(total);
    }
}
