package dev.corescope.bench.cpumask;

import dev.corescope.bench.BenchContext;
import dev.corescope.bench.CleanBatches;
import dev.corescope.bench.FamilyRun;
import dev.corescope.bench.Figure;
import dev.corescope.bench.ForkPinning;
import dev.corescope.bench.JavaMachineCode;
import dev.corescope.bench.JavaRows;
import dev.corescope.bench.Jmh;
import dev.corescope.bench.Measured;
import dev.corescope.bench.MeasuredFunction;
import dev.corescope.bench.ModelFamily;
import dev.corescope.bench.RunSetup;
import dev.corescope.bench.RunSize;
import dev.corescope.bench.Undisturbed;
import dev.corescope.cpumask.CpuMask;
import dev.corescope.report.Claim;
import dev.corescope.report.NoiseAllowance;
import dev.corescope.report.Result;
import dev.corescope.report.ResultsFile;
import dev.corescope.text.TextDoc;
import dev.corescope.sys.Pinning;
import dev.corescope.sys.internal.Os;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code bench cpumask}: seed 000 on this machine's CPU mask, in Java (JMH,
 * {@link CpumaskBenchmark}) and in C ({@link CpumaskTwins}, at two code layouts), plus the code
 * size of kernel-like callers before and after the patch, as the seed's bloat-o-meter table
 * ({@link KernelCallers}).
 */
public final class CpumaskFamily implements ModelFamily<CpumaskModel> {

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
        String bench = CpumaskBenchmark.class.getName() + "::";
        out.add(MeasuredFunction.of("any_but_loop", null, bench + "anyButLoop"));
        out.add(MeasuredFunction.of("first_but", null, CpuMask.class.getName() + "::firstBut"));
        out.add(MeasuredFunction.of("any_but_loop_first", null, bench + "anyButLoopFirst"));
        return out;
    }

    /**
     * C2 compiles the Java variants in the JMH benchmark at the seed's condition (16 CPUs online,
     * mask online) with NR_CPUS=64: one method serves every mask size, so one compilation each.
     */
    @Override
    public Optional<JavaMachineCode.JmhSelection> javaCodeBenchmarks() {
        return Optional.of(new JavaMachineCode.JmhSelection(CpumaskBenchmark.class,
                "any_but_loop|first_but|any_but_loop_first", Map.of("nrCpus", "64", "online", "16", "mask", "online")));
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
        Jmh.Settings jmh = ctx.size().pick(SMOKE, QUICK, FULL);
        RunSetup setup = RunSetup.of(ctx, jmh);
        JavaRows java = new JavaRows(this, ctx, CpumaskBenchmark.class, jmh);
        List<CpumaskConfig> javaPlan = ctx.size().pick(CpumaskConfig.smoke(), CpumaskConfig.quick(), CpumaskConfig.all());
        List<CpumaskConfig> nativePlan = ctx.size().pick(CpumaskConfig.smoke(), CpumaskConfig.all(), CpumaskConfig.all());
        int batches = ctx.size().pick(3, 15, 100);
        boolean nativeOk = CpumaskTwins.unavailableReason().isEmpty();
        CpuMask allowed = ctx.os().allowed();
        int nrCpuIds = ctx.os().nrCpuIds();

        List<CpumaskConfig> splitPlan = splitPlan(ctx, javaPlan);
        int layouts = CpumaskTwins.Layout.values().length;
        ctx.progress().start("cpumask", javaPlan.size() * 2 + splitPlan.size() + (nativeOk ? nativePlan.size() * layouts + 1 : 0));
        List<CpumaskModel.Row> rows = new ArrayList<>();
        List<CpumaskModel.SplitRow> splits = new ArrayList<>();
        for (CpumaskConfig c : javaPlan) {
            Measured loop = java.measure(BASELINE, c.jmhParams(), c.params(), "java " + BASELINE + " " + c);
            Measured first = java.measure(APPROACH, c.jmhParams(), c.params(), "java " + APPROACH + " " + c);
            rows.add(row(c, "java", null, loop, first));
            if (splitPlan.contains(c)) {
                Measured loopFirst = java.measure(LOOP_FIRST, c.jmhParams(), c.params(), "java " + LOOP_FIRST + " " + c);
                splits.add(new CpumaskModel.SplitRow(c.nrCpus(), c.online(), c.mask().param(), Figure.of(loop), Figure.of(loopFirst),
                        Figure.of(first), loop.differs(loopFirst), loopFirst.differs(first)));
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
                    rows.add(runNative(ctx.os(), ctx.cpus(), c, layout, allowed, nrCpuIds, batches, ctx.size().twinRuns(), outcomes));
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
        for (CpumaskModel.Row r : rows) results.addAll(List.of(r.baseline().result(), r.approach().result()));
        for (CpumaskModel.SplitRow sp : splits) results.add(sp.loopFirst().result());
        results.addAll(results(callers));
        CpumaskModel model = new CpumaskModel(null, allowed.toList(), nrCpuIds, null, batches, null, rows, splits, List.of(), null,
                splits.isEmpty() ? null : hsdis(), List.of(), ctx.size() == RunSize.QUICK, java.undisturbed(), nativeLeftOut,
                CpumaskTwins.unavailableReason().orElse(null), codeSizeGaps, codeSizeBuilds, setup);
        return new FamilyRun(name(), results, model);
    }

    /** The two variants of one configuration and implementation as a model row; {@code layout} null for Java. */
    private static CpumaskModel.Row row(CpumaskConfig c, String implementation, CpumaskTwins.Layout layout, Measured baseline,
                                        Measured approach) {
        return new CpumaskModel.Row(implementation, c.nrCpus(), c.online(), c.mask().param(), layout == null ? null : layout.param(),
                Figure.of(baseline), Figure.of(approach), baseline.differs(approach));
    }

    @Override
    public Class<CpumaskModel> modelType() {
        return CpumaskModel.class;
    }

    @Override
    public TextDoc document(CpumaskModel model, ResultsFile file) {
        return CpumaskView.document(model, file.results());
    }

    /**
     * The rows where {@value #LOOP_FIRST} runs too: every row in a full run; in {@code --quick}
     * the seed's (16 CPUs online, the mask as the kernel has it); one in a smoke test.
     */
    static List<CpumaskConfig> splitPlan(BenchContext ctx, List<CpumaskConfig> javaPlan) {
        return ctx.size().pick(javaPlan.subList(0, 1),
                javaPlan.stream().filter(CpumaskConfig::seedCondition).toList(), javaPlan);
    }

    /**
     * The C twin: batches of {@value #SEED_CALLS} calls, the two variants alternating, keeping
     * the batches the thread ran through undisturbed ({@link CleanBatches}); per-op = batch
     * time / calls; the error is JMH's (Student's t, 99.9%) over the kept batches.
     */
    private CpumaskModel.Row runNative(Os os, Optional<CpuMask> pin, CpumaskConfig c, CpumaskTwins.Layout layout, CpuMask allowed,
                                       int nrCpuIds, int batches, int runCount, List<CleanBatches> outcomes) {
        String cpus = ForkPinning.cpusField(pin);
        CpumaskInputs in = CpumaskInputs.of(c.nrCpus(), c.mask(), c.online(), allowed, nrCpuIds);
        // separately started runs (each its own allocation, warm-up and batches), so a row's interval takes the run as its unit
        List<CleanBatches> runs = new ArrayList<>();
        try (Pinning p = pin.map(os::pin).orElse(null)) {
            for (int run = 0; run < runCount; run++) {
                try (CpumaskTwins.Batch batch = new CpumaskTwins.Batch(c.nrCpus(), in.mask(), in.offset(), in.range(), in.nrCpuIds(),
                        CpumaskInputs.SEED, layout)) {
                    for (int w = 0; w < 3; w++) {
                        batch.time(false, SEED_CALLS);
                        batch.time(true, SEED_CALLS);
                    }
                    runs.add(CleanBatches.collect(Math.max(3, batches / runCount), SEED_CALLS, firstBut -> batch.time(firstBut, SEED_CALLS)));
                }
            }
        }
        outcomes.addAll(runs);
        boolean fellBack = runs.stream().anyMatch(CleanBatches::fellBack);
        return row(c, "native", layout,
                Measured.nativeRuns(name(), BASELINE, runs.stream().map(CleanBatches::first).toList(), cpus, c.params(layout), fellBack),
                Measured.nativeRuns(name(), APPROACH, runs.stream().map(CleanBatches::second).toList(), cpus, c.params(layout), fellBack));
    }

    /** The seed's effect: (after - before) / before, in percent. */
    static final double SEED_EFFECT_PCT = 100.0 * (SEED_AFTER_NS - SEED_BEFORE_NS) / SEED_BEFORE_NS;
    /** The full mode's target: each error under this share of its score. */
    static final double TARGET_ERROR_PCT = 2.0;
    /** The metric of a code-size row. */
    static final String CODE_SIZE = "code-size";

    /**
     * The callers' sizes as results rows, one per function, NR_CPUS and build (metric {@value #CODE_SIZE}, unit
     * {@code bytes}, exact: error 0); old = {@value #BASELINE}, new = {@value #APPROACH}. Totals are not rows.
     */
    static List<Result> results(List<CpumaskModel.CallerSize> callers) {
        List<Result> out = new ArrayList<>();
        for (CpumaskModel.CallerSize c : callers) {
            Map<String, Object> params = new LinkedHashMap<>();
            params.put("nrCpus", c.nrCpus());
            params.put("build", c.build());
            params.put("function", c.function());
            out.add(size(BASELINE, c.oldBytes(), params));
            out.add(size(APPROACH, c.newBytes(), params));
        }
        return out;
    }

    private static Result size(String variant, long bytes, Map<String, Object> params) {
        return Result.builder().benchmark("cpumask").variant(variant).implementation("native").metric(CODE_SIZE).unit("bytes")
                .score(bytes).error(0.0).samples(1).cpus("").params(params).build();
    }

    /** Whether this run could show C2's machine code of the Java variants, in one line ({@link JavaMachineCode}). */
    static String hsdis() {
        return JavaMachineCode.plugin().map(p -> "C2's code of the Java variants (hsdis: " + p.getFileName() + ") is in the machine code "
                + "section, beside the C twins': read it with the split above.").orElse(JavaMachineCode.noPluginReason()
                + ": the split above is the evidence, not the machine code.");
    }
}
