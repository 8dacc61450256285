package dev.corescope.bench.syscalls;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.sys.Pinning;
import dev.corescope.sys.internal.Affinity;
import dev.corescope.sys.internal.CurrentCpu;
import dev.corescope.sys.internal.Os;
import org.openjdk.jmh.Main;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * What one call into the kernel's affinity interface costs from Java through FFM, beside the
 * same call from C.
 *
 * <p>There is no kernel seed behind this one: it measures corescope's own foundation. Every
 * pinned benchmark asks {@code sched_getcpu} where it runs and sets masks with
 * {@code sched_setaffinity}; if FFM added much to those, the Java-vs-C comparisons of the
 * other families would be measuring corescope rather than the kernel. Issue 2 set the bar:
 * a critical {@code sched_getcpu} within 1.3x of C, the affinity calls within 1.2x. (The
 * JNA-based OpenHFT affinity library is the usual Java alternative; the issue quotes it at
 * about 145 ns, 11-15 us and 12-17 us for the same three.) Issue 15 raised it for the current
 * CPU to at most 1.0x C, which only the rseq read (APPROACH 4) can reach.
 *
 * <p><b>BASELINE</b>: the C twins in {@code native/src/sys.c}: {@code n} calls in a C loop,
 * one downcall for the whole loop ({@code @OperationsPerInvocation(n)}), so the FFM
 * transition is spread over {@code n} calls and the figure is C's own per-call cost.
 *
 * <p><b>APPROACH 1</b>, {@code getcpuPlain}: jextract's generated {@code LibC.sched_getcpu()},
 * an ordinary downcall: the thread goes from Java to native state and back (a memory
 * barrier and a safepoint poll on return).
 *
 * <p><b>APPROACH 2</b>, {@code getcpuCritical}: the same symbol linked with
 * {@code Linker.Option.critical(false)}: no state transition, which is allowed because
 * {@code sched_getcpu} neither blocks nor calls back into Java. On glibc 2.35 and later it
 * is a read of the thread's rseq area, so the call itself costs about as much as the
 * transition it saves.
 *
 * <p><b>APPROACH 3</b>, {@code getcpuCriticalLoop} / {@code getcpuPlainLoop}: the C loop's
 * shape in Java, {@code n} calls summed in one benchmark invocation. The one-call rows also
 * pay JMH's invocation loop and result sink, about a nanosecond ({@code emptyMethod} shows
 * how much on this machine), which is the size of a critical call itself; the loop rows
 * compare like with like.
 *
 * <p><b>APPROACH 4</b>, {@code getcpuRseq} / {@code getcpuRseqLoop}: no call at all. glibc's
 * {@code sched_getcpu()} itself only loads {@code cpu_id} from the thread's rseq area; a
 * {@link CurrentCpu} held by the benchmark thread finds that area once (thread pointer plus
 * glibc's {@code __rseq_offset}) and then makes the same load from Java, opaque so the JIT
 * cannot hoist it out of the loop.
 * Where rseq is not usable the reader falls back to the critical downcall, and the rows say
 * so in the run's log ({@code CurrentCpu.rseqUnavailableReason()}).
 *
 * <p><b>APPROACH 5</b>, {@code getaffinityJava} / {@code setaffinityJava}: the public
 * {@link Affinity#get} and {@link Affinity#set} as every caller uses them, errno captured,
 * per-thread native scratch reused (a confined arena per call cost ~300 ns, as much as the
 * call), the result turned into a {@link CpuMask}. The system call
 * takes hundreds of nanoseconds (get) to microseconds (set: the kernel takes the task's
 * locks and revalidates the mask), so the Java overhead should vanish into it. Both sides set
 * the mask the thread already has (the trial pins to one CPU), so nothing migrates.
 *
 * <p>Where the analogy stops: the C loop runs back to back with a warm branch predictor and
 * no per-call bookkeeping; the Java rows pay JMH's per-invocation loop as well. Neither side
 * is the kernel's own cost: that is the C row minus the syscall entry/exit.
 *
 * <p><b>HOW TO RUN</b> (from the repository root, after {@code ./run.sh --version} built the jar):
 * <pre>
 *   java --enable-native-access=ALL-UNNAMED -cp target/corescope.jar Main SyscallBenchmark -f 1 -wi 3 -i 3 -w 1s -r 1s
 * </pre>
 * Without a C compiler the {@code *C} rows fail with the reason; the Java rows still run.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow"})
@State(Scope.Thread)
public class SyscallBenchmark {

    /** Calls per C-loop downcall for {@code sched_getcpu}: the ~20 ns downcall spreads to ~0.02 ns a call. */
    static final int GETCPU_LOOP = 1000;
    /** Calls per C-loop downcall for the affinity calls, each hundreds of ns or more. */
    static final int AFFINITY_LOOP = 100;

    private Pinning pinning;
    private CpuMask pinned;
    private int cpu;
    private CurrentCpu currentCpu;

    @Setup(Level.Trial)
    public void pin() {
        // The last allowed CPU: on a shared machine, CPU 0 takes more of the interrupts. The trial
        // pins through the OS seam (the fork has no family context: Os.live()); the benchmark
        // methods call Affinity and CurrentCpu directly, since those calls are what is measured.
        Os os = Os.live();
        cpu = os.allowed().last();
        pinning = os.pin(cpu);
        pinned = pinning.pinned();
        currentCpu = CurrentCpu.forThisThread();
        currentCpu.fallbackReason().ifPresent(why -> System.err.println("getcpuRseq rows fall back to sched_getcpu(): " + why));
    }

    @TearDown(Level.Trial)
    public void unpin() {
        pinning.close();
    }

    /** JMH times the downcall; the C loop reads no clock, so only the calls (and one transition) are timed. */
    @Benchmark
    @OperationsPerInvocation(GETCPU_LOOP)
    public long getcpuC() {
        return SysTwins.getcpuCalls(GETCPU_LOOP);
    }

    @Benchmark
    public int getcpuPlain() {
        return Affinity.currentCpuPlain();
    }

    @Benchmark
    public int getcpuCritical() {
        return Affinity.currentCpuCritical();
    }

    @Benchmark
    public int getcpuRseq() {
        return currentCpu.read();
    }

    /** The C loop's shape: {@code n} reads of the rseq area summed. */
    @Benchmark
    @OperationsPerInvocation(GETCPU_LOOP)
    public int getcpuRseqLoop() {
        CurrentCpu reader = currentCpu;
        int acc = 0;
        for (int i = 0; i < GETCPU_LOOP; i++) acc += reader.read();
        return acc;
    }

    /** The C loop's shape in Java: the same {@code n} calls summed, no JMH call between them. */
    @Benchmark
    @OperationsPerInvocation(GETCPU_LOOP)
    public int getcpuCriticalLoop() {
        int acc = 0;
        for (int i = 0; i < GETCPU_LOOP; i++) acc += Affinity.currentCpuCritical();
        return acc;
    }

    @Benchmark
    @OperationsPerInvocation(GETCPU_LOOP)
    public int getcpuPlainLoop() {
        int acc = 0;
        for (int i = 0; i < GETCPU_LOOP; i++) acc += Affinity.currentCpuPlain();
        return acc;
    }

    /** JMH's own cost per call of a method returning an int: what the one-call rows include besides the call. */
    @Benchmark
    public int emptyMethod() {
        return cpu;
    }

    @Benchmark
    @OperationsPerInvocation(AFFINITY_LOOP)
    public double getaffinityC() {
        return SysTwins.getaffinityLoop(AFFINITY_LOOP);
    }

    @Benchmark
    public CpuMask getaffinityJava() {
        return Affinity.get(0);
    }

    @Benchmark
    @OperationsPerInvocation(AFFINITY_LOOP)
    public double setaffinityC() {
        return SysTwins.setaffinityLoop(AFFINITY_LOOP);
    }

    @Benchmark
    public CpuMask setaffinityJava() {
        Affinity.set(0, pinned);
        return pinned;
    }
}
