package dev.corescope.bench.syscalls;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.sys.Pinning;
import dev.corescope.sys.internal.Affinity;
import dev.corescope.sys.internal.CurrentCpu;
import dev.corescope.sys.internal.Os;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongToDoubleFunction;

/**
 * {@link SyscallBenchmark}'s comparisons for a shared machine: each variant runs in many short
 * batches (tens of microseconds), alternating with the others, and the figure kept is the
 * minimum and the 10th percentile of ns per call over the batches. A batch during which the
 * thread lost its CPU is slower, never faster, so the low end of the distribution is the
 * undisturbed cost even when the load average is far above the CPU count, where JMH's averages
 * measure mostly the waiting. The C rows are timed inside C ({@link SysTwins}), the Java rows
 * around a Java loop of the same shape.
 *
 * <p>The harness pins through the OS seam ({@link Os#live()}); the calls in the timed loops
 * ({@link Affinity#currentCpu()}, {@code currentCpuCritical}, {@code currentCpuPlain},
 * {@link Affinity#get}, {@link Affinity#set}, a held {@link CurrentCpu}) are direct, because
 * they are what is measured: a seam between the loop and the call would be measured with it.
 *
 * <p><b>HOW TO RUN</b> (after {@code ./run.sh --version} built the jar):
 * <pre>
 *   java --enable-native-access=ALL-UNNAMED -cp target/corescope.jar SyscallBatches [BATCHES]
 * </pre>
 */
public final class SyscallBatches {

    private static final int GETCPU_CALLS = 10_000;
    private static final int AFFINITY_CALLS = 20;

    private static volatile int sink;

    private SyscallBatches() {
    }

    public static void main(String[] args) {
        int batches = args.length > 0 ? Integer.parseInt(args[0]) : 3000;
        if (!SysTwins.available()) {
            System.err.println("C twins not built: " + SysTwins.unavailableReason().orElse("?"));
            System.exit(1);
        }
        Os os = Os.live();
        int cpu = os.allowed().last();
        try (Pinning pinning = os.pin(cpu)) {
            CpuMask pinned = pinning.pinned();
            CurrentCpu reader = CurrentCpu.forThisThread();
            System.out.println("# pinned to CPU " + cpu + "; rseq read: "
                    + (reader.usesRseq() ? "yes" : "no, " + reader.fallbackReason().orElse("?")));
            Map<String, LongToDoubleFunction> rows = new LinkedHashMap<>();
            rows.put("sched_getcpu, C loop", SysTwins::getcpuLoop);
            rows.put("rseq read, held CurrentCpu", n -> rseqLoop(n, reader));
            rows.put("Affinity.currentCpu()", SyscallBatches::affinityLoop);
            rows.put("sched_getcpu, critical downcall", SyscallBatches::criticalLoop);
            rows.put("sched_getcpu, plain jextract downcall", SyscallBatches::plainLoop);
            rows.put("sched_getaffinity, C loop", SysTwins::getaffinityLoop);
            rows.put("Affinity.get(0)", n -> javaLoop(n, () -> Affinity.get(0).weight()));
            rows.put("sched_setaffinity, C loop", SysTwins::setaffinityLoop);
            rows.put("Affinity.set(0, same mask)", n -> javaLoop(n, () -> {
                Affinity.set(0, pinned);
                return 0;
            }));
            double[][] samples = new double[rows.size()][batches];
            LongToDoubleFunction[] fns = rows.values().toArray(LongToDoubleFunction[]::new);
            for (int b = -batches / 5; b < batches; b++) { // the first fifth warms up and is dropped
                for (int r = 0; r < fns.length; r++) {
                    double ns = fns[r].applyAsDouble(r < 5 ? GETCPU_CALLS : AFFINITY_CALLS);
                    if (b >= 0) samples[r][b] = ns;
                }
            }
            System.out.printf("%-46s %10s %10s %10s%n", "ns per call, " + batches + " batches", "min", "p10", "median");
            int r = 0;
            for (String name : rows.keySet()) {
                double[] s = samples[r++];
                Arrays.sort(s);
                System.out.printf("%-46s %10.2f %10.2f %10.2f%n", name, s[0], s[s.length / 10], s[s.length / 2]);
            }
        }
    }

    private interface IntCall {
        int call();
    }

    // One loop per variant, each with a direct call, as the C loop has: no shared call site.

    private static double rseqLoop(long n, CurrentCpu reader) {
        long t0 = System.nanoTime();
        int acc = 0;
        for (long i = 0; i < n; i++) acc += reader.read();
        long t1 = System.nanoTime();
        sink = acc;
        return (double) (t1 - t0) / n;
    }

    private static double affinityLoop(long n) {
        long t0 = System.nanoTime();
        int acc = 0;
        for (long i = 0; i < n; i++) acc += Affinity.currentCpu();
        long t1 = System.nanoTime();
        sink = acc;
        return (double) (t1 - t0) / n;
    }

    private static double criticalLoop(long n) {
        long t0 = System.nanoTime();
        int acc = 0;
        for (long i = 0; i < n; i++) acc += Affinity.currentCpuCritical();
        long t1 = System.nanoTime();
        sink = acc;
        return (double) (t1 - t0) / n;
    }

    private static double plainLoop(long n) {
        long t0 = System.nanoTime();
        int acc = 0;
        for (long i = 0; i < n; i++) acc += Affinity.currentCpuPlain();
        long t1 = System.nanoTime();
        sink = acc;
        return (double) (t1 - t0) / n;
    }

    /** ns per call of {@code n} calls in a Java loop (for the affinity calls, hundreds of ns each). */
    private static double javaLoop(long n, IntCall call) {
        long t0 = System.nanoTime();
        int acc = 0;
        for (long i = 0; i < n; i++) acc += call.call();
        long t1 = System.nanoTime();
        sink = acc;
        return (double) (t1 - t0) / n;
    }

}
