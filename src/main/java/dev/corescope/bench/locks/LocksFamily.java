package dev.corescope.bench.locks;

import dev.corescope.bench.BenchContext;
import dev.corescope.bench.FamilyRun;
import dev.corescope.bench.ForkFigures;
import dev.corescope.bench.JavaMachineCode;
import dev.corescope.bench.Jmh;
import dev.corescope.bench.MachineLoad;
import dev.corescope.bench.MeasuredFunction;
import dev.corescope.bench.ModelFamily;
import dev.corescope.bench.RunSize;
import dev.corescope.cpumask.CpuMask;
import dev.corescope.report.Claim;
import dev.corescope.report.NoiseAllowance;
import dev.corescope.report.ResultsFile;
import dev.corescope.report.RunFigures;
import dev.corescope.sys.Pinning;
import dev.corescope.sys.tool.NativeLibrary;
import dev.corescope.text.TextDoc;
import dev.corescope.topology.proc.EventSources;
import dev.corescope.topology.proc.SysfsReader;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * {@code bench locks}: seed 004's lock/unlock costs, in the style of time_bench_sample.c. Each line
 * is measured from Java with JMH and inside C by the twin's loop, in ns and TSC cycles, beside the
 * seed's figure; then two or more pinned threads hammer one lock (contended mode).
 *
 * <p>The uncontended rows run on one pinned CPU; JMH forks are started from an unpinned thread, so
 * their JIT and GC threads are not squeezed onto the measured CPU.
 */
public final class LocksFamily implements ModelFamily<LocksModel> {

    /**
     * {@code --quick}: 0.32 s of iterations per JMH fork, since every Java row is a fork of its own
     * and the family must stay under 20 s on 2 cores. 40 ms is still millions of lock operations,
     * or a hundred thousand system calls, per iteration; five of them keep Student's t (99.9%)
     * at 8.6 rather than 31.6 for three.
     */
    static final Jmh.Settings QUICK = new Jmh.Settings(1, 3, 40, 5, 40);

    /** The seed's machine, for every place its figures appear. */
    static final String SEED = "i7-2620M, kernel 3.17, 2015";

    private static final int CALIBRATIONS_QUICK = 5;

    private static final long CALIBRATION_WINDOW_NS = 20_000_000;

    /** A contended figure: the JMH method and the C twin's kind for one lock, each with its label. */
    private record ContendedRow(Variant variant, String javaMethod, String javaLabel, LocksTwins.Contended nativeKind,
                                String nativeLabel, boolean inQuick) {
    }

    private static final List<ContendedRow> CONTENDED_ROWS = List.of(
            new ContendedRow(Variant.SPIN_LOCK_UNLOCK, "spinLockUnlock", "spin_lock_unlock",
                    LocksTwins.Contended.SPIN, "spin_lock_unlock", true),
            new ContendedRow(Variant.PTHREAD_SPIN_LOCK, null, null, LocksTwins.Contended.PTHREAD_SPIN, "pthread_spin_lock", false),
            new ContendedRow(Variant.SYNCHRONIZED, "synchronizedBlock", "synchronized",
                    LocksTwins.Contended.MUTEX, "pthread_mutex (the analogue of synchronized)", false),
            new ContendedRow(Variant.REENTRANT_LOCK, "reentrantLock", "reentrant_lock", null, null, false),
            new ContendedRow(Variant.ATOMIC_LONG_INCREMENT, "atomicLongIncrement", "atomic_long_increment",
                    LocksTwins.Contended.ATOMIC, "__atomic_add_fetch (the analogue of atomic_long_increment)", false));

    @Override
    public String name() {
        return "locks";
    }

    /** Machine code: every time_bench loop in C (the outermost loop: the timed one), each against the empty for_loop. */
    @Override
    public List<MeasuredFunction> measuredFunctions() {
        return Stream.of(LocksTwins.Loop.values()).map(l -> new MeasuredFunction(l.name().toLowerCase(Locale.ROOT),
                l.symbol(), JAVA_LOCKS.get(l), Map.of(), MeasuredFunction.Loop.TIMED)).toList();
    }

    /**
     * The Java lock and unlock variants whose C2 code stands beside the C twin's loop: the spin
     * lock's whole element ({@code lock(); ++count; unlock()}, SpinLock inlined, as the fork
     * runs it) and the two out-of-line {@code spin_lock_irqsave()} helpers (the signal mask's
     * and the pushf stand-in's).
     */
    static final Map<LocksTwins.Loop, String> JAVA_LOCKS = Map.of(
            LocksTwins.Loop.SPIN_LOCK_UNLOCK, SpinLockBenchmark.class.getName() + "::spinLockUnlock",
            LocksTwins.Loop.SPIN_LOCK_IRQSAVE, IrqsaveBenchmark.class.getName() + "::lockIrqsave",
            LocksTwins.Loop.SPIN_LOCK_IRQSAVE_PUSHF, IrqsaveBenchmark.class.getName() + "::lockIrqsavePushf");

    /** C2 compiles the Java lock variants in their JMH benchmarks (the irqsave helpers inside theirs). */
    @Override
    public Optional<JavaMachineCode.JmhSelection> javaCodeBenchmarks() {
        return Optional.of(new JavaMachineCode.JmhSelection(List.of(SpinLockBenchmark.class, IrqsaveBenchmark.class),
                "spinLockUnlock|spinLockIrqsave|spinLockIrqsavePushf", Map.of()));
    }

    /**
     * How far single runs of this family's unchanged code were apart between the two committed tours
     * ({@code src/test/resources/results/tour-before.json}, {@code tour-after.json}, one fork per row, a
     * loaded 2-vCPU KVM guest): per implementation, {@code sqrt(sum(ln(after/before)^2) / 2n)} over its n
     * timed rows, rounded up, with n degrees of freedom ({@code BetweenRunNoiseAllowanceTest} recomputes them).
     * The report uses a figure only where it is wider than the one over all benchmarks.
     */
    @Override
    public List<NoiseAllowance> allowances() {
        return List.of(new NoiseAllowance("locks", "java", 0.78, 30),
                new NoiseAllowance("locks", "native", 0.96, 29));
    }

    /** Seed's claims, as data: {@link LocksClaims}. */
    @Override
    public List<String> notMeasured(ResultsFile file) {
        return model(file).flatMap(LocksView::skipped).map(List::of).orElse(List.of());
    }

    @Override
    public List<Claim> claims() {
        return LocksClaims.all();
    }

    @Override
    public String summary() {
        return "seed 004: lock/unlock cost per element, time_bench style (spinlocks, signal masks for irqsave, Java's locks; Java and C; contended pairs)";
    }

    @Override
    public FamilyRun run(BenchContext ctx) throws Exception {
        CpuMask allowed = ctx.os().processAllowed();
        int cpu = ctx.cpus().map(CpuMask::first).orElse(allowed.last());
        NativeHarness.Plan plan = ctx.size().pick(NativeHarness.Plan.SMOKE, NativeHarness.Plan.QUICK, NativeHarness.Plan.FULL);
        Jmh.Settings jmh = ctx.size().pick(Jmh.Settings.SMOKE, QUICK, Jmh.Settings.FULL);
        boolean twin = NativeLibrary.available();
        Double loadOneMinute = MachineLoad.oneMinute(Path.of("/")).orElse(null);

        List<Line> javaRows = Stream.of(Line.values()).filter(l -> l.java() != null)
                .filter(l -> ctx.size() != RunSize.QUICK || l.java().inQuick())
                .filter(l -> twin || !l.java().needsTwin())
                .toList();
        List<Line> nativeRows = twin ? Stream.of(Line.values()).filter(l -> l.loop() != null).toList() : List.of();
        List<ThreadPlacement> placements = ContendedPlacements.choose(ctx.cpus(), allowed, ctx::topology);
        List<ContendedRow> contendedRows = CONTENDED_ROWS.stream().filter(r -> ctx.size() != RunSize.QUICK || r.inQuick()).toList();
        long contendedSteps = placements.size() * contendedRows.stream()
                .mapToLong(r -> (r.javaMethod() != null ? 1 : 0) + (twin && r.nativeKind() != null ? 1 : 0)).sum();
        int nativeRuns = ctx.size().twinRuns();
        ctx.progress().start("", (int) (1 + (twin ? nativeRuns : 0) + javaRows.size() + contendedSteps));

        List<LocksModel.Row> rows = new ArrayList<>();
        // each row's forks or C runs, for its results row's runs[] (compare's unit)
        Map<LocksModel.Row, List<RunFigures>> runs = new HashMap<>();
        TscRate tsc;
        try (Pinning ignored = ctx.os().pin(cpu)) {
            ctx.progress().begin("TSC rate");
            tsc = TscRate.detect(Path.of("/"), ctx.size().pick(2, CALIBRATIONS_QUICK, CALIBRATIONS_QUICK * 4),
                    ctx.size().pick(1_000_000L, CALIBRATION_WINDOW_NS, CALIBRATION_WINDOW_NS));
            ctx.progress().step("TSC rate");
            checkInterrupted();
            if (twin) {
                // every loop as separately started runs, interleaved loop by loop (ABAB...), so the
                // runs of a row measure its run-to-run noise as JMH forks do
                int batches = NativeHarness.batchesPerRun(plan, nativeRuns);
                Map<Line, List<NativeHarness.LoopRun>> byLine = new LinkedHashMap<>();
                try (LocksTwins.State state = LocksTwins.newState()) {
                    for (int round = 0; round < nativeRuns; round++) {
                        for (Line r : nativeRows) {
                            byLine.computeIfAbsent(r, k -> new ArrayList<>()).add(NativeHarness.run(state, r.loop(), batches, plan.batchNs()));
                            checkInterrupted();
                        }
                        ctx.progress().step("native loops, run " + (round + 1) + " of " + nativeRuns);
                    }
                }
                byLine.forEach((line, loopRuns) -> {
                    LocksModel.Row row = NativeHarness.of(line, loopRuns, tsc);
                    rows.add(row);
                    runs.put(row, loopRuns.stream().map(NativeHarness.LoopRun::run).toList());
                });
            }
        }

        for (Line r : javaRows) {
            ctx.progress().begin("java " + r.variant().contractName());
            Collection<RunResult> results = Jmh.run(r.java().benchmark(), r.java().method(),
                    Map.of("cpu", new String[]{Integer.toString(cpu)}), jmh, ForkFlags.jvmArgs());
            RunResult rr = single(results, r.java().method());
            var primary = rr.getPrimaryResult();
            double ns = primary.getScore();
            double err = primary.getScoreError();
            LocksModel.Row row = LocksModel.row(r, "java", ns, err, primary.getStatistics().getN(), tsc.cycles(ns), tsc.cycles(err),
                    tsc.known() ? LocksModel.CyclesFrom.TSC_RATE : LocksModel.CyclesFrom.NONE, 0);
            rows.add(row);
            runs.put(row, rr.getBenchmarkResults().stream().map(fork -> ForkFigures.of(fork.getPrimaryResult().getStatistics())).toList());
            ctx.progress().step("java " + r.variant().contractName());
            checkInterrupted();
        }

        List<LocksModel.Contended> contended = new ArrayList<>();
        LocksModel.ContendedSkip skipped = placements.isEmpty() ? ContendedPlacements.skipReason(ctx.cpus(), allowed) : null;
        if (skipped == null) {
            for (ThreadPlacement p : placements) {
                for (ContendedRow r : contendedRows) {
                    if (r.javaMethod() != null) {
                        contended.add(contendedJava(r, p, jmh));
                        ctx.progress().step("contended java " + r.javaLabel() + " on " + p.name());
                        checkInterrupted();
                    }
                    if (twin && r.nativeKind() != null) {
                        contended.add(NativeHarness.contend(ctx.os(), r.nativeKind(), r.variant(), r.nativeLabel(), p, plan));
                        ctx.progress().step("contended native " + r.nativeLabel() + " on " + p.name());
                        checkInterrupted();
                    }
                }
            }
        }

        LocksModel.CpuChoice cpuChoice = ctx.cpus().isPresent() ? LocksModel.CpuChoice.FIRST_OF_CPUS : LocksModel.CpuChoice.LAST_ALLOWED;
        String topologyError = placements.isEmpty() ? null : placements.getFirst().topologyError();
        LocksModel model = new LocksModel(cpu, cpuChoice, LocksModel.of(tsc), jmh, twin ? plan.runs(nativeRuns) : null, rows, contended,
                skipped, EventSources.read(new SysfsReader(Path.of("/"))).map(EventSources::names).orElse(null),
                new LocksModel.Facts(ctx.size() == RunSize.QUICK, twin ? null : NativeLibrary.unavailableReason().orElse("libcorescope.so is not loaded"),
                        loadOneMinute, Math.min(2, allowed.weight()), topologyError));
        return new FamilyRun(name(), model.results(runs), model);
    }

    @Override
    public Class<LocksModel> modelType() {
        return LocksModel.class;
    }

    @Override
    public TextDoc document(LocksModel model, ResultsFile file) {
        return LocksView.document(model);
    }

    private LocksModel.Contended contendedJava(ContendedRow r, ThreadPlacement p, Jmh.Settings s) throws RunnerException {
        ChainedOptionsBuilder ob = Jmh.options(ContendedLockBenchmark.class, r.javaMethod(),
                        Map.of("cpus", new String[]{p.cpuList()}), s, ForkFlags.jvmArgs())
                .threads(p.threads());
        RunResult rr = single(new Runner(ob.build()).run(), r.javaMethod());
        var primary = rr.getPrimaryResult();
        double opsPerUs = primary.getScore();
        double err = primary.getScoreError();
        double nsPerOp = 1000.0 / opsPerUs;
        // d(1000/x) = 1000/x^2 dx: the interval of ops/us carried over to ns/op.
        double nsErr = Double.isNaN(err) ? Double.NaN : 1000.0 * err / (opsPerUs * opsPerUs);
        var secondary = rr.getSecondaryResults();
        List<LocksModel.Share> shares = new ArrayList<>();
        for (int t = 0; t < p.threads(); t++) {
            var share = secondary.get("thread" + t);
            shares.add(new LocksModel.Share(t, p.cpus().get(t), share == null ? Double.NaN : share.getScore()));
        }
        return LocksModel.contended(r.variant(), "java", r.javaLabel(), p, nsPerOp, nsErr, primary.getStatistics().getN(), shares, 0);
    }

    /** Between rows: a session that was aborted interrupts this thread. */
    private static void checkInterrupted() throws InterruptedException {
        if (Thread.interrupted()) throw new InterruptedException("bench locks interrupted");
    }

    private static RunResult single(Collection<RunResult> results, String method) {
        if (results.size() != 1) throw new IllegalStateException("JMH returned " + results.size() + " results for " + method);
        return results.iterator().next();
    }
}
