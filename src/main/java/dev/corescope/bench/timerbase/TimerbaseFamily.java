package dev.corescope.bench.timerbase;

import dev.corescope.bench.Instruction;
import dev.corescope.bench.BenchContext;
import dev.corescope.bench.BenchFamily;
import dev.corescope.bench.CleanBatches;
import dev.corescope.bench.FamilyRun;
import dev.corescope.bench.Figure;
import dev.corescope.bench.ForkPinning;
import dev.corescope.bench.JavaMachineCode;
import dev.corescope.bench.Jmh;
import dev.corescope.bench.MachineCodeReader;
import dev.corescope.bench.MachineLoad;
import dev.corescope.bench.Measured;
import dev.corescope.bench.MeasuredFunction;
import dev.corescope.bench.Undisturbed;
import dev.corescope.bench.UndisturbedIterations;
import dev.corescope.bench.timerbase.TimerbaseSampler.Kind;
import dev.corescope.report.Claim;
import dev.corescope.report.Histogram;
import dev.corescope.report.Result;
import dev.corescope.report.ResultsFile;
import dev.corescope.report.SeedVerdicts;
import dev.corescope.sys.ElfSymbolTable;
import dev.corescope.sys.NativeLibrary;
import dev.corescope.sys.Pinning;
import dev.corescope.text.TextDoc;
import org.openjdk.jmh.results.RunResult;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * {@code bench timerbase}: seed 001's {@code get_timer_cpu_base()} before and after, as the
 * seed's per-call latency histogram (with the clock's own histogram beside it) and as a per-call
 * figure (JMH in Java, timed batches in C).
 */
public final class TimerbaseFamily implements BenchFamily {

    static final String BEFORE = "before";
    static final String BEFORE_TWO_LOADS = "before_two_loads";
    static final String AFTER = "after";

    /** Tests: no fork, 3 iterations (JMH gives no error below 3); numbers mean nothing. */
    static final Jmh.Settings SMOKE = new Jmh.Settings(0, 1, 20, 3, 20);
    static final Jmh.Settings QUICK = new Jmh.Settings(1, 2, 100, 30, 10);
    static final Jmh.Settings FULL = new Jmh.Settings(3, 3, 200, 60, 10);
    /** Calls per timed C batch: a few hundred µs, long next to the clock's steps, short next to a time slice. */
    static final long BATCH_CALLS = 100_000;

    @Override
    public String name() {
        return "timerbase";
    }

    /** Seed's claims, as data: {@link TimerbaseClaims}. */
    @Override
    public List<Claim> claims() {
        return TimerbaseClaims.all();
    }

    @Override
    public String summary() {
        return "seed 001: get_timer_cpu_base() with two vs one per_cpu_ptr(), latency histogram and per-call cost, Java and C";
    }

    @Override
    public List<MeasuredFunction> measuredFunctions() {
        String model = TimerBases.class.getName() + "::";
        return List.of(
                MeasuredFunction.of(BEFORE, TimerbaseTwins.symbol(TimerbaseTwins.Variant.BEFORE), model + "lockTimerBaseBefore"),
                MeasuredFunction.of(BEFORE_TWO_LOADS, TimerbaseTwins.symbol(TimerbaseTwins.Variant.BEFORE_TWO_LOADS),
                        model + "lockTimerBaseBeforeTwoLoads"),
                MeasuredFunction.of(AFTER, TimerbaseTwins.symbol(TimerbaseTwins.Variant.AFTER), model + "lockTimerBaseAfter"));
    }

    /** C2 compiles the three Java lookups in the JMH benchmark's own loop. */
    @Override
    public Optional<JavaMachineCode.Run> javaCodeRun() {
        return Optional.of(new JavaMachineCode.Run(TimerbaseBenchmark.class,
                "before|before_two_loads|after", Map.of()));
    }

    /** The histograms beside the seed's ({@link #picture}), then each saved latency histogram as a bar chart. */
    @Override
    public List<String> pictures(ResultsFile file) {
        List<String> out = new ArrayList<>(picture(file).map(List::of).orElse(List.of()));
        out.addAll(TimerbaseHistograms.svgs(file));
        return out;
    }

    @Override
    public FamilyRun run(BenchContext ctx) throws Exception {
        Jmh.Settings settings = ctx.size().pick(SMOKE, QUICK, FULL);
        int samples = ctx.size().pick(4_000, 200_000, 1_000_000);
        int batches = ctx.size().pick(3, 15, 100);
        boolean nativeOk = TimerbaseTwins.unavailableReason().isEmpty();
        String cpus = ForkPinning.cpusField(ctx.cpus());
        Map<String, Object> params = Map.of("timers", TimerbaseBenchmark.TIMERS);

        String load = MachineLoad.describe().orElse(null);
        ctx.progress().start("timerbase", 4 + (nativeOk ? 2 : 0));
        List<UndisturbedIterations> iterations = new ArrayList<>();
        Measured javaBefore = runJmh(ctx, settings, BEFORE, cpus, params, iterations);
        Measured javaTwoLoads = runJmh(ctx, settings, BEFORE_TWO_LOADS, cpus, params, iterations);
        Measured javaAfter = runJmh(ctx, settings, AFTER, cpus, params, iterations);

        List<CleanBatches> outcomes = new ArrayList<>();
        List<String> codeSizeMissing = new ArrayList<>();
        List<Measurement.PerOp> perOp = new ArrayList<>();
        perOp.add(new Measurement.PerOp("java", javaBefore, javaTwoLoads, javaAfter));
        Map<String, Map<TimerbaseSampler.Kind, org.HdrHistogram.Histogram>> histograms = new LinkedHashMap<>();
        List<Measurement.CodeSize> sizes = new ArrayList<>();
        Map<Integer, Integer> firstTouchedOn;
        String cpusWithBases;
        try (TimerBases tb = TimerBases.create(ctx.os(), ctx.os().processAllowed(), TimerbaseBenchmark.TIMERS, TimerbaseBenchmark.SEED);
             Pinning p = ctx.cpus().map(c -> ctx.os().pin(c)).orElse(null)) {
            firstTouchedOn = tb.firstTouchedOn();
            cpusWithBases = tb.cpus().toList();
            histograms.put("java", TimerbaseSampler.java(tb, samples));
            ctx.progress().step("java histograms");
            if (nativeOk) {
                histograms.put("native", TimerbaseSampler.nativeC(tb, samples));
                ctx.progress().step("native histograms");
                perOp.add(runNative(tb, batches, cpus, params, outcomes));
                ctx.progress().step("native per call");
            }
        }
        List<TimerbaseModel.PathRow> paths = new ArrayList<>();
        if (nativeOk) {
            sizes.addAll(codeSizes(codeSizeMissing));
            paths.addAll(paths());
        }

        List<Result> results = new ArrayList<>();
        for (Measurement.PerOp o : perOp) {
            results.add(o.before().result());
            results.add(o.twoLoads().result());
            results.add(o.after().result());
        }
        for (Measurement.CodeSize s : sizes) results.add(s.result());
        results.addAll(Measurement.pathResults(paths));
        List<Histogram> contractHistograms = new ArrayList<>();
        histograms.forEach((impl, byKind) -> byKind.forEach((kind, h) -> contractHistograms.add(TimerbaseSampler.toReport(impl, kind, h))));

        Measurement report = new Measurement(ForkPinning.describe(ctx.os(), ctx.cpus()), cpusWithBases, firstTouchedOn,
                describeSettings(settings, ctx), samples, batches, perOp, histograms, contractHistograms, sizes, paths,
                Undisturbed.ofIterations(iterations), outcomes.isEmpty() ? null : Undisturbed.ofBatches(outcomes.subList(0, 1)),
                outcomes.isEmpty() ? null : Undisturbed.ofBatches(outcomes.subList(1, 2)),
                TimerbaseTwins.unavailableReason().orElse(null), codeSizeMissing.isEmpty() ? null : codeSizeMissing.getFirst(), load);
        TimerbaseModel model = report.model();
        return new FamilyRun(name(), results, model);
    }

    @Override
    public boolean draws() {
        return true;
    }

    @Override
    public Optional<?> model(ResultsFile file) {
        return TimerbaseView.model(file);
    }

    @Override
    public Optional<TextDoc> document(ResultsFile file) {
        return TimerbaseView.model(file).map(TimerbaseView::document);
    }

    /** The histograms beside the seed's, from the saved model. */
    @Override
    public Optional<String> picture(ResultsFile file) {
        return TimerbaseView.model(file).filter(m -> !m.columns().isEmpty()).map(TimerbaseView::svg);
    }

    private Measured runJmh(BenchContext ctx, Jmh.Settings settings, String method, String cpus, Map<String, Object> params,
                            List<UndisturbedIterations> iterations) throws Exception {
        // a row the time claim counts gets its forks in every mode: runs are the unit of its interval
        Jmh.Settings s = Claim.counts(claims(), name(), method, "java", "op", params) ? settings.forClaim(NATIVE_RUNS) : settings;
        Collection<RunResult> runs = ForkPinning.withProperty(ctx.cpus(), () -> Jmh.run(TimerbaseBenchmark.class, method,
                Map.of(), s, ForkPinning.jvmArgs(ctx.cpus())));
        UndisturbedIterations u = UndisturbedIterations.of(runs.iterator().next());
        iterations.add(u);
        ctx.progress().step("java " + method);
        return Measured.java(name(), method, u, cpus, params);
    }

    /**
     * C batches of {@value #BATCH_CALLS} calls, undisturbed ones kept, error over the batches:
     * before and after alternating, then before_two_loads and after alternating (the second
     * after is only there to interleave with).
     */
    private Measurement.PerOp runNative(TimerBases tb, int batches, String cpus, Map<String, Object> params,
                                            List<CleanBatches> outcomes) {
        // separately started runs (each its own warm-up and batches), so a row's interval takes the run as its unit
        List<CleanBatches> main = new ArrayList<>();
        List<CleanBatches> twoLoads = new ArrayList<>();
        int perRun = Math.max(3, batches / NATIVE_RUNS);
        for (int run = 0; run < NATIVE_RUNS; run++) {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment sink = arena.allocate(ValueLayout.JAVA_LONG);
                main.add(collect(tb, perRun, TimerbaseTwins.Variant.BEFORE, sink));
                twoLoads.add(collect(tb, perRun, TimerbaseTwins.Variant.BEFORE_TWO_LOADS, sink));
            }
        }
        outcomes.addAll(main);
        outcomes.addAll(twoLoads);
        boolean mainFellBack = main.stream().anyMatch(CleanBatches::fellBack);
        return new Measurement.PerOp("native",
                Measured.nativeRuns(name(), BEFORE, main.stream().map(CleanBatches::first).toList(), cpus, params, mainFellBack),
                Measured.nativeRuns(name(), BEFORE_TWO_LOADS, twoLoads.stream().map(CleanBatches::first).toList(), cpus, params,
                        twoLoads.stream().anyMatch(CleanBatches::fellBack)),
                Measured.nativeRuns(name(), AFTER, main.stream().map(CleanBatches::second).toList(), cpus, params, mainFellBack));
    }

    /** The C twin's separately started runs per row. */
    static final int NATIVE_RUNS = SeedVerdicts.RUNS_PER_SIDE;

    /** {@code first} and AFTER alternating, after three warm-up rounds. */
    private static CleanBatches collect(TimerBases tb, int batches, TimerbaseTwins.Variant first, MemorySegment sink) {
        CleanBatches.Batch batch = after -> TimerbaseTwins.batch(after ? TimerbaseTwins.Variant.AFTER : first,
                tb.perCpuOffset(), tb.timers(), tb.ntimers(), BATCH_CALLS, sink);
        for (int w = 0; w < 3; w++) {
            batch.run(false);
            batch.run(true);
        }
        return CleanBatches.collect(batches, BATCH_CALLS, batch);
    }

    /** Instructions per pass of each twin's retry loop up to the lock call, for a deferrable and a global timer. */
    static List<TimerbaseModel.PathRow> paths() {
        List<TimerbaseModel.PathRow> out = new ArrayList<>();
        Optional<Path> file = NativeLibrary.file();
        for (TimerbaseTwins.Variant v : List.of(TimerbaseTwins.Variant.BEFORE, TimerbaseTwins.Variant.BEFORE_TWO_LOADS,
                TimerbaseTwins.Variant.AFTER)) {
            List<Instruction> body = null;
            String why = file.isEmpty() ? "the C twins' library file is not known" : null;
            if (file.isPresent()) {
                try {
                    body = MachineCodeReader.instructions(file.get(), TimerbaseTwins.symbol(v));
                } catch (IOException e) {
                    why = e.getMessage();
                }
            }
            for (var path : DeferrablePath.PATHS.entrySet()) {
                DeferrablePath.Count c = body == null ? new DeferrablePath.Count(null, why) : DeferrablePath.count(body, path.getValue());
                out.add(new TimerbaseModel.PathRow(DeferrablePath.name(v), path.getKey(), DeferrablePath.describe(path.getValue()),
                        c.instructions(), c.reason()));
            }
        }
        return out;
    }

    private static List<Measurement.CodeSize> codeSizes(List<String> missing) {
        Optional<Path> file = NativeLibrary.file();
        if (file.isEmpty()) {
            missing.add("the C twins' library file is not known");
            return List.of();
        }
        try {
            ElfSymbolTable elf = ElfSymbolTable.read(file.get());
            List<Measurement.CodeSize> out = new ArrayList<>();
            for (TimerbaseTwins.Variant v : List.of(TimerbaseTwins.Variant.BEFORE, TimerbaseTwins.Variant.BEFORE_TWO_LOADS,
                    TimerbaseTwins.Variant.AFTER)) {
                Optional<ElfSymbolTable.Symbol> s = elf.function(TimerbaseTwins.symbol(v));
                if (s.isEmpty()) {
                    missing.add(TimerbaseTwins.symbol(v) + " is not a function in " + file.get().getFileName());
                    return List.of();
                }
                out.add(new Measurement.CodeSize(v.name().toLowerCase(Locale.ROOT), s.get().name(), s.get().size(), s.get().table()));
            }
            return out;
        } catch (IOException e) {
            missing.add(e.getMessage());
            return List.of();
        }
    }

    private static String describeSettings(Jmh.Settings s, BenchContext ctx) {
        return "JMH " + s.forks() + " fork" + (s.forks() == 1 ? "" : "s") + " x " + s.measurementIterations() + " x "
                + s.measurementMillis() + " ms (warm-up " + s.warmupIterations() + " x " + s.warmupMillis() + " ms) per variant"
                + (s.forClaim(NATIVE_RUNS) == s ? "" : "; rows the time claim counts: " + s.forClaim(NATIVE_RUNS).forks() + " forks x "
                + s.forClaim(NATIVE_RUNS).measurementIterations() + " x " + s.measurementMillis() + " ms")
                + ctx.size().note();
    }

    /**
     * What {@code bench timerbase} measured, live: the run's figures and histograms, and the
     * {@link #model()} that is saved (facts, not sentences: its view words the notes) and that
     * {@link TimerbaseView} renders (the machine code is printed by bench from the results file).
     */
    record Measurement(String pinning, String cpusWithBases, Map<Integer, Integer> firstTouchedOn, String javaSettings,
                           int samplesPerKind, int nativeBatches, List<PerOp> perOp,
                           Map<String, Map<Kind, org.HdrHistogram.Histogram>> histograms, List<Histogram> contractHistograms,
                           List<CodeSize> sizes, List<TimerbaseModel.PathRow> paths, Undisturbed javaIterations,
                           Undisturbed nativeMain, Undisturbed nativeTwoLoads, String nativeUnavailable, String codeSizeMissing,
                           String load) {

        /** before (as compiled), before with both table loads kept, and after, of one implementation. */
        record PerOp(String implementation, Measured before, Measured twoLoads, Measured after) {

            /** after against before, and after against before_two_loads. */
            List<Change> changes() {
                return List.of(new Change("after vs before", before, after), new Change("after vs before_two_loads", twoLoads, after));
            }
        }

        /** The difference between two rows, with Welch's test at the 99.9% level. */
        record Change(String label, Measured from, Measured to) {

            double difference() {
                return to.result().score() - from.result().score();
            }

            double percent() {
                return 100.0 * difference() / from.result().score();
            }

            boolean significant() {
                return from.stats().getN() > 1 && to.stats().getN() > 1 && from.stats().isDifferent(to.stats(), 0.999);
            }
        }

        /** One C function's size. */
        record CodeSize(String variant, String symbol, long bytes, String table) {

            Result result() {
                return Result.builder().benchmark("timerbase").variant(variant).implementation("native").metric("codeSize").unit("bytes")
                        .score(bytes).error(0.0).samples(1).cpus("").params(Map.of()).build();
            }
        }

        /** The counted paths as results rows: metric {@code pathInstructions}, unit {@code instructions}, params {@code path}, exact. */
        static List<Result> pathResults(List<TimerbaseModel.PathRow> paths) {
            List<Result> out = new ArrayList<>();
            for (TimerbaseModel.PathRow p : paths) {
                if (p.instructions() == null) continue;
                out.add(Result.builder().benchmark("timerbase").variant(p.variant()).implementation("native").metric("pathInstructions")
                        .unit("instructions").score(p.instructions()).error(0.0).samples(1).cpus("").params(Map.of("path", p.path())).build());
            }
            return out;
        }

        /** Per implementation, the three most common values of its empty column (what the clock costs here). */
        private Map<String, List<TimerbaseModel.ClockValue>> clockValues() {
            Map<String, List<TimerbaseModel.ClockValue>> out = new LinkedHashMap<>();
            histograms.forEach((impl, byKind) -> out.put(impl, TimerbaseSampler.commonValues(byKind.get(Kind.EMPTY), 3)));
            return out;
        }

        /** The model saved in the results file, from which {@link TimerbaseView} renders the report. */
        TimerbaseModel model() {
            return new TimerbaseModel(pinning, cpusWithBases, firstTouchedOn, javaSettings, samplesPerKind, nativeBatches, load,
                    perOp.stream().map(p -> new TimerbaseModel.PerOp(p.implementation(), Figure.of(p.before()), Figure.of(p.twoLoads()),
                            Figure.of(p.after()), p.changes().stream().map(c -> new TimerbaseModel.Change(c.label(), c.difference(),
                            c.percent(), c.significant())).toList())).toList(),
                    contractHistograms.stream().map(h -> new TimerbaseModel.Column(h, meanBelowTable(h))).toList(),
                    paths, List.of(), javaIterations, nativeMain, nativeTwoLoads, nativeUnavailable, codeSizeMissing, clockValues());
        }

        private Double meanBelowTable(Histogram h) {
            double mean = TimerbaseSampler.meanInTable(histograms.get(h.implementation()).get(Kind.valueOf(h.variant().toUpperCase(Locale.ROOT))));
            return Double.isNaN(mean) ? null : mean;
        }
    }
}
