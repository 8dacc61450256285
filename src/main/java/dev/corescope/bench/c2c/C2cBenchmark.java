package dev.corescope.bench.c2c;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.sys.Pinning;
import dev.corescope.sys.internal.Os;
import dev.corescope.topology.CpuPair;
import dev.corescope.topology.Placements;
import dev.corescope.topology.Topology;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Control;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;

/**
 * Core-to-core latency of one placement under JMH: the cross-check of the {@code bench c2c}
 * matrix, which comes from {@link PingPong} (one JMH fork per pair would make an n&sup2; matrix
 * take minutes).
 *
 * <p><b>What the seed measured.</b> Seed 002's {@code perf c2c} counted thousands of cycles per
 * load on the lines {@code cpupri_set()} and {@code cpupri_find()} share: the price of moving a
 * line between cores, which this map shows for every pair of CPUs.
 *
 * <p><b>What this measures.</b> BASELINE: none, the number is absolute. APPROACH: two threads
 * in one {@code @Group}, {@code ping} pinned to the placement's first CPU, {@code pong} to its
 * second, flip one int between two values with compare-and-set, as nviennot/core-to-core-latency
 * does; each operation waits for the other thread's flip, so an operation is a round trip and
 * the one-way latency is the score / 2. {@code Control.stopMeasurement} lets a thread leave
 * its spin when the iteration ends, since its partner may already have stopped.
 *
 * <p><b>Where the analogy stops.</b> The kernel moves lines between cores as a side effect of
 * ordinary loads and stores; here the transfer is all there is, so this is the floor of what
 * one shared line costs, not the seed's cost per load under 480 CPUs of traffic.
 *
 * <p><b>HOW TO RUN</b>:
 * <pre>
 *   ./run.sh bench c2c                  # the matrix, its C twin, and this cross-check
 *   ./run.sh jmh C2cBenchmark -p placement=any -p cpus=0-1
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 200, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 10, time = 200, timeUnit = TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED"})
@State(Scope.Group)
public class C2cBenchmark {

    private static final VarHandle FLAG = ValueLayout.JAVA_INT.varHandle();
    private static final int PING = 0;
    private static final int PONG = 1;

    /** {@code same-core}, {@code same-l3}, {@code other-l3}, {@code other-package} or {@code any}. */
    @Param({"any"})
    public String placement;

    /** The CPUs to choose the pair from (cpulist); empty: the allowed set. */
    @Param({""})
    public String cpus;

    /**
     * The pair as the family chose it, ping's CPU then pong's ({@code 3/1}; a slash, since
     * JMH's {@code -p} splits values at commas): the fork pins to exactly these and derives
     * nothing. Empty: chosen here from {@code placement} and {@code cpus}.
     */
    @Param({""})
    public String pinned;

    private Arena arena;
    private MemorySegment line;
    int pingCpu;
    int pongCpu;

    @Setup(Level.Trial)
    public void setUp() {
        if (!pinned.isBlank()) {
            int[] pair = pair(pinned);
            pingCpu = pair[0];
            pongCpu = pair[1];
            arena = Arena.ofShared();
            line = arena.allocate(PingPong.LINE_BLOCK, PingPong.LINE_BLOCK);
            return;
        }
        Topology topology = Topology.live();
        CpuMask usable = cpus.isBlank() ? topology.usable()
                : CpuMask.parseList(cpus, topology.nbits()).and(topology.online());
        CpuPair pair = Placements.find(topology, usable, placement).orElseThrow(() -> new IllegalStateException(
                "placement " + placement + " is not available among CPUs " + usable.toList()));
        pingCpu = pair.from();
        pongCpu = pair.to();
        // Shared by design: the ping and pong threads both use it; closed when the trial ends.
        arena = Arena.ofShared();
        line = arena.allocate(PingPong.LINE_BLOCK, PingPong.LINE_BLOCK);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        arena.close();
    }

    /** The two CPUs of a {@code pinned} param, ping's first. */
    static int[] pair(String list) {
        String[] parts = list.split("/");
        try {
            if (parts.length == 2) {
                int a = Integer.parseInt(parts[0].strip());
                int b = Integer.parseInt(parts[1].strip());
                if (a >= 0 && b >= 0 && a != b) return new int[]{a, b};
            }
        } catch (NumberFormatException e) {
            // the message below
        }
        throw new IllegalArgumentException("pinned=" + list + ": not two different CPU numbers (ping's/pong's: 3/1)");
    }

    /** The {@code pinned} param for a pair: {@code from/to}. */
    static String pinned(CpuPair p) {
        return p.from() + "/" + p.to();
    }

    /** The ping thread, pinned to the placement's first CPU. */
    @State(Scope.Thread)
    public static class PingSide {
        Pinning pinning;

        @Setup(Level.Trial)
        public void pin(C2cBenchmark b) {
            pinning = Os.live().pinChecked(b.pingCpu);
        }

        @TearDown(Level.Trial)
        public void unpin() {
            pinning.close();
        }
    }

    /** The pong thread, pinned to the placement's second CPU. */
    @State(Scope.Thread)
    public static class PongSide {
        Pinning pinning;

        @Setup(Level.Trial)
        public void pin(C2cBenchmark b) {
            pinning = Os.live().pinChecked(b.pongCpu);
        }

        @TearDown(Level.Trial)
        public void unpin() {
            pinning.close();
        }
    }

    @Benchmark
    @Group("pingpong")
    @GroupThreads(1)
    public void ping(PingSide side, Control control) {
        while (!control.stopMeasurement && !FLAG.compareAndSet(line, 0L, PONG, PING)) {
            // spin
        }
    }

    @Benchmark
    @Group("pingpong")
    @GroupThreads(1)
    public void pong(PongSide side, Control control) {
        while (!control.stopMeasurement && !FLAG.compareAndSet(line, 0L, PING, PONG)) {
            // spin
        }
    }
}
