package dev.corescope.bench.timerbase;

import dev.corescope.bench.ForkPinning;
import dev.corescope.bench.ThreadCpuTime;
import dev.corescope.bench.UndisturbedIterations;
import dev.corescope.sys.Pinning;
import dev.corescope.sys.internal.Os;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * Seed 001: {@code get_timer_cpu_base()} with two {@code per_cpu_ptr()} for a deferrable timer
 * (before) or one (after), inside a {@code lock_timer_base()}-like loop.
 *
 * <p><b>What the seed measured.</b> On an x86 KVM guest, the time of ~13000 calls in 12 s each
 * (about 13000 of each variant), bucketed by 20 ns: before mostly 100-159 ns, after mostly
 * 20-119 ns. Each sample is one call between two clock reads, so it holds the clock's own cost;
 * the mail does not say which clock or what exactly sat between the reads.
 *
 * <p><b>What this measures.</b> The per-call cost, as JMH measures tiny things: many calls
 * per iteration, no clock read per call. Each {@code @Benchmark} call takes the next of 1024
 * off-heap {@code timer_list}s (a quarter each plain, pinned, deferrable, both; CPUs spread over
 * the allowed ones) and runs
 * <ul>
 *   <li>BASELINE {@link #before}: {@link TimerBases#lockTimerBaseBefore}: {@code per_cpu_ptr}
 *       for the standard base, and again for the deferrable one when the flag is set, both
 *       reading {@code __per_cpu_offset[cpu]} with plain loads that C2 may merge into one, as
 *       GCC merges them in the C twin (the compiler's own choice);</li>
 *   <li>BASELINE {@link #before_two_loads}: the same with each table read opaque (the C
 *       twin's {@code READ_ONCE}), so a deferrable timer reads the table twice, whatever the
 *       compiler: what "two {@code per_cpu_ptr()}" costs when nothing merges them;</li>
 *   <li>APPROACH {@link #after}: {@link TimerBases#lockTimerBaseAfter}: the index first, then
 *       one {@code per_cpu_ptr}.</li>
 * </ul>
 * {@code per_cpu_ptr} is an add of {@code __per_cpu_offset[cpu]} (an off-heap table) to the
 * per-CPU address of {@code timer_bases[i]}; each CPU's area was first touched by a thread
 * pinned to that CPU (see {@link TimerBases}). The per-call latency histogram the seed drew is
 * made by {@code bench timerbase} ({@link TimerbaseSampler}), with the clock's own histogram
 * beside it.
 *
 * <p><b>The lock.</b> Each call takes and releases the base's lock as {@code lock_timer_base()}
 * and its caller do ({@link TimerBases#rawSpinLockIrqsave}, {@link
 * TimerBases#rawSpinUnlockIrqrestore}: an acquiring compare-and-exchange and a release store,
 * out of line through {@code @CompilerControl}, as {@code _raw_spin_lock_irqsave()} is out of
 * line in the kernel), so the base is found before an opaque call and the table load stays in
 * the retry loop, as in the C twin. Java runs no {@code pushf} (the C twin does) and no
 * {@code cli}.
 *
 * <p><b>Where the analogy stops.</b> Everything here is hot in L1 (1024 timers, 2-3 bases per
 * CPU); in the kernel the timer and its base are often cold, and a cache miss would swamp one
 * add. The kernel's {@code RELOC_HIDE} does not keep the two lookups apart (its asm is not
 * volatile and clobbers no memory): GCC shares the table load in the C twin
 * ({@code native/src/timerbase.c}; {@code bench} prints its machine code), and C2 shares it in
 * Java, so {@code before_two_loads} is there to show what an unmerged second load costs.
 *
 * <p><b>Iterations.</b> Many short ones (10 ms): {@link ThreadCpuTime} reports the thread's CPU
 * time per iteration, and {@code bench} keeps only the iterations the thread ran through
 * undisturbed ({@link UndisturbedIterations}), so a time slice lost to
 * another process on a shared machine does not count as the lookup's. The {@code jmh} command
 * prints JMH's own score over all iterations, next to {@code cpuNs}.
 *
 * <p><b>How to run.</b>
 * <pre>
 *   ./run.sh bench timerbase --cpus 1           # Java and C, histograms and per-op, pinned to CPU 1
 *   ./run.sh bench timerbase --quick            # under 20 s
 *   ./run.sh jmh TimerbaseBenchmark -jvmArgsAppend -Dcorescope.bench.cpus=1
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
@Fork(value = 3, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow"})
@Warmup(iterations = 3, time = 200, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 60, time = 10, timeUnit = TimeUnit.MILLISECONDS)
public class TimerbaseBenchmark {

    /** Timers the loop cycles through: a power of two. */
    public static final int TIMERS = 1024;
    /** The seed of the timers' mix of flags and CPUs. */
    public static final long SEED = 0x5EED_0001L;

    private TimerBases bases;
    private long perCpuOffset;
    private long timers;
    private int next;
    private Pinning pinning;

    @Setup(Level.Trial)
    public void setUp() {
        bases = TimerBases.create(Os.live(), Os.live().processAllowed(), TIMERS, SEED);
        perCpuOffset = bases.perCpuOffset().address();
        timers = bases.timerAddress(0);
        pinning = ForkPinning.pinFromProperty();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        try {
            if (pinning != null) pinning.close();
        } finally {
            bases.close();
        }
    }

    private long nextTimer() {
        return timers + (long) (next++ & (TIMERS - 1)) * TimerBases.TIMER_LIST_SIZE;
    }

    /** {@code cpu} only reports the thread's CPU time per iteration, so descheduled iterations can be told apart. */
    @Benchmark
    public long before(ThreadCpuTime cpu) {
        return TimerBases.lockUnlockBefore(nextTimer(), perCpuOffset);
    }

    @Benchmark
    public long before_two_loads(ThreadCpuTime cpu) {
        return TimerBases.lockUnlockBeforeTwoLoads(nextTimer(), perCpuOffset);
    }

    @Benchmark
    public long after(ThreadCpuTime cpu) {
        return TimerBases.lockUnlockAfter(nextTimer(), perCpuOffset);
    }
}
