package dev.corescope.bench.cpumask;

import dev.corescope.bench.BenchContext;
import dev.corescope.bench.BenchFamily;
import dev.corescope.bench.CleanBatches;
import dev.corescope.bench.FamilyRun;
import dev.corescope.bench.Figure;
import dev.corescope.bench.ForkPinning;
import dev.corescope.bench.JavaMachineCode;
import dev.corescope.bench.Jmh;
import dev.corescope.bench.MachineLoad;
import dev.corescope.bench.Measured;
import dev.corescope.bench.MeasuredFunction;
import dev.corescope.bench.RunSize;
import dev.corescope.bench.Undisturbed;
import dev.corescope.bench.UndisturbedIterations;
import dev.corescope.cpumask.CpuMask;
import dev.corescope.report.Claim;
import dev.corescope.report.NoiseAllowance;
import dev.corescope.report.Result;
import dev.corescope.report.ResultsFile;
import dev.corescope.sys.Pinning;
import dev.corescope.sys.internal.Os;
import dev.corescope.text.TextDoc;
import dev.corescope.text.TextTable;
import org.openjdk.jmh.results.RunResult;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code bench cpumask}: seed 000 on this machine's CPU mask, in Java (JMH,
 * {@link CpumaskBenchmark}) and in C ({@link CpumaskTwins}, at two code layouts), plus the code
 * size of kernel-like callers before and after the patch, as the seed's bloat-o-meter table
 * ({@link KernelCallers}).
 */
public final class CpumaskFamily implements BenchFamily {

    /** The seed's loop count. */
    static final int SEED_CALLS = 100_000;
    /** The seed's totals, ns for 100000 calls (one run each). */
    static final long SEED_BEFORE_NS = 19_665_287L;
    static final long SEED_AFTER_NS = 19_545_574L;

    static final String BASELINE = "any_but_loop";
    static final String APPROACH = "first_but";
    /** Java only: the calls of first_but in the loop shape of any_but_loop (see {@link CpumaskBenchmark#any_but_loop_first}). */
    static final String LOOP_FIRST = "any_but_loop_first";

    /** Tests: no fork, 3 iterations (JMH gives no error below 3); numbers mean nothing. */
    static final Jmh.Settings SMOKE = new Jmh.Settings(0, 1, 20, 3, 20);
    /** JMH runs: quick stays under 20 s for 8 forks on 2 cores; full aims at errors under 2%. */
    static final Jmh.Settings QUICK = new Jmh.Settings(1, 2, 100, 30, 10);
    static final Jmh.Settings FULL = new Jmh.Settings(3, 3, 200, 60, 10);

    @Override
    public String name() {
        return "cpumask";
    }

    /** Machine code: the four C functions at both layouts, each against the loop of the same NR_CPUS and layout. */
    @Override
    public List<MeasuredFunction> measuredFunctions() {
        List<MeasuredFunction> out = new ArrayList<>();
        for (CpumaskTwins.Layout layout : CpumaskTwins.Layout.values()) {
            for (int nrCpus : new int[]{64, 4096}) {
                for (boolean firstBut : new boolean[]{false, true}) {
                    out.add(new MeasuredFunction(firstBut ? "first_but" : "any_but_loop",
                            CpumaskTwins.symbol(firstBut, nrCpus, layout), null,
                            Map.of("nrCpus", nrCpus, "layout", layout.param())));
                }
            }
        }
        String mask = CpuMask.class.getName() + "::";
        out.add(MeasuredFunction.of("any_but_loop", null, mask + "anyButLoop"));
        out.add(MeasuredFunction.of("first_but", null, mask + "firstBut"));
        out.add(MeasuredFunction.of("any_but_loop_first", null, CpumaskBenchmark.class.getName() + "::anyButLoopFirst"));
        return out;
    }

    /**
     * C2 compiles the Java variants in the JMH benchmark at the seed's condition (16 CPUs online,
     * mask online) with NR_CPUS=64: one method serves every mask size, so one compilation each.
     */
    @Override
    public Optional<JavaMachineCode.Run> javaCodeRun() {
        return Optional.of(new JavaMachineCode.Run(CpumaskBenchmark.class,
                "any_but_loop|first_but|any_but_loop_first", Map.of("nrCpus", "64", "online", "16", "mask", "online")));
    }

    /**
     * How far single runs of this family's unchanged code were apart between the two committed tours
     * ({@code src/test/resources/results/tour-before.json}, {@code tour-after.json}, one fork per row, a
     * loaded 2-vCPU KVM guest): per implementation, {@code sqrt(sum(ln(after/before)^2) / 2n)} over its n
     * timed rows, rounded up, with n degrees of freedom ({@code RunNoiseAllowanceTest} recomputes them).
     * The report uses a figure only where it is wider than the one over all benchmarks.
     */
    @Override
    public List<NoiseAllowance> allowances() {
        return List.of(new NoiseAllowance("cpumask", "java", 0.23, 8),
                new NoiseAllowance("cpumask", "native", 0.54, 16));
    }

    /** Seed's claims, as data: {@link CpumaskClaims}. */
    @Override
    public List<Claim> claims() {
        return CpumaskClaims.all();
    }

    @Override
    public String summary() {
        return "seed 000: cpumask_any_but() as a for_each_cpu loop vs cpumask_first_but(), Java and C, with code size";
    }

    @Override
    public FamilyRun run(BenchContext ctx) throws Exception {
        Jmh.Settings settings = ctx.size().pick(SMOKE, QUICK, FULL);
        List<CpumaskConfig> javaPlan = ctx.size().pick(CpumaskConfig.smoke(), CpumaskConfig.quick(), CpumaskConfig.all());
        List<CpumaskConfig> nativePlan = ctx.size().pick(CpumaskConfig.smoke(), CpumaskConfig.all(), CpumaskConfig.all());
        int batches = ctx.size().pick(3, 15, 100);
        boolean nativeOk = CpumaskTwins.unavailableReason().isEmpty();
        String cpus = ForkPinning.cpusField(ctx.cpus());
        CpuMask allowed = ctx.os().allowed();
        int nrCpuIds = ctx.os().nrCpuIds();

        String load = MachineLoad.describe().orElse(null);
        List<CpumaskConfig> splitPlan = splitPlan(ctx, javaPlan);
        int layouts = CpumaskTwins.Layout.values().length;
        ctx.progress().start("cpumask", javaPlan.size() * 2 + splitPlan.size() + (nativeOk ? nativePlan.size() * layouts + 1 : 0));
        List<Measurement.Comparison> comparisons = new ArrayList<>();
        List<Measurement.Split> splits = new ArrayList<>();
        List<UndisturbedIterations> iterations = new ArrayList<>();
        for (CpumaskConfig c : javaPlan) {
            Measured loop = runJmh(ctx, settings, c, BASELINE, cpus, iterations);
            Measured first = runJmh(ctx, settings, c, APPROACH, cpus, iterations);
            comparisons.add(new Measurement.Comparison(c, "java", null, loop, first));
            if (splitPlan.contains(c)) {
                splits.add(new Measurement.Split(c, loop, runJmh(ctx, settings, c, LOOP_FIRST, cpus, iterations), first));
            }
        }

        List<CpumaskModel.CallerSize> callers = new ArrayList<>();
        List<String> codeSizeGaps = new ArrayList<>();
        CpumaskModel.CodeSizeBuilds codeSizeBuilds = null;
        Undisturbed nativeLeftOut = null;
        if (nativeOk) {
            List<CleanBatches> outcomes = new ArrayList<>();
            for (CpumaskConfig c : nativePlan) {
                for (CpumaskTwins.Layout layout : CpumaskTwins.Layout.values()) {
                    comparisons.add(runNative(ctx.os(), ctx.cpus(), c, layout, allowed, nrCpuIds, batches, cpus, outcomes));
                    ctx.progress().step("native " + c + " layout=" + layout.param());
                }
            }
            nativeLeftOut = Undisturbed.ofBatches(outcomes);
            KernelCallers.Reading sizes = KernelCallers.read(codeSizeGaps);
            callers.addAll(sizes.sizes());
            codeSizeBuilds = sizes.builds();
            ctx.progress().step("code size");
        }

        List<Result> results = new ArrayList<>();
        for (Measurement.Comparison c : comparisons) {
            results.add(c.baseline().result());
            results.add(c.approach().result());
        }
        for (Measurement.Split sp : splits) results.add(sp.loopFirst().result());
        results.addAll(Measurement.results(callers));

        Measurement report = new Measurement(ForkPinning.describe(ctx.os(), ctx.cpus()), allowed, nrCpuIds,
                describeSettings(settings, ctx), batches, comparisons, splits, callers, ctx.size() == RunSize.QUICK, load,
                Undisturbed.ofIterations(iterations), nativeLeftOut, CpumaskTwins.unavailableReason().orElse(null), codeSizeGaps, codeSizeBuilds);
        CpumaskModel model = report.model();
        return new FamilyRun(name(), results, model);
    }

    @Override
    public Optional<?> model(ResultsFile file) {
        return CpumaskView.model(file);
    }

    @Override
    public Optional<TextDoc> document(ResultsFile file) {
        return CpumaskView.model(file).map(m -> CpumaskView.document(m, file.results()));
    }

    /**
     * The rows where {@value #LOOP_FIRST} runs too: every row in a full run; in {@code --quick}
     * the seed's (16 CPUs online, the mask as the kernel has it); one in a smoke test.
     */
    static List<CpumaskConfig> splitPlan(BenchContext ctx, List<CpumaskConfig> javaPlan) {
        return ctx.size().pick(javaPlan.subList(0, 1),
                javaPlan.stream().filter(CpumaskConfig::seedCondition).toList(), javaPlan);
    }

    private Measured runJmh(BenchContext ctx, Jmh.Settings settings, CpumaskConfig c, String method, String cpus,
                            List<UndisturbedIterations> iterations) throws Exception {
        // a row the time claim counts gets its forks in every mode: runs are the unit of its interval
        boolean counted = dev.corescope.report.Claim.counts(claims(), name(), method, "java", "op", c.params());
        Jmh.Settings s = counted ? settings.forClaim(NATIVE_RUNS) : settings;
        Collection<RunResult> runs = ForkPinning.withProperty(ctx.cpus(), () -> Jmh.run(CpumaskBenchmark.class, method,
                c.jmhParams(), s, ForkPinning.jvmArgs(ctx.cpus())));
        UndisturbedIterations u = UndisturbedIterations.of(runs.iterator().next());
        iterations.add(u);
        ctx.progress().step("java " + method + " " + c);
        return Measured.java(name(), method, u, cpus, c.params());
    }

    /**
     * The C twin: batches of {@value #SEED_CALLS} calls, the two variants alternating, keeping
     * the batches the thread ran through undisturbed ({@link CleanBatches}); per-op = batch
     * time / calls; the error is JMH's (Student's t, 99.9%) over the kept batches.
     */
    private Measurement.Comparison runNative(Os os, Optional<CpuMask> pin, CpumaskConfig c, CpumaskTwins.Layout layout, CpuMask allowed,
                                               int nrCpuIds, int batches, String cpus, List<CleanBatches> outcomes) {
        CpumaskInputs in = CpumaskInputs.of(c.nrCpus(), c.mask(), c.online(), allowed, nrCpuIds);
        // separately started runs (each its own allocation, warm-up and batches), so a row's interval takes the run as its unit
        List<CleanBatches> runs = new ArrayList<>();
        try (Pinning p = pin.map(os::pin).orElse(null)) {
            for (int run = 0; run < NATIVE_RUNS; run++) {
                try (CpumaskTwins.Batch batch = new CpumaskTwins.Batch(c.nrCpus(), in.mask(), in.offset(), in.range(), in.nrCpuIds(),
                        CpumaskInputs.SEED, layout)) {
                    for (int w = 0; w < 3; w++) {
                        batch.time(false, SEED_CALLS);
                        batch.time(true, SEED_CALLS);
                    }
                    runs.add(CleanBatches.collect(Math.max(3, batches / NATIVE_RUNS), SEED_CALLS, firstBut -> batch.time(firstBut, SEED_CALLS)));
                }
            }
        }
        outcomes.addAll(runs);
        boolean fellBack = runs.stream().anyMatch(CleanBatches::fellBack);
        return new Measurement.Comparison(c, "native", layout,
                Measured.nativeRuns(name(), BASELINE, runs.stream().map(CleanBatches::first).toList(), cpus, c.params(layout), fellBack),
                Measured.nativeRuns(name(), APPROACH, runs.stream().map(CleanBatches::second).toList(), cpus, c.params(layout), fellBack));
    }

    /** The C twin's separately started runs per row. */
    static final int NATIVE_RUNS = dev.corescope.report.SeedVerdicts.RUNS_PER_SIDE;

    private static String describeSettings(Jmh.Settings s, BenchContext ctx) {
        return "JMH " + s.forks() + " fork" + (s.forks() == 1 ? "" : "s") + " x " + s.measurementIterations() + " x "
                + s.measurementMillis() + " ms (warm-up " + s.warmupIterations() + " x " + s.warmupMillis() + " ms) per variant and row"
                + (s.forClaim(NATIVE_RUNS) == s ? "" : "; rows the time claim counts: " + s.forClaim(NATIVE_RUNS).forks() + " forks x "
                + s.forClaim(NATIVE_RUNS).measurementIterations() + " x " + s.measurementMillis() + " ms")
                + ctx.size().note();
    }

    /**
     * What {@code bench cpumask} measured, live: the comparisons, splits and code sizes, the notes
     * that read them ({@link #notes()}), and the {@link #model()} that is saved and that
     * {@link CpumaskView} renders.
     */
    record Measurement(String pinning, CpuMask allowed, int nrCpuIds, String javaSettings, int nativeBatches,
                         List<Comparison> comparisons, List<Split> splits, List<CpumaskModel.CallerSize> callers,
                         boolean quick, String load, Undisturbed javaIterations, Undisturbed nativeLeftOut,
                         String nativeUnavailable, List<String> codeSizeGaps, CpumaskModel.CodeSizeBuilds codeSizeBuilds) {

        /** The seed's effect: (after - before) / before, in percent. */
        static final double SEED_EFFECT_PCT =
                100.0 * (CpumaskFamily.SEED_AFTER_NS - CpumaskFamily.SEED_BEFORE_NS) / CpumaskFamily.SEED_BEFORE_NS;
        /** The full mode's target: each error under this share of its score. */
        static final double TARGET_ERROR_PCT = 2.0;

        /** The two variants of one configuration and implementation; {@code layout} null for Java. */
        record Comparison(CpumaskConfig config, String implementation, CpumaskTwins.Layout layout, Measured baseline,
                          Measured approach) {

            /** Welch's t-test at 99.9%, as JMH compares two results. */
            boolean significant() {
                return baseline.stats().getN() > 1 && approach.stats().getN() > 1
                        && baseline.stats().isDifferent(approach.stats(), 0.999);
            }
        }

        /**
         * A Java gap split in two by {@value CpumaskFamily#LOOP_FIRST}: {@code calls} is
         * any_but_loop against it (the same loop, {@code next(-1)} against {@code first()}: what the
         * patch changed), {@code shape} is it against first_but (the same calls, loop against
         * straight-line code: how C2 compiles them, not the patch).
         */
        record Split(CpumaskConfig config, Measured loop, Measured loopFirst, Measured firstBut) {

            Comparison calls() {
                return new Comparison(config, "java", null, loop, loopFirst);
            }

            Comparison shape() {
                return new Comparison(config, "java", null, loopFirst, firstBut);
            }
        }

        /**
         * The callers' sizes as results rows, one per function, NR_CPUS and build (metric
         * {@value #CODE_SIZE}, unit {@code bytes}, exact: error 0); old = {@value CpumaskFamily#BASELINE},
         * new = {@value CpumaskFamily#APPROACH}. Totals are not rows: the view and the claims sum them.
         */
        static List<Result> results(List<CpumaskModel.CallerSize> callers) {
            List<Result> out = new ArrayList<>();
            for (CpumaskModel.CallerSize c : callers) {
                Map<String, Object> params = new LinkedHashMap<>();
                params.put("nrCpus", c.nrCpus());
                params.put("build", c.build());
                params.put("function", c.function());
                out.add(size(CpumaskFamily.BASELINE, CODE_SIZE, c.oldBytes(), params));
                out.add(size(CpumaskFamily.APPROACH, CODE_SIZE, c.newBytes(), params));
            }
            return out;
        }

        /** The metric of a code-size row. */
        static final String CODE_SIZE = "code-size";

        private static Result size(String variant, String metric, long bytes, Map<String, Object> params) {
            return Result.builder().benchmark("cpumask").variant(variant).implementation("native").metric(metric).unit("bytes")
                    .score(bytes).error(0.0).samples(1).cpus("").params(params).build();
        }

        /** The model saved in the results file, from which {@link CpumaskView} renders the report. */
        CpumaskModel model() {
            return new CpumaskModel(pinning, allowed.toList(), nrCpuIds, javaSettings, nativeBatches, load,
                    comparisons.stream().map(c -> new CpumaskModel.Row(c.implementation(), c.config().nrCpus(), c.config().online(),
                            c.config().mask().param(), c.layout() == null ? null : c.layout().param(), Figure.of(c.baseline()),
                            Figure.of(c.approach()), c.significant())).toList(),
                    splits.stream().map(sp -> new CpumaskModel.SplitRow(sp.config().nrCpus(), sp.config().online(),
                            sp.config().mask().param(), Figure.of(sp.loop()), Figure.of(sp.loopFirst()), Figure.of(sp.firstBut()),
                            sp.calls().significant(), sp.shape().significant())).toList(),
                    List.of(), null, splits.isEmpty() ? null : hsdis(), List.of(), quick, javaIterations, nativeLeftOut,
                    nativeUnavailable, codeSizeGaps, codeSizeBuilds);
        }

        /** Whether this run could show C2's machine code of the Java variants, in one line ({@link JavaMachineCode}). */
        static String hsdis() {
            return JavaMachineCode.plugin().map(p -> "C2's code of the Java variants (hsdis: " + p.getFileName() + ") is in the machine code "
                    + "section, beside the C twins': read it with the split above.").orElse(JavaMachineCode.noPluginReason()
                    + ": the split above is the evidence, not the machine code.");
        }
    }
}
