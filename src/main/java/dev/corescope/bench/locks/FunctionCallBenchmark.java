package dev.corescope.bench.locks;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.CompilerControl;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * The seed put the 1.709 ns between {@code spin_lock_irqsave} and the manual variant down to
 * "approx the cost of an extra function call"; time_bench_sample.c measures that call on its own
 * ({@code measured_function}, noinline, storing 1 through a pointer).
 *
 * <p>BASELINE, {@link #javaCall()}: a Java call the JIT may not inline ({@code DONT_INLINE}),
 * storing 1 into a field: the call itself, as in the kernel.
 *
 * <p>APPROACH 1, {@link #downcall()}: a downcall to an empty C function: what every crossing from
 * Java into C costs (the thread-state transitions on the way in and out), which the Java rows of
 * {@code pthread_spin_lock} and the irq variants pay on every call.
 *
 * <p>APPROACH 2, {@link #downcallCritical()}: the same through {@code Linker.Option.critical(false)},
 * which skips the transitions (allowed only for short calls that never block).
 *
 * <p>Where the analogy stops: a kernel function call is the only cost the seed weighed; from Java
 * a call into C is one more layer, which a kernel developer never pays.
 *
 * <p>HOW TO RUN: {@code ./run.sh bench locks}, or {@code ./run.sh jmh 'FunctionCallBenchmark' -p cpu=1}
 * (the downcall rows need libcorescope.so, i.e. a C compiler at build time).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 2, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@Warmup(iterations = 5, time = 200, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 10, time = 200, timeUnit = TimeUnit.MILLISECONDS)
public class FunctionCallBenchmark extends PinnedBenchmark {

    private int var;

    @Benchmark
    public void javaCall() {
        measuredFunction();
    }

    @Benchmark
    public void downcall() {
        LocksTwins.emptyDowncall();
    }

    @Benchmark
    public void downcallCritical() {
        LocksTwins.emptyDowncallCritical();
    }

    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    private void measuredFunction() {
        var = 1;
    }
}
