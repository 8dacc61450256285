package dev.corescope.examples;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * False sharing between two threads, as in JMH's sample 22: each thread writes its own counter;
 * in {@code shared} the two counters sit on one cache line, in {@code padded} on two.
 *
 * <p>Not one line of it is about affinity. Where its two threads run is chosen on the command
 * line by corescope's profiler, and the run says where they ran and whether they stayed:
 *
 * <pre>
 * java -jar target/benchmarks.jar -prof 'dev.corescope.jmh.PinningProfiler:placement=same-l3'
 * java -jar target/benchmarks.jar -prof 'dev.corescope.jmh.PinningProfiler:placement=other-package'
 * </pre>
 *
 * On SMT siblings ({@code placement=same-core}) the line never leaves the core's L1, so false sharing
 * costs little; across L3s or packages each write moves the line through the interconnect.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class FalseSharingBenchmark {

    /** Two counters on one cache line. */
    @State(Scope.Group)
    public static class Shared {
        volatile long left;
        volatile long right;
    }

    /** Two counters at least 128 bytes apart (two lines even with adjacent-line prefetch),
     *  held apart by class layers: HotSpot lays out a superclass's fields before a subclass's. */
    public static class PaddedLeft {
        volatile long left;
    }

    public static class PaddedGap extends PaddedLeft {
        long p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15, p16;
    }

    @State(Scope.Group)
    public static class Padded extends PaddedGap {
        volatile long right;
    }

    @Benchmark
    @Group("shared")
    @GroupThreads(1)
    public long sharedLeft(Shared s) {
        return s.left++;
    }

    @Benchmark
    @Group("shared")
    @GroupThreads(1)
    public long sharedRight(Shared s) {
        return s.right++;
    }

    @Benchmark
    @Group("padded")
    @GroupThreads(1)
    public long paddedLeft(Padded s) {
        return s.left++;
    }

    @Benchmark
    @Group("padded")
    @GroupThreads(1)
    public long paddedRight(Padded s) {
        return s.right++;
    }
}
