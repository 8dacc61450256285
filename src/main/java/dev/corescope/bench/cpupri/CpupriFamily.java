package dev.corescope.bench.cpupri;

import dev.corescope.bench.BenchContext;
import dev.corescope.bench.BenchFamily;
import dev.corescope.bench.FamilyRun;
import dev.corescope.bench.JavaMachineCode;
import dev.corescope.bench.Jmh;
import dev.corescope.bench.ForkFigures;
import dev.corescope.bench.MachineLoad;
import dev.corescope.bench.MeasuredFunction;
import dev.corescope.bench.RunSize;
import dev.corescope.bench.cpupri.CpupriLayouts.Config;
import dev.corescope.bench.cpupri.CpupriLayouts.Kind;
import dev.corescope.cpumask.CpuMask;
import dev.corescope.report.Claim;
import dev.corescope.report.Layout;
import dev.corescope.report.NoiseAllowance;
import dev.corescope.report.Result;
import dev.corescope.report.ResultsFile;
import dev.corescope.report.SeedVerdicts;
import dev.corescope.text.TextDoc;
import dev.corescope.topology.CpuPair;
import dev.corescope.topology.Placements;
import dev.corescope.topology.Cache;
import dev.corescope.topology.Topology;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;

import java.lang.foreign.MemoryLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * {@code bench cpupri}: seed 002's two halves. The layouts of {@code struct cpupri} (FFM
 * {@link MemoryLayout}, and the Java-heap analogue read with JOL), then the
 * contention those layouts cause, measured by {@link CpupriBenchmark} under JMH with the
 * reader and writers pinned to a topology placement.
 *
 * <p>{@code -Dcorescope.cpupri.nrCpus=64,4096} chooses the NR_CPUS values shown for
 * {@code CONFIG_CPUMASK_OFFSTACK=n} (default 64 and 8192).
 */
public final class CpupriFamily implements BenchFamily {

    /**
     * {@code --quick}: twelve forks (6 variants &times; 2 workloads) must fit in 20 s on 2 cores,
     * so iterations are shorter than {@link Jmh.Settings#QUICK}'s, but more of them, which keeps
     * the Student-t factor of the 99.9% error down.
     */
    static final Jmh.Settings QUICK = new Jmh.Settings(1, 3, 50, 6, 50);

    /** {@code params.rt} of the cpupri workload: the kernel's idle CPUs at NORMAL first, then the full scan. */
    static final List<String> RT = List.of(CpupriStruct.Rt.WRITERS.param, CpupriStruct.Rt.ALL.param);

    /** The NR_CPUS values for the OFFSTACK=n layouts: x86-64 defconfig and MAXSMP. */
    static final String DEFAULT_NR_CPUS = "64,8192";

    @Override
    public String name() {
        return "cpupri";
    }

    /**
     * Machine code: the C reader and writer loops. One function each serves every layout (the
     * layouts differ in data offsets, not in code), hence the variant {@code all}.
     */
    @Override
    public List<MeasuredFunction> measuredFunctions() {
        return List.of(new MeasuredFunction("all", "cs_cpupri_reader", OffHeapCpupri.class.getName() + "::find",
                        Map.of("metric", "find")),
                new MeasuredFunction("all", "cs_cpupri_writer", OffHeapCpupri.class.getName() + "::toggle",
                        Map.of("metric", "set")));
    }

    /**
     * C2 compiles the Java reader's {@code __cpupri_find()} ({@code OffHeapCpupri::find}) and the
     * writer's {@code cpupri_set()} ({@code OffHeapCpupri::toggle}) in the {@code cpupri} group,
     * the kernel's layout, one reader and one writer.
     */
    @Override
    public Optional<JavaMachineCode.JmhSelection> javaCodeBenchmarks() {
        return Optional.of(new JavaMachineCode.JmhSelection(CpupriBenchmark.class, "cpupri",
                Map.of("variant", "packed", "rt", "writers")));
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
        return List.of(new NoiseAllowance("cpupri", "java", 1.27, 24));
    }

    /** Seed's claims, as data: {@link CpupriClaims}. */
    @Override
    public List<String> notMeasured(ResultsFile file) {
        return CpupriView.model(file).filter(m -> m.usableCount() < 2)
                .map(m -> CpupriView.planNotes(m.usableCount(), m.usable(), m.nativeUnavailable())).orElse(List.of());
    }

    @Override
    public List<Claim> claims() {
        return CpupriClaims.all();
    }

    @Override
    public String summary() {
        return "seed 002: cpupri_vec count/mask false sharing; packed vs aligned vs split layouts and their contention";
    }

    @Override
    public FamilyRun run(BenchContext context) throws Exception {
        Topology topology = context.topology();
        int line = topology.cacheLineSize();
        boolean lineKnown = topology.caches().stream().anyMatch(c -> c.level() == 1 && c.type() != Cache.Type.INSTRUCTION && c.lineSize() > 0);
        List<String> lineWarnings = lineKnown ? List.of() : List.of("cache line size unknown: assuming " + line + " bytes");

        List<Layout> layouts = new ArrayList<>();
        for (Kind k : Kind.values()) layouts.add(CpupriLayouts.report(k, Config.offstack(line)));
        List<Layout> seedLayouts = Arrays.stream(Kind.values()).map(k -> CpupriLayouts.report(k, Config.offstack(64))).toList();
        for (int nrCpus : nrCpus()) {
            for (Kind k : Kind.values()) layouts.add(CpupriLayouts.report(k, Config.inline(line, nrCpus)));
        }
        List<HeapLayouts.HeapLayout> heap = HeapLayouts.VARIANTS.stream().map(v -> HeapLayouts.of(v, line)).toList();
        heap.forEach(h -> layouts.add(h.layout()));
        boolean contendedIgnored = heap.get(2).instanceSize() == heap.get(0).instanceSize();

        CpuMask usable = context.cpus().map(c -> c.resize(topology.nbits()).and(topology.online())).orElse(topology.usable());
        List<Measurement> runs = plan(topology, usable, context);
        Double load = MachineLoad.oneMinute(Path.of("/")).orElse(null);
        List<Result> results = new ArrayList<>();
        Map<Measurement, Double> countsPerFind = new IdentityHashMap<>(), concurrent = new IdentityHashMap<>();
        context.progress().start("", runs.stream().mapToInt(CpupriFamily::runsPerSide).sum());
        for (int i = 0; i < runs.size(); i++) {
            Measurement r = runs.get(i);
            if (Thread.interrupted()) throw new InterruptedException("cpupri stopped after " + results.size() / 2 + " runs");
            if (r.implementation().equals("java")) {
                results.addAll(measure(r, context));
                continue;
            }
            // the C twin's variants of one workload, each as separately started runs interleaved variant by variant (ABAB...)
            List<Measurement> group = new ArrayList<>();
            for (int j = i; j < runs.size() && sameWorkload(runs.get(j), r); j++) group.add(runs.get(j));
            i += group.size() - 1;
            results.addAll(CpupriTwins.rows(group, context, topology.cacheLineSize(), countsPerFind, concurrent));
        }

        CpupriModel model = model(line, layouts, seedLayouts, heap, runs, countsPerFind, concurrent, new Facts(usable.toList(), usable.weight(),
                lineWarnings, contendedIgnored, CpupriTwins.unavailableReason().orElse(null), load, topology.online().weight()));
        return new FamilyRun(name(), results, model);
    }

    /** What the run found about the machine and the JVM, for the model (the view words them). */
    private record Facts(String usable, int usableCount, List<String> lineWarnings, boolean contendedIgnored, String nativeUnavailable,
                         Double loadOneMinute, int onlineCpus) {
    }

    /** The saved model: the layouts, the heap analogue, the runs and the run's facts. */
    private static CpupriModel model(int line, List<Layout> layouts, List<Layout> seedLayouts, List<HeapLayouts.HeapLayout> heap,
                                     List<Measurement> runs, Map<Measurement, Double> countsPerFind, Map<Measurement, Double> concurrent, Facts run) {
        List<CpupriModel.Struct> structs = new ArrayList<>();
        List<Layout> offstack = layouts.stream().filter(l -> Boolean.TRUE.equals(l.params().get("offstack"))).toList();
        for (int i = 0; i < offstack.size(); i++) {
            Layout l = offstack.get(i);
            Kind k = Kind.of(l.name());
            Config c = Config.offstack(line);
            long[][] at = CpupriLayouts.offsets(k, c);
            long[] counts = at[0], masks = at[1];
            boolean shared = counts[CpupriLayouts.CPUPRI_RT99] / line == masks[CpupriLayouts.CPUPRI_RT99] / line;
            structs.add(new CpupriModel.Struct(l, seedLayouts.get(i).cacheLines(), shared, counts, masks,
                    Integer.BYTES, c.maskBytes()));
        }
        List<Layout> inline = layouts.stream().filter(l -> Boolean.FALSE.equals(l.params().get("offstack"))).toList();
        List<CpupriModel.Heap> heaps = heap.stream().map(h -> new CpupriModel.Heap(h.variant(),
                h.type().getName().replace("dev.corescope.bench.cpupri.", ""), h.countOffset(), h.maskOffset(), h.gap(),
                h.instanceSize(), h.apart(line), h.layout())).toList();
        List<CpupriModel.Measured> saved = runs.stream().map(r -> new CpupriModel.Measured(r.workload(), r.variant(), r.implementation(),
                r.placement().name(), r.writers(), Arrays.stream(r.cpus()).boxed().toList(), r.rt(),
                countsPerFind.get(r), concurrent.get(r))).toList();
        return new CpupriModel(line, structs, inline, heaps, HeapLayouts.vmDetails(), saved, List.of(), List.of(), run.usable(),
                run.usableCount(), run.lineWarnings(), run.contendedIgnored(), run.nativeUnavailable(), run.loadOneMinute(), run.onlineCpus());
    }

    @Override
    public boolean draws() {
        return true;
    }

    @Override
    public Optional<?> model(ResultsFile file) {
        return CpupriView.model(file);
    }

    @Override
    public Optional<TextDoc> document(ResultsFile file) {
        List<Result> rows = file.results().stream().filter(r -> r.benchmark().equals(name())).toList();
        return CpupriView.model(file).map(m -> CpupriView.document(m, rows));
    }

    /** The cache lines of each layout, showing which counts and masks share a line. */
    @Override
    public Optional<String> picture(ResultsFile file) {
        return CpupriView.model(file).filter(m -> !m.structs().isEmpty()).map(CpupriView::svg);
    }

    /**
     * One measurement: a workload, a variant, a placement, a number of writers; Java under JMH or
     * the C twin. {@code rt} is {@code params.rt} for the {@code cpupri} workload, null for
     * {@code mechanism}.
     */
    record Measurement(String workload, String variant, String implementation, CpuPair placement, int writers, int[] cpus,
               String rt) {
        String cpuList() {
            var b = CpuMask.builder(Arrays.stream(cpus).max().orElse(0) + 1);
            for (int c : cpus) b.set(c);
            return b.build().toList();
        }
    }

    /**
     * The writer counts a run measures with {@code usable} CPUs: as many writers as the CPUs allow
     * (all but the reader's), the seed's case of many writers updating counts while a reader
     * scans; in a full run also one writer, for the comparison. On 2 CPUs only one writer fits.
     */
    static List<Integer> writerCounts(int usable, boolean brief) {
        int most = usable - 1;
        if (most <= 1) return List.of(1);
        return brief ? List.of(most) : List.of(1, most);
    }

    /** The runs of the plan: none below 2 usable CPUs (the view's notes say why, {@link CpupriView#planNotes}). */
    static List<Measurement> plan(Topology topology, CpuMask usable, BenchContext context) {
        if (usable.weight() < 2) return List.of();
        List<CpuPair> placements = distinctPairs(Placements.of(topology, usable));
        if (context.size().brief()) placements = placements.subList(0, 1);
        List<Integer> writers = writerCounts(usable.weight(), context.size().brief());
        boolean twin = CpupriTwins.unavailableReason().isEmpty();
        boolean brief = context.size().brief();
        List<Measurement> runs = new ArrayList<>();
        for (CpuPair p : placements) {
            for (int w : writers) {
                int[] cpus = CpupriBenchmark.choose(topology, p.name(), usable, w);
                for (String workload : List.of("mechanism", "cpupri")) {
                    for (String rt : workload.equals("mechanism") ? Collections.<String>singletonList(null) : RT) {
                        for (String v : CpupriBenchmark.VARIANTS) {
                            // rt=all in --quick: the kernel's three layouts only, to keep the family's time
                            if (!(brief && "all".equals(rt) && HeapLayouts.VARIANTS.contains(v))) {
                                runs.add(new Measurement(workload, v, "java", p, w, cpus, rt));
                            }
                        }
                        if (twin) {
                            for (Kind k : Kind.values()) runs.add(new Measurement(workload, k.variant(), "native", p, w, cpus, rt));
                        }
                    }
                }
            }
        }
        return runs;
    }

    /** Placements naming the same two CPUs are measured once, under the nearest name. */
    private static List<CpuPair> distinctPairs(List<CpuPair> all) {
        Map<List<Integer>, CpuPair> first = new LinkedHashMap<>();
        for (CpuPair p : all) first.putIfAbsent(List.of(p.from(), p.to()), p);
        return List.copyOf(first.values());
    }

    /**
     * The runs per side of a row where a claim counts it: {@link SeedVerdicts#RUNS_PER_SIDE} JMH forks, or
     * {@link SeedVerdicts#OWN_RUNS} runs of the C twin (half a second each), so that its row is judged on
     * its own runs; else the mode's (JMH forks; 1 for the C twin).
     */
    static int runsPerSide(Measurement r) {
        // the C twin's layouts run together (interleaved), so all of a workload's get the runs where one counts
        boolean twin = r.implementation().equals("native");
        boolean counted = twin
                ? Arrays.stream(Kind.values()).anyMatch(k -> Claim.counts(CpupriClaims.all(), "cpupri", k.variant(), "native", null, params(r, "")))
                : Claim.counts(CpupriClaims.all(), "cpupri", r.variant(), r.implementation(), null, params(r, ""));
        return !counted ? 1 : twin ? SeedVerdicts.OWN_RUNS : SeedVerdicts.RUNS_PER_SIDE;
    }

    /** Whether two C runs measure the same workload (and differ only in the layout). */
    private static boolean sameWorkload(Measurement a, Measurement b) {
        return a.implementation().equals("native") && b.implementation().equals("native") && a.workload().equals(b.workload())
                && Objects.equals(a.rt(), b.rt()) && a.placement() == b.placement() && a.writers() == b.writers();
    }

    /** The JMH settings of a Java run, whose warm-up and iterations the C twin copies. */
    static Jmh.Settings settings(BenchContext context) {
        return context.size() == RunSize.QUICK ? QUICK : context.jmhSettings();
    }

    /** C samples: one per JMH measurement iteration over all forks (at least 2, for an interval). */
    static int nativeSamples(Jmh.Settings s) {
        return Math.max(2, Math.max(1, s.forks()) * s.measurementIterations());
    }

    /** A row's params; {@code statistic} says what its score is: JMH's {@code mean} or the C samples' {@code median}. */
    static Map<String, Object> params(Measurement r, String statistic) {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("workload", r.workload());
        if (r.rt() != null) params.put("rt", r.rt());
        params.put("writers", r.writers());
        params.put("placement", r.placement().name());
        params.put("statistic", statistic);
        return params;
    }

    /**
     * The JMH options of one Java run: the fork gets the run's CPUs as data ({@code pinned}: the
     * reader's, then the writers', in the plan's order), not a placement name to re-derive.
     */
    static ChainedOptionsBuilder options(Measurement r, Jmh.Settings s) {
        return Jmh.options(CpupriBenchmark.class, r.workload(), null, s, null)
                .param("variant", r.variant())
                .param("pinned", Arrays.stream(r.cpus()).mapToObj(Integer::toString).collect(Collectors.joining("/")))
                .param("rt", r.rt() == null ? CpupriStruct.Rt.WRITERS.param : r.rt())
                .threadGroups(1, r.writers());
    }

    private static List<Result> measure(Measurement r, BenchContext context) throws RunnerException {
        Jmh.Settings s = settings(context);
        // a row a claim counts gets its forks in every mode: runs are the unit of its interval
        s = s.forClaim(runsPerSide(r));
        ChainedOptionsBuilder ob = options(r, s);
        context.progress().begin(r.workload() + " " + r.variant() + " Java");
        Collection<RunResult> found = new Runner(ob.build()).run();
        context.progress().step(r.workload() + " " + r.variant() + " Java" + (s.forks() > 1 ? ", " + s.forks() + " forks" : ""));
        if (found.isEmpty()) throw new IllegalStateException("JMH ran nothing for cpupri " + r.workload() + " " + r.variant());
        RunResult run = found.iterator().next();
        Map<String, Object> params = params(r, "mean");
        List<Result> rows = new ArrayList<>();
        for (String metric : List.of("find", "set")) {
            String method = r.workload() + Character.toUpperCase(metric.charAt(0)) + metric.substring(1);
            org.openjdk.jmh.results.Result m = run.getSecondaryResults().get(method);
            if (m == null) throw new IllegalStateException("JMH gave no result for " + method);
            double error = m.getScoreError();
            rows.add(Result.builder().benchmark("cpupri").variant(r.variant()).implementation("java").metric(metric).unit(m.getScoreUnit())
                    .score(m.getScore()).error(Double.isNaN(error) ? null : error).samples(m.getStatistics().getN()).cpus(r.cpuList()).params(params).runs(ForkFigures.ofSecondary(run, method, x -> x)).build());
        }
        return rows;
    }

    static List<Integer> nrCpus() {
        String spec = System.getProperty("corescope.cpupri.nrCpus", DEFAULT_NR_CPUS);
        try {
            return Arrays.stream(spec.split(",")).filter(x -> !x.isBlank()).map(x -> Integer.parseInt(x.strip())).filter(n -> n > 0).toList();
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("corescope.cpupri.nrCpus=" + spec + ": not a list of CPU counts");
        }
    }
}
