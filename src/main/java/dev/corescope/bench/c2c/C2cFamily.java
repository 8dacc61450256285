package dev.corescope.bench.c2c;

import dev.corescope.bench.BenchContext;
import dev.corescope.bench.BenchFamily;
import dev.corescope.bench.FamilyRun;
import dev.corescope.bench.Jmh;
import dev.corescope.bench.ForkFigures;
import dev.corescope.bench.MachineLoad;
import dev.corescope.bench.MeasuredFunction;
import dev.corescope.bench.ModelFamily;
import dev.corescope.bench.RunSize;
import dev.corescope.cpumask.CpuMask;
import dev.corescope.report.MachineSummary;
import dev.corescope.report.Result;
import dev.corescope.report.ResultsFile;
import dev.corescope.text.TextDoc;
import dev.corescope.topology.CpuPair;
import dev.corescope.topology.Placement;
import dev.corescope.topology.Placements;
import dev.corescope.topology.Topology;
import org.openjdk.jmh.results.RunResult;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code bench c2c}: core-to-core latency by relation (every class of pair the CPUs offer, a
 * few representatives each, {@link C2cPlan}) or, with {@code --full}, for every pair, in Java
 * ({@link PingPong}) and in C ({@link C2cTwins}), with the 99.9% error of each pair's median,
 * the matrix as text and as an SVG heatmap ({@link C2cHeatmap}), and a JMH cross-check
 * ({@link C2cBenchmark}) on one placement.
 *
 * <p>A sample is {@value #ROUND_TRIPS} round trips; a pair takes samples until its interval is
 * tight ({@link C2cPlan.Sampling}), in one direction where its class's first pair agreed both
 * ways. {@code bench c2c --plan} says what a run measures and how long it takes, before it starts.
 * {@code bench c2c --format svg} prints the heatmap instead of the text.
 */
public final class C2cFamily implements ModelFamily<C2cModel> {

    static final int ROUND_TRIPS = C2cPlan.ROUND_TRIPS;

    @Override
    public String name() {
        return "c2c";
    }

    /** Machine code: the timed side of the C ping-pong. */
    @Override
    public List<MeasuredFunction> measuredFunctions() {
        return List.of(MeasuredFunction.of("ping_pong", "cs_c2c_ping", null));
    }

    @Override
    public String summary() {
        return "seed 002: core-to-core latency, one cache line ping-ponged between every pair of CPUs (Java and C)";
    }

    private final boolean full;
    /** A test's samples; null: the live ping-pongs, built from the run's {@code ctx.os()}. */
    private final C2cSweep.Sampler sampler;

    /** By relation: every pair class with a few representatives, in Java and C. */
    public C2cFamily() {
        this(false);
    }

    /** {@code full}: also every other pair of the matrix once, in Java ({@code bench c2c --full}). */
    public C2cFamily(boolean full) {
        this(full, null);
    }

    C2cFamily(boolean full, C2cSweep.Sampler sampler) {
        this.full = full;
        this.sampler = sampler;
    }

    @Override
    public Optional<Plan> plan() {
        return Optional.of(new Plan() {
            @Override
            public String text(Topology topology, CpuMask cpus, RunSize size, boolean full, String source) {
                return new C2cFamily(full).plan(topology, cpus, size).text(source);
            }

            @Override
            public BenchFamily full() {
                return new C2cFamily(true);
            }
        });
    }

    /** What a run on {@code cpus} of {@code topology} will measure ({@code bench c2c --plan}). */
    public C2cPlan plan(Topology topology, CpuMask cpus, RunSize size) {
        CpuMask usable = cpus.resize(topology.nbits()).and(topology.online());  // named CPUs: the CLI checked them
        return C2cPlan.of(new PairClasses(topology), usable.toArray(), full, size, C2cTwins.unavailableReason().isEmpty());
    }

    @Override
    public FamilyRun run(BenchContext context) throws Exception {
        Topology topology = context.topology();
        CpuMask usable = context.cpus().map(c -> c.resize(topology.nbits()).and(topology.online())).orElse(topology.usable());
        int[] cpus = usable.toArray();
        List<C2cModel.Cpu> places = Arrays.stream(cpus).mapToObj(c -> C2cModel.Cpu.of(topology, c)).toList();

        if (cpus.length < 2) {
            return new FamilyRun(name(), List.of(), new C2cModel(places, List.of(), null,
                    new C2cModel.Facts(usable.toList(), null, topology.online().weight(), null, null, List.of())));
        }

        Double loadOneMinute = MachineLoad.oneMinute(Path.of("/")).orElse(null);
        boolean live = sampler == null;
        C2cSweep.Sampler samples = live ? C2cSweep.live(context.os()) : sampler;
        Optional<String> noTwin = live ? C2cTwins.unavailableReason() : Optional.empty();
        PairClasses index = new PairClasses(topology);
        C2cPlan plan = C2cPlan.of(index, cpus, full, context.size(), noTwin.isEmpty());

        context.progress().start("c2c", (int) Math.min(Integer.MAX_VALUE, plan.pairsAtLeast() + 1));
        if (live) {
            PingPong.warmUp(context.os(), cpus[0], cpus[1]);
            // The twin's first run pays for creating threads and faulting pages; keep it out of the figures.
            if (noTwin.isEmpty()) C2cTwins.pingPong(cpus[0], cpus[1], ROUND_TRIPS, 10);
        }
        context.progress().step("warm-up");

        C2cSweep sweep = new C2cSweep(plan, index, samples, context.progress());
        List<C2cModel.Pair> pairs = sweep.run().stream().map(m -> new C2cModel.Pair(m.from(), m.to(), C2cModel.Stats.of(m.java()),
                C2cModel.Stats.of(m.nativeTwin()), m.relation().key())).toList();
        List<String> bothDirections = sweep.asymmetric.stream().sorted().map(Placement::key).toList();

        List<Result> results = new ArrayList<>();
        for (C2cModel.Pair p : pairs) {
            results.add(result("java", p, p.java()));
            if (p.nativeTwin() != null) results.add(result("native", p, p.nativeTwin()));
        }
        if (live) jmhCrossCheck(topology, usable, context).ifPresent(results::add);

        C2cModel.Facts facts = new C2cModel.Facts(usable.toList(), loadOneMinute, topology.online().weight(), noTwin.orElse(null),
                plan.facts(), bothDirections);
        return new FamilyRun(name(), results, new C2cModel(places, pairs,
                results.stream().filter(r -> r.variant().equals("ping_pong_jmh")).findFirst().orElse(null), facts));
    }

    @Override
    public boolean draws() {
        return true;
    }

    @Override
    public List<String> notMeasured(ResultsFile file) {
        return model(file).map(C2cView::notMeasured).orElse(List.of());
    }

    @Override
    public Optional<TextDoc> brief(ResultsFile file) {
        return model(file).map(C2cView::brief).filter(d -> !d.isEmpty());
    }

    @Override
    public List<MachineSummary.RelationLatency> relationLatencies(ResultsFile file) {
        return model(file).map(C2cView::relationLatencies).orElse(List.of());
    }

    @Override
    public Class<C2cModel> modelType() {
        return C2cModel.class;
    }

    @Override
    public TextDoc document(C2cModel model, ResultsFile file) {
        return C2cView.document(model);
    }

    /** The heatmap: from the saved model (labelled by core, cache and package), else from a file's bare matrix. */
    @Override
    public Optional<String> picture(ResultsFile file) {
        Optional<C2cModel> m = model(file);
        if (m.isPresent()) return m.get().pairs().isEmpty() ? Optional.empty() : Optional.of(C2cView.svg(m.get()));
        return Optional.ofNullable(file.matrix()).map(C2cView::svg);
    }

    private static Result result(String implementation, C2cModel.Pair p, C2cModel.Stats s) {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("from", p.from());
        params.put("to", p.to());
        return Result.builder().benchmark("c2c").variant("ping_pong").implementation(implementation).metric("one_way").unit("ns")
                .score(s.median()).error(s.error()).samples(s.samples()).cpus(pairList(p.from(), p.to())).params(params).build();
    }

    private static String pairList(int a, int b) {
        return CpuMask.of(Math.max(a, b) + 1, a, b).toList();
    }

    /** The JMH figure for the nearest placement the machine has, as {@code ping_pong_jmh}. */
    private static Optional<Result> jmhCrossCheck(Topology topology, CpuMask usable, BenchContext context) throws Exception {
        Optional<CpuPair> pair = Placements.of(topology, usable).stream().findFirst();
        if (pair.isEmpty()) return Optional.empty();
        CpuPair p = pair.get();
        // the pair travels as CPUs: the fork pins to them, it does not look the placement up again
        var found = Jmh.run(C2cBenchmark.class, "pingpong", Map.of("pinned", new String[]{C2cBenchmark.pinned(p)}),
                context.jmhSettings(), null);
        if (found.isEmpty()) return Optional.empty();
        RunResult r = found.iterator().next();
        var ping = r.getSecondaryResults().get("ping");
        if (ping == null) return Optional.empty();
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("from", p.from());
        params.put("to", p.to());
        params.put("placement", p.name());
        double error = ping.getScoreError();
        return Optional.of(Result.builder().benchmark("c2c").variant("ping_pong_jmh").implementation("java").metric("one_way").unit("ns")
                .score(ping.getScore() / 2).error(Double.isNaN(error) ? null : error / 2).samples(ping.getStatistics().getN()).cpus(pairList(p.from(), p.to())).params(params).runs(ForkFigures.ofSecondary(r, "ping", x -> x / 2)).build());
    }
}
