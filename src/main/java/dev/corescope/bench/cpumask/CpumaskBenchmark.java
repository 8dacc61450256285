package dev.corescope.bench.cpumask;

import dev.corescope.bench.ForkPinning;
import dev.corescope.bench.ThreadCpuTime;
import dev.corescope.bench.UndisturbedIterations;
import dev.corescope.cpumask.CpuMask;
import dev.corescope.sys.Pinning;
import dev.corescope.sys.internal.Os;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * Seed 000: {@code cpumask_any_but()} as a loop against {@code cpumask_first_but()}.
 *
 * <p><b>What the seed measured.</b> A kernel module copied {@code cpu_online_mask} and ran
 * 100000 times {@code get_random_bytes(&r); cpumask_any_but(&mask, r % nr_cpu_ids);} between
 * two {@code ktime_get()}: 19665287 ns before the patch, 19545574 ns after (-0.6%), on a
 * Ryzen 7 5700X3D. That is ~197 ns per iteration, most of it {@code get_random_bytes()}, a
 * CSPRNG; the lookup itself is a few ns, and the 1.2 ns per call between the two totals is one
 * run each, with no error bar.
 *
 * <p><b>What this measures.</b> One lookup per {@code @Benchmark} call on a {@link CpuMask}
 * built from this machine's allowed CPUs ({@code sched_getaffinity}) with {@code nrCpus} bits:
 * <ul>
 *   <li>BASELINE {@link #any_but_loop}: {@link #anyButLoop}, the kernel's old
 *       {@code for_each_cpu(i, mask) if (i != cpu) break;};</li>
 *   <li>APPROACH {@link #first_but}: {@link CpuMask#firstBut}, the new
 *       {@code i = cpumask_first(mask); if (i == cpu) i = cpumask_next(i, mask);}.</li>
 *   <li>Not a kernel variant, {@link #any_but_loop_first}: the calls of {@code first_but}
 *       ({@code first()}, then {@code next()} when the first CPU is the excluded one) in the
 *       loop shape of {@code any_but_loop}. It splits a gap between the two into the part the
 *       calls make ({@code next(-1)} against {@code first()}: the patch) and the part the loop
 *       shape makes (how C2 compiles a loop against straight-line code: not the patch).</li>
 * </ul>
 * Every call draws its CPU inside the timed call as the seed did ({@code get_random_bytes() %
 * nr_cpu_ids}; here an xorshift64* step and an unsigned {@code %}, about a nanosecond, far
 * cheaper than the seed's CSPRNG), from a generator, never a replayed table the branch
 * predictor could learn. {@code online=16} is the seed's machine (CPUs 0-15 online, so the
 * excluded CPU is the first set one 1 call in 16); {@code online=host} is this machine's
 * allowed CPUs. {@code mask=high} is a synthetic worst case no machine has: the CPUs moved to
 * the top of the mask so every lookup first skips the empty words (0 for 64 bits, 63 for
 * 4096); it is not the seed's experiment. See {@link CpumaskInputs} for the exact masks and
 * draws.
 *
 * <p><b>Where the analogy stops.</b> Java has no NR_CPUS: {@code nrCpus} only sizes the mask
 * ({@code nbits}), and {@code first()/next()} are the same loops over words whatever it is,
 * while the kernel compiles NR_CPUS=64 to inline one-word code and NR_CPUS=4096 to calls of
 * {@code _find_first_bit()}/{@code _find_next_bit()} bounded by {@code nr_cpu_ids}. Here a
 * 4096-bit search is bounded by 4096, as in a kernel whose {@code nr_cpu_ids} is 4096. The C
 * twin ({@code native/src/cpumask.c}, {@code bench cpumask} runs it) is compiled both ways.
 * In the kernel the function is inlined into its callers; here it is inlined into the JMH
 * stub by C2. The seed's loop never used its result; here JMH consumes every answer.
 *
 * <p><b>Iterations.</b> Many short ones (10 ms), so {@code bench} can keep the undisturbed ones
 * ({@link UndisturbedIterations}); the {@code jmh} command prints JMH's score over all of them.
 *
 * <p><b>How to run.</b>
 * <pre>
 *   ./run.sh bench cpumask --cpus 1            # Java and C, text report, pinned to CPU 1
 *   ./run.sh bench cpumask --quick             # under 20 s, wider errors
 *   ./run.sh jmh CpumaskBenchmark -p nrCpus=64
 *   ./run.sh jmh CpumaskBenchmark -p nrCpus=4096 -p online=16 -p mask=high -jvmArgsAppend -Dcorescope.bench.cpus=1
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
@Fork(value = 3, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow"})
@Warmup(iterations = 3, time = 200, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 60, time = 10, timeUnit = TimeUnit.MILLISECONDS)
public class CpumaskBenchmark {

    /** NR_CPUS: the mask's size in bits. */
    @Param({"64", "4096"})
    public int nrCpus;

    /** CPUs online: {@code 16} as on the seed's machine, or {@code host}: this machine's allowed CPUs. */
    @Param({"16", "host"})
    public String online;

    /** {@code online}: the online CPUs at their numbers; {@code high}: moved to the top bits (synthetic worst case). */
    @Param({"online", "high"})
    public String mask;

    private CpuMask cpumask;
    private int offset;
    private int range;
    private long rng;
    private Pinning pinning;

    @Setup(Level.Trial)
    public void setUp() {
        // The mask first: pinning would shrink the allowed set to the pinned CPUs.
        CpumaskInputs in = CpumaskInputs.of(nrCpus, CpumaskInputs.MaskKind.of(mask), online,
                Os.live().allowed(), Os.live().nrCpuIds());
        cpumask = in.mask();
        offset = in.offset();
        range = in.range();
        rng = CpumaskInputs.SEED;
        pinning = ForkPinning.pinFromProperty();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        if (pinning != null) pinning.close();
    }

    /** The seed's {@code get_random_bytes() % nr_cpu_ids}, inside the timed call. */
    private int nextCpu() {
        rng = CpumaskInputs.Xorshift.step(rng);
        return offset + Integer.remainderUnsigned(CpumaskInputs.Xorshift.output(rng), range);
    }

    /** {@code cpu} only reports the thread's CPU time per iteration, so descheduled iterations can be told apart. */
    @Benchmark
    public int any_but_loop(ThreadCpuTime cpu) {
        return anyButLoop(cpumask, nextCpu());
    }

    @Benchmark
    public int first_but(ThreadCpuTime cpu) {
        return cpumask.firstBut(nextCpu());
    }

    @Benchmark
    public int any_but_loop_first(ThreadCpuTime cpu) {
        return anyButLoopFirst(cpumask, nextCpu());
    }

    /**
     * {@code cpumask_any_but(mask, cpu)} as it was before seed 000 (v6.15 and earlier):
     * {@code for_each_cpu(i, mask) if (i != cpu) break; return i;}. Same answer as
     * {@link CpuMask#firstBut}. It calls what the kernel's loop calls: {@code for_each_cpu} is
     * {@code for_each_set_bit}, which starts with {@code find_next_bit(mask, size, 0)}, that is
     * {@code next(-1)}, not {@code first()} ({@code find_first_bit}); that call is the difference the patch made.
     */
    static int anyButLoop(CpuMask mask, int cpu) {
        int nbits = mask.nbits();
        int i;
        for (i = mask.next(-1); i < nbits; i = mask.next(i)) {
            if (i != cpu) break;
        }
        return i;
    }

    /**
     * {@code for_each_cpu}'s loop started with {@code first()}: what {@code any_but_loop} was in
     * corescope before it called what the kernel calls. Same calls as {@link CpuMask#firstBut},
     * different shape.
     */
    static int anyButLoopFirst(CpuMask mask, int cpu) {
        int nbits = mask.nbits();
        int i;
        for (i = mask.first(); i < nbits; i = mask.next(i)) {
            if (i != cpu) break;
        }
        return i;
    }
}
