package dev.corescope.bench.c2c;

import dev.corescope.bench.BenchContext;
import dev.corescope.bench.BenchFamily;
import dev.corescope.bench.FamilyRun;
import dev.corescope.bench.Jmh;
import dev.corescope.bench.MachineLoad;
import dev.corescope.bench.SampleStats;
import dev.corescope.cpumask.CpuMask;
import dev.corescope.report.Json;
import dev.corescope.report.Matrix;
import dev.corescope.report.Result;
import dev.corescope.report.ResultsFile;
import dev.corescope.topology.CpuPair;
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
 * {@code bench c2c}: core-to-core latency for every pair of usable CPUs, in Java
 * ({@link PingPong}) and in C ({@link C2cTwins}), with the 99.9% error of each pair's mean,
 * the matrix as text and as an SVG heatmap ({@link C2cHeatmap}), and a JMH cross-check
 * ({@link C2cBenchmark}) on one placement.
 *
 * <p>Pairs grow as n&sup2;, so the time is bounded by a sample budget per pair: a sample is
 * {@value #ROUND_TRIPS} round trips; full runs take {@value #FULL_SAMPLES} samples per ordered
 * pair, {@code --quick} {@value #QUICK_SAMPLES} (and only one direction per pair above 16 CPUs).
 * {@code bench c2c --format svg} prints the heatmap instead of the text.
 */
public final class C2cFamily implements BenchFamily {

    static final int ROUND_TRIPS = 1000;
    static final int FULL_SAMPLES = 300;
    static final int QUICK_SAMPLES = 50;
    static final int SMOKE_SAMPLES = 5;
    /** Above this many CPUs, {@code --quick} measures each pair in one direction only. */
    static final int QUICK_BOTH_DIRECTIONS_UP_TO = 16;

    @Override
    public String name() {
        return "c2c";
    }

    /** Machine code: the timed side of the C ping-pong. */
    @Override
    public List<dev.corescope.bench.MeasuredFunction> measuredFunctions() {
        return List.of(dev.corescope.bench.MeasuredFunction.of("ping_pong", "cs_c2c_ping", null));
    }

    @Override
    public String summary() {
        return "seed 002: core-to-core latency, one cache line ping-ponged between every pair of CPUs (Java and C)";
    }

    /** One ordered pair's figures: Java always, C when the twin is there. */
    record Pair(int from, int to, SampleStats java, SampleStats nativeTwin) {
    }

    @Override
    public FamilyRun run(BenchContext context) throws Exception {
        List<String> notes = new ArrayList<>();
        Topology topology = context.topology();
        CpuMask usable = context.cpus().map(c -> c.resize(topology.nbits()).and(topology.usable())).orElse(topology.usable());
        int[] cpus = usable.toArray();
        List<CpuLabels.Place> places = CpuLabels.of(topology, cpus);

        if (cpus.length < 2) {
            notes.add("not measured: a ping-pong needs 2 CPUs, " + (cpus.length == 0 ? "none is" : "only CPU " + usable.toList() + " is")
                    + " usable");
            C2cModel model = model(places, List.of(), null, notes);
            return new FamilyRun(name(), List.of(), List.of(), List.of(), null, notes, C2cView.text(model), model);
        }

        int samples = context.size().pick(SMOKE_SAMPLES, QUICK_SAMPLES, FULL_SAMPLES);
        boolean bothDirections = context.size() != dev.corescope.bench.RunSize.QUICK || cpus.length <= QUICK_BOTH_DIRECTIONS_UP_TO;
        List<int[]> order = new ArrayList<>();
        for (int i = 0; i < cpus.length; i++) {
            for (int j = 0; j < cpus.length; j++) {
                if (i != j && (bothDirections || i < j)) order.add(new int[]{cpus[i], cpus[j]});
            }
        }
        if (!bothDirections) notes.add("--quick with " + cpus.length + " CPUs: each pair measured in one direction (ping on the lower CPU)");

        MachineLoad.busyNote(Path.of("/"), topology.online().weight()).ifPresent(notes::add);
        Optional<String> noTwin = C2cTwins.unavailableReason();
        noTwin.ifPresent(r -> notes.add("C twin not run: " + r));

        context.progress().start("c2c", order.size() + 1);
        PingPong.warmUp(cpus[0], cpus[1]);
        // The twin's first run pays for creating threads and faulting pages; keep it out of the figures.
        if (noTwin.isEmpty()) C2cTwins.pingPong(cpus[0], cpus[1], ROUND_TRIPS, 10);
        context.progress().step("warm-up");

        List<Pair> pairs = new ArrayList<>();
        for (int[] p : order) {
            if (Thread.interrupted()) throw new InterruptedException("c2c stopped after " + pairs.size() + " pairs");
            // The first sample of each pair includes thread start-up and is dropped, as nviennot does.
            SampleStats java = SampleStats.of(drop1(PingPong.run(p[0], p[1], ROUND_TRIPS, samples + 1)));
            SampleStats c = noTwin.isEmpty() ? SampleStats.of(drop1(C2cTwins.pingPong(p[0], p[1], ROUND_TRIPS, samples + 1))) : null;
            pairs.add(new Pair(p[0], p[1], java, c));
            context.progress().step("CPU " + p[0] + " \u2192 " + p[1]);
        }

        List<Result> results = new ArrayList<>();
        for (Pair p : pairs) {
            results.add(result("ping_pong", "java", p, p.java(), Map.of()));
            if (p.nativeTwin() != null) results.add(result("ping_pong", "native", p, p.nativeTwin(), Map.of()));
        }
        Matrix matrix = matrix(cpus, pairs);

        jmhCrossCheck(topology, usable, context, notes).ifPresent(results::add);

        notes.add("One-way latency = the time of " + ROUND_TRIPS + " round trips / " + ROUND_TRIPS
                + " / 2, as in nviennot/core-to-core-latency; score = median of " + samples
                + " samples per pair (robust to a preempted thread), error = 99.9% confidence half-width of that median.");
        if (pairs.stream().allMatch(p -> p.nativeTwin() != null)) {
            SampleStats ratio = SampleStats.of(pairs.stream().mapToDouble(p -> p.java().median() / p.nativeTwin().median()).toArray());
            notes.add(String.format(java.util.Locale.ROOT,
                    "Java / C one-way latency over %d pairs: median %.2f\u00d7, from %.2f\u00d7 to %.2f\u00d7 (target: within 1.2\u00d7)",
                    pairs.size(), ratio.median(), ratio.min(),
                    pairs.stream().mapToDouble(p -> p.java().median() / p.nativeTwin().median()).max().orElse(Double.NaN)));
        }

        C2cModel model = model(places, pairs, results.stream().filter(r -> r.variant().equals("ping_pong_jmh")).findFirst().orElse(null), notes);
        return new FamilyRun(name(), results, List.of(), List.of(), matrix, notes, C2cView.text(model), model);
    }

    private static C2cModel model(List<CpuLabels.Place> places, List<Pair> pairs, Result jmh, List<String> notes) {
        return new C2cModel(places.stream().map(C2cModel.Cpu::of).toList(),
                pairs.stream().map(p -> new C2cModel.Pair(p.from(), p.to(), C2cModel.Stats.of(p.java()), C2cModel.Stats.of(p.nativeTwin()))).toList(),
                jmh, notes);
    }

    @Override
    public boolean draws() {
        return true;
    }

    @Override
    public Optional<String> text(ResultsFile file) {
        return C2cView.model(file).map(C2cView::text);
    }

    /** The heatmap: from the saved model (labelled by core, cache and package), else from a file's bare matrix. */
    @Override
    public Optional<String> picture(ResultsFile file) {
        Optional<C2cModel> m = C2cView.model(file);
        if (m.isPresent()) return m.get().pairs().isEmpty() ? Optional.empty() : Optional.of(C2cView.svg(m.get()));
        return Optional.ofNullable(file.matrix()).map(C2cView::svg);
    }

    private static double[] drop1(double[] samples) {
        return Arrays.copyOfRange(samples, 1, samples.length);
    }

    private static Result result(String variant, String implementation, Pair p, SampleStats s, Map<String, Object> extra) {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("from", p.from());
        params.put("to", p.to());
        params.putAll(extra);
        return Result.builder().benchmark("c2c").variant(variant).implementation(implementation).metric("one_way").unit("ns")
                .score(s.median()).error(Double.isNaN(s.error()) ? null : s.error()).samples(s.samples()).cpus(pairList(p.from(), p.to())).params(params).build();
    }

    private static String pairList(int a, int b) {
        return CpuMask.of(Math.max(a, b) + 1, a, b).toList();
    }

    static Matrix matrix(int[] cpus, List<Pair> pairs) {
        int n = cpus.length;
        Double[][] values = new Double[n][n];
        Double[][] errors = new Double[n][n];
        for (Pair p : pairs) {
            int i = indexOf(cpus, p.from());
            int j = indexOf(cpus, p.to());
            values[i][j] = p.java().median();
            errors[i][j] = Double.isNaN(p.java().error()) ? null : p.java().error();
        }
        return new Matrix(cpus.clone(), "ns", values, errors);
    }

    private static int indexOf(int[] cpus, int cpu) {
        for (int i = 0; i < cpus.length; i++) if (cpus[i] == cpu) return i;
        throw new IllegalArgumentException("CPU " + cpu + " not in the matrix");
    }

    /** The JMH figure for the nearest placement the machine has, as {@code ping_pong_jmh}. */
    private static Optional<Result> jmhCrossCheck(Topology topology, CpuMask usable, BenchContext context, List<String> notes)
            throws Exception {
        Optional<CpuPair> pair = Placements.of(topology, usable).stream().findFirst();
        if (pair.isEmpty()) return Optional.empty();
        CpuPair p = pair.get();
        var found = Jmh.run(C2cBenchmark.class, "pingpong", Map.of(
                        "placement", new String[]{p.name()}, "cpus", new String[]{usable.toList()}),
                context.jmhSettings(), null);
        if (found.isEmpty()) return Optional.empty();
        RunResult r = found.iterator().next();
        org.openjdk.jmh.results.Result ping = r.getSecondaryResults().get("ping");
        if (ping == null) return Optional.empty();
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("from", p.from());
        params.put("to", p.to());
        params.put("placement", p.name());
        double error = ping.getScoreError();
        notes.add("ping_pong_jmh: the same ping-pong as a JMH @Group on placement " + p.name()
                + " (" + p.description() + "); a JMH operation is a round trip, halved here");
        return Optional.of(Result.builder().benchmark("c2c").variant("ping_pong_jmh").implementation("java").metric("one_way").unit("ns")
                .score(ping.getScore() / 2).error(Double.isNaN(error) ? null : error / 2).samples(ping.getStatistics().getN()).cpus(pairList(p.from(), p.to())).params(params).runs(dev.corescope.bench.JmhRuns.ofSecondary(r, "ping", x -> x / 2)).build());
    }
}
