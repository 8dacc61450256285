package dev.corescope.bench.timerbase;

import dev.corescope.bench.BenchContext;
import dev.corescope.bench.CleanBatches;
import dev.corescope.bench.FamilyRun;
import dev.corescope.bench.Figure;
import dev.corescope.bench.ForkPinning;
import dev.corescope.bench.Instruction;
import dev.corescope.bench.JavaMachineCode;
import dev.corescope.bench.JavaRows;
import dev.corescope.bench.Jmh;
import dev.corescope.bench.MachineCodeReader;
import dev.corescope.bench.Measured;
import dev.corescope.bench.MeasuredFunction;
import dev.corescope.bench.RunSetup;
import dev.corescope.bench.ModelFamily;
import dev.corescope.bench.Undisturbed;
import dev.corescope.bench.timerbase.TimerbaseSampler.Kind;
import dev.corescope.report.Claim;
import dev.corescope.report.Result;
import dev.corescope.report.ResultsFile;
import dev.corescope.sys.tool.ElfSymbolTable;
import dev.corescope.sys.tool.NativeLibrary;
import dev.corescope.sys.Pinning;
import dev.corescope.text.TextDoc;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
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
public final class TimerbaseFamily implements ModelFamily<TimerbaseModel> {

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
    public Optional<JavaMachineCode.JmhSelection> javaCodeBenchmarks() {
        return Optional.of(new JavaMachineCode.JmhSelection(TimerbaseBenchmark.class,
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
        Jmh.Settings jmh = ctx.size().pick(SMOKE, QUICK, FULL);
        RunSetup setup = RunSetup.of(ctx, jmh);
        JavaRows java = new JavaRows(this, ctx, TimerbaseBenchmark.class, jmh);
        int samples = ctx.size().pick(4_000, 200_000, 1_000_000);
        int batches = ctx.size().pick(3, 15, 100);
        boolean nativeOk = TimerbaseTwins.unavailableReason().isEmpty();
        Map<String, Object> params = Map.of("timers", TimerbaseBenchmark.TIMERS);

        ctx.progress().start("timerbase", 4 + (nativeOk ? 2 : 0));
        List<Measured[]> perOp = new ArrayList<>();
        perOp.add(new Measured[]{java.measure(BEFORE, Map.of(), params, "java " + BEFORE),
                java.measure(BEFORE_TWO_LOADS, Map.of(), params, "java " + BEFORE_TWO_LOADS),
                java.measure(AFTER, Map.of(), params, "java " + AFTER)});

        List<CleanBatches> outcomes = new ArrayList<>();
        Map<String, Map<Kind, Histogram>> histograms = new LinkedHashMap<>();
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
                perOp.add(runNative(tb, batches, ctx.size().twinRuns(), ForkPinning.cpusField(ctx.cpus()), params, outcomes));
                ctx.progress().step("native per call");
            }
        }
        List<String> codeSizeMissing = new ArrayList<>();
        List<Result> sizes = nativeOk ? codeSizes(codeSizeMissing) : List.of();
        List<TimerbaseModel.PathRow> paths = nativeOk ? paths() : List.of();

        List<Result> results = new ArrayList<>();
        for (Measured[] o : perOp) for (Measured m : o) results.add(m.result());
        results.addAll(sizes);
        results.addAll(pathResults(paths));
        List<TimerbaseModel.Column> columns = new ArrayList<>();
        Map<String, List<TimerbaseModel.ClockValue>> clockValues = new LinkedHashMap<>();
        histograms.forEach((impl, byKind) -> {
            byKind.forEach((kind, h) -> columns.add(TimerbaseModel.Column.of(impl, kind, h)));
            clockValues.put(impl, TimerbaseSampler.commonValues(byKind.get(Kind.EMPTY), 3));
        });

        TimerbaseModel model = new TimerbaseModel(null, cpusWithBases, firstTouchedOn, null, samples, batches, null,
                perOp.stream().map(TimerbaseFamily::perOp).toList(), columns,
                paths, List.of(), java.undisturbed(), outcomes.isEmpty() ? null : Undisturbed.ofBatches(outcomes.subList(0, 1)),
                outcomes.isEmpty() ? null : Undisturbed.ofBatches(outcomes.subList(1, 2)), TimerbaseTwins.unavailableReason().orElse(null),
                codeSizeMissing.isEmpty() ? null : codeSizeMissing.getFirst(), clockValues, setup);
        return new FamilyRun(name(), results, model);
    }

    /** before, before_two_loads and after of one implementation, and after against each before. */
    private static TimerbaseModel.PerOp perOp(Measured[] m) {
        return new TimerbaseModel.PerOp(m[0].result().implementation(), Figure.of(m[0]), Figure.of(m[1]), Figure.of(m[2]),
                List.of(change("after vs before", m[0], m[2]), change("after vs before_two_loads", m[1], m[2])));
    }

    private static TimerbaseModel.Change change(String label, Measured from, Measured to) {
        double difference = to.result().score() - from.result().score();
        return new TimerbaseModel.Change(label, difference, 100.0 * difference / from.result().score(), from.differs(to));
    }

    @Override
    public boolean draws() {
        return true;
    }

    @Override
    public Class<TimerbaseModel> modelType() {
        return TimerbaseModel.class;
    }

    @Override
    public TextDoc document(TimerbaseModel model, ResultsFile file) {
        return TimerbaseView.document(model);
    }

    /** The histograms beside the seed's, from the saved model. */
    @Override
    public Optional<String> picture(ResultsFile file) {
        return model(file).filter(m -> !m.columns().isEmpty()).map(TimerbaseView::svg);
    }

    /**
     * C batches of {@value #BATCH_CALLS} calls, undisturbed ones kept, error over the batches:
     * before and after alternating, then before_two_loads and after alternating (the second
     * after is only there to interleave with).
     */
    private Measured[] runNative(TimerBases tb, int batches, int runs, String cpus, Map<String, Object> params, List<CleanBatches> outcomes) {
        // separately started runs (each its own warm-up and batches), so a row's interval takes the run as its unit
        List<CleanBatches> main = new ArrayList<>();
        List<CleanBatches> twoLoads = new ArrayList<>();
        int perRun = Math.max(3, batches / runs);
        for (int run = 0; run < runs; run++) {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment sink = arena.allocate(ValueLayout.JAVA_LONG);
                main.add(collect(tb, perRun, TimerbaseTwins.Variant.BEFORE, sink));
                twoLoads.add(collect(tb, perRun, TimerbaseTwins.Variant.BEFORE_TWO_LOADS, sink));
            }
        }
        outcomes.addAll(main);
        outcomes.addAll(twoLoads);
        boolean mainFellBack = main.stream().anyMatch(CleanBatches::fellBack);
        return new Measured[]{
                Measured.nativeRuns(name(), BEFORE, main.stream().map(CleanBatches::first).toList(), cpus, params, mainFellBack),
                Measured.nativeRuns(name(), BEFORE_TWO_LOADS, twoLoads.stream().map(CleanBatches::first).toList(), cpus, params,
                        twoLoads.stream().anyMatch(CleanBatches::fellBack)),
                Measured.nativeRuns(name(), AFTER, main.stream().map(CleanBatches::second).toList(), cpus, params, mainFellBack)};
    }

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

    /** Each C twin's size as a results row (metric {@code codeSize}, exact), or why not in {@code missing}. */
    private static List<Result> codeSizes(List<String> missing) {
        Optional<Path> file = NativeLibrary.file();
        if (file.isEmpty()) {
            missing.add("the C twins' library file is not known");
            return List.of();
        }
        try {
            ElfSymbolTable elf = ElfSymbolTable.read(file.get());
            List<Result> out = new ArrayList<>();
            for (TimerbaseTwins.Variant v : List.of(TimerbaseTwins.Variant.BEFORE, TimerbaseTwins.Variant.BEFORE_TWO_LOADS,
                    TimerbaseTwins.Variant.AFTER)) {
                Optional<ElfSymbolTable.Symbol> s = elf.function(TimerbaseTwins.symbol(v));
                if (s.isEmpty()) {
                    missing.add(TimerbaseTwins.symbol(v) + " is not a function in " + file.get().getFileName());
                    return List.of();
                }
                out.add(Result.builder().benchmark("timerbase").variant(v.name().toLowerCase(Locale.ROOT)).implementation("native")
                        .metric("codeSize").unit("bytes").score(s.get().size()).error(0.0).samples(1).cpus("").params(Map.of()).build());
            }
            return out;
        } catch (IOException e) {
            missing.add(e.getMessage());
            return List.of();
        }
    }

    /** The counted paths as results rows: metric {@code pathInstructions}, unit {@code instructions}, params {@code path}, exact. */
    static List<Result> pathResults(List<TimerbaseModel.PathRow> paths) {
        return paths.stream().filter(p -> p.instructions() != null).map(p -> Result.builder().benchmark("timerbase").variant(p.variant())
                .implementation("native").metric("pathInstructions").unit("instructions").score(p.instructions()).error(0.0).samples(1)
                .cpus("").params(Map.of("path", p.path())).build()).toList();
    }
}
