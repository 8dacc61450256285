package dev.corescope.bench.cpupri;

import dev.corescope.bench.BenchContext;
import dev.corescope.bench.BenchFamily;
import dev.corescope.bench.FamilyRun;
import dev.corescope.bench.Jmh;
import dev.corescope.bench.MachineLoad;
import dev.corescope.bench.SampleStats;
import dev.corescope.bench.cpupri.CpupriLayouts.Config;
import dev.corescope.bench.cpupri.CpupriLayouts.Kind;
import dev.corescope.cpumask.CpuMask;
import dev.corescope.report.Layout;
import dev.corescope.report.Result;
import dev.corescope.sys.Affinity;
import dev.corescope.topology.Placement;
import dev.corescope.topology.Placements;
import dev.corescope.topology.Topology;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code bench cpupri}: seed 002's two halves. The layouts of {@code struct cpupri} (FFM
 * {@link java.lang.foreign.MemoryLayout}, and the Java-heap analogue read with JOL), then the
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

    static final int NATIVE_QUICK_SAMPLES = 5;
    static final int NATIVE_FULL_SAMPLES = 25;

    /** The NR_CPUS values for the OFFSTACK=n layouts: x86-64 defconfig and MAXSMP. */
    static final String DEFAULT_NR_CPUS = "64,8192";

    @Override
    public String name() {
        return "cpupri";
    }

    @Override
    public String summary() {
        return "seed 002: cpupri_vec count/mask false sharing; packed vs aligned vs split layouts and their contention";
    }

    @Override
    public FamilyRun run(BenchContext context) throws Exception {
        List<String> notes = new ArrayList<>();
        Topology topology = Topology.live();
        int line = topology.cacheLineSize();
        topology.warnings().stream().filter(w -> w.contains("cache line")).forEach(notes::add);

        List<Layout> layouts = new ArrayList<>();
        for (Kind k : Kind.values()) layouts.add(CpupriLayouts.report(k, Config.offstack(line)));
        List<Layout> seedLayouts = Arrays.stream(Kind.values()).map(k -> CpupriLayouts.report(k, Config.offstack(64))).toList();
        for (int nrCpus : nrCpus()) {
            for (Kind k : Kind.values()) layouts.add(CpupriLayouts.report(k, Config.inline(line, nrCpus)));
        }
        List<HeapLayouts.HeapLayout> heap = HeapLayouts.VARIANTS.stream().map(v -> HeapLayouts.of(v, line)).toList();
        heap.forEach(h -> layouts.add(h.layout()));
        if (heap.get(2).instanceSize() == heap.get(0).instanceSize()) {
            notes.add("@Contended was ignored: run the JVM with -XX:-RestrictContended (run.sh does)");
        }

        CpuMask usable = context.cpus().map(c -> c.resize(topology.nbits()).and(topology.usable())).orElse(topology.usable());
        List<Run> runs = plan(topology, usable, context, notes);
        if (!runs.isEmpty()) MachineLoad.busyNote(Path.of("/"), topology.online().weight()).ifPresent(notes::add);
        List<Result> results = new ArrayList<>();
        context.progress().start("cpupri", runs.size());
        for (Run r : runs) {
            if (Thread.interrupted()) throw new InterruptedException("cpupri stopped after " + results.size() / 2 + " runs");
            results.addAll(r.implementation().equals("native") ? measureNative(r, context, topology.cacheLineSize()) : measure(r, context));
            context.progress().step(r.workload() + " " + r.variant() + " (" + r.implementation() + ") " + r.placement().name());
        }

        notes.add("Seed 002 measured a 2-socket, 240-core/480-CPU machine running 60 ffmpeg instances with RT threads: "
                + "perf c2c showed cpupri_find() loads of vec->mask waiting on the line cpupri_set() writes through "
                + "vec->count (10K-59K cycles per load); aligning the mask cut kernel cycles from ~20% to ~12% and raised fps ~11%.");
        if (!runs.isEmpty()) {
            notes.add("Here one reader and " + maxWriters(runs) + " writer thread(s) share the lines, on " + usable.weight()
                    + " usable CPUs. The false-sharing cost grows with the writers (params.writers): the more cores write "
                    + "count[0] and count[99], the more often the line is in another core's cache when a reader wants the "
                    + "mask pointer beside it, and with the distance between the cores (SMT < same L3 < other L3 < other "
                    + "package). The seed had 480 CPUs on two sockets under 60 ffmpeg instances; a few CPUs cannot reproduce its 11%.");
            notes.add("In the cpupri workload the reader reads count[0], which the writers really change, in every layout "
                    + "(true sharing), so on few CPUs the layouts differ little. When count[0] is 0 the reader scans counts 1..98: "
                    + "25 lines packed, 98 aligned, 7 split; there the aligned layout (and the padded heap objects) pay for their size.");
        }

        String text = CpupriReport.text(line, layouts, seedLayouts, heap, runs, results, notes, HeapLayouts.vmDetails());
        return new FamilyRun(name(), results, layouts, List.of(), null, notes, text);
    }

    /** One measurement: a workload, a variant, a placement, a number of writers; Java under JMH or the C twin. */
    record Run(String workload, String variant, String implementation, Placement placement, int writers, int[] cpus) {
        String cpuList() {
            var b = CpuMask.builder(Arrays.stream(cpus).max().orElse(0) + 1);
            for (int c : cpus) b.set(c);
            return b.build().toList();
        }
    }

    private static List<Run> plan(Topology topology, CpuMask usable, BenchContext context, List<String> notes) {
        if (usable.weight() < 2) {
            notes.add("contention not measured: it needs 2 CPUs, " + (usable.isEmpty() ? "none is" : "only CPU " + usable.toList() + " is")
                    + " usable");
            return List.of();
        }
        List<Placement> placements = distinctPairs(Placements.of(topology, usable));
        if (context.quick() || context.smoke()) placements = placements.subList(0, 1);
        List<Integer> writers = new ArrayList<>(List.of(1));
        int most = usable.weight() - 1;
        if (!context.quick() && !context.smoke() && most > 1) writers.add(most);
        if (most == 1) notes.add("writers > 1 needs 3 or more usable CPUs; this run has " + usable.weight());
        boolean twin = CpupriTwins.unavailableReason().isEmpty();
        CpupriTwins.unavailableReason().ifPresent(r -> notes.add("C twin not run: " + r));
        if (twin) {
            notes.add("native rows: the same struct at the same offsets in C (native/src/cpupri.c), threads pinned in C, "
                    + "each timing its own loop; median of the samples with its 99.9% interval; one writer only");
        }
        List<Run> runs = new ArrayList<>();
        for (Placement p : placements) {
            for (int w : writers) {
                int[] cpus = CpupriBenchmark.choose(topology, p.name(), usable, w);
                for (String workload : List.of("mechanism", "cpupri")) {
                    for (String v : CpupriBenchmark.VARIANTS) runs.add(new Run(workload, v, "java", p, w, cpus));
                    if (twin && w == 1) {
                        for (Kind k : Kind.values()) runs.add(new Run(workload, k.variant(), "native", p, w, cpus));
                    }
                }
            }
        }
        return runs;
    }

    /** Placements naming the same two CPUs are measured once, under the nearest name. */
    private static List<Placement> distinctPairs(List<Placement> all) {
        List<Placement> out = new ArrayList<>();
        for (Placement p : all) {
            boolean seen = out.stream().anyMatch(q -> q.from() == p.from() && q.to() == p.to());
            if (!seen) out.add(p);
        }
        return out;
    }

    private static int maxWriters(List<Run> runs) {
        return runs.stream().mapToInt(Run::writers).max().orElse(0);
    }

    /** The C twin: samples timed in C, reported as median and its 99.9% interval. */
    private static List<Result> measureNative(Run r, BenchContext context, int line) {
        Kind kind = Kind.of(r.variant());
        var layout = CpupriLayouts.layout(kind, Config.offstack(line));
        long[] counts = new long[CpupriLayouts.CPUPRI_NR_PRIORITIES];
        long[] masks = new long[CpupriLayouts.CPUPRI_NR_PRIORITIES];
        for (int p = 0; p < counts.length; p++) {
            counts[p] = CpupriLayouts.countOffset(layout, kind, p);
            masks[p] = CpupriLayouts.maskOffset(layout, kind, p);
        }
        int samples = context.smoke() ? 2 : context.quick() ? NATIVE_QUICK_SAMPLES : NATIVE_FULL_SAMPLES;
        int millis = context.smoke() ? 10 : context.quick() ? 30 : 100;
        CpupriTwins.Samples s = CpupriTwins.run(r.workload().equals("mechanism"), r.cpus()[0], r.cpus()[1], counts, masks,
                layout.byteSize(), line, Affinity.nrCpuIds(), samples, millis);
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("workload", r.workload());
        params.put("writers", r.writers());
        params.put("placement", r.placement().name());
        SampleStats find = SampleStats.of(s.readerNs());
        SampleStats set = SampleStats.of(s.writerNs());
        return List.of(
                new Result("cpupri", r.variant(), "native", "find", "ns/op", find.median(), find.errorOrNull(), find.samples(), r.cpuList(), params),
                new Result("cpupri", r.variant(), "native", "set", "ns/op", set.median(), set.errorOrNull(), set.samples(), r.cpuList(), params));
    }

    private static List<Result> measure(Run r, BenchContext context) throws RunnerException {
        Jmh.Settings s = context.smoke() || !context.quick() ? context.jmhSettings() : QUICK;
        ChainedOptionsBuilder ob = Jmh.options(CpupriBenchmark.class, r.workload(), null, s, null)
                .param("variant", r.variant())
                .param("placement", r.placement().name())
                .param("cpus", CpuMask.of(Arrays.stream(r.cpus()).max().orElse(0) + 1, r.cpus()).toList())
                .threadGroups(1, r.writers());
        Collection<RunResult> found = new Runner(ob.build()).run();
        if (found.isEmpty()) throw new IllegalStateException("JMH ran nothing for cpupri " + r.workload() + " " + r.variant());
        RunResult run = found.iterator().next();
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("workload", r.workload());
        params.put("writers", r.writers());
        params.put("placement", r.placement().name());
        List<Result> rows = new ArrayList<>();
        for (String metric : List.of("find", "set")) {
            String method = r.workload() + Character.toUpperCase(metric.charAt(0)) + metric.substring(1);
            org.openjdk.jmh.results.Result m = run.getSecondaryResults().get(method);
            if (m == null) throw new IllegalStateException("JMH gave no result for " + method);
            double error = m.getScoreError();
            rows.add(new Result("cpupri", r.variant(), "java", metric, m.getScoreUnit(), m.getScore(),
                    Double.isNaN(error) ? null : error, m.getStatistics().getN(), r.cpuList(), params));
        }
        return rows;
    }

    static List<Integer> nrCpus() {
        String spec = System.getProperty("corescope.cpupri.nrCpus", DEFAULT_NR_CPUS);
        List<Integer> out = new ArrayList<>();
        for (String s : spec.split(",")) {
            if (s.isBlank()) continue;
            try {
                int n = Integer.parseInt(s.strip());
                if (n > 0) out.add(n);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("corescope.cpupri.nrCpus=" + spec + ": not a list of CPU counts");
            }
        }
        return out;
    }
}
