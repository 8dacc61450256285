package dev.corescope.bench.cpupri;

import dev.corescope.bench.BenchContext;
import dev.corescope.bench.Jmh;
import dev.corescope.bench.SampleStats;
import dev.corescope.report.Result;
import dev.corescope.sys.NativeException;
import dev.corescope.sys.tool.TwinLinker;
import dev.corescope.sys.internal.NativeCalls;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import org.openjdk.jmh.util.ListStatistics;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.IntStream;

/**
 * The C twin of {@code bench cpupri} ({@code native/src/cpupri.c}): the same {@code struct cpupri}
 * at the offsets the Java side computed, with a reader and as many writer threads as the Java
 * run has, each pinned inside C to its own CPU.
 */
public final class CpupriTwins {

    /**
     * ns/op per sample for each side (the writers': their mean), the counts a reader's find read on average in each
     * sample (all zero for the mechanism workload), and the smallest share of each sample a thread was on its CPU.
     */
    public record Samples(double[] readerNs, double[] writerNs, double[] countsPerFind, double[] ran) {

        /** The share of a sample every thread must have run for it to time contention (not a thread alone). */
        public static final double RAN_FLOOR = 0.9;

        /** The samples in which every thread ran for at least {@link #RAN_FLOOR} of the time. */
        public Samples concurrent() {
            int[] keep = IntStream.range(0, ran.length).filter(i -> ran[i] >= RAN_FLOOR).toArray();
            return new Samples(pick(readerNs, keep), pick(writerNs, keep), pick(countsPerFind, keep), pick(ran, keep));
        }

        private static double[] pick(double[] v, int[] at) {
            return Arrays.stream(at).mapToDouble(i -> v[i]).toArray();
        }
    }

    private static final int NAME_BYTES = 64;

    private CpupriTwins() {
    }

    /** Why the twin cannot run, or empty. */
    public static Optional<String> unavailableReason() {
        return Optional.ofNullable(Holder.REASON);
    }

    /**
     * {@code cs_cpupri_run}: one reader and {@code cpus.length - 1} writers.
     *
     * @param mechanism     true: atomic inc/dec of count[99] vs a load of mask[99];
     *                      false: cpupri_set() vs cpupri_find()
     * @param rtAll         false: the reader's CPU starts at CPUPRI_NORMAL, as an idle CPU sits in
     *                      cpupri; true: at RT99 ("every CPU runs RT", the full scan)
     * @param cpus          the reader's CPU, then each writer's (all distinct, at least one writer)
     * @param countOffsets  byte offset of each priority's count in the struct (101 entries)
     * @param maskOffsets   byte offset of each priority's mask pointer
     * @param warmupSamples samples of {@code warmupMillis} run first and thrown away
     * @return per sample the reader's ns/op and the writers' mean ns/op
     * @throws NativeException naming the failed call and its errno
     */
    public static Samples run(boolean mechanism, boolean rtAll, int[] cpus, long[] countOffsets, long[] maskOffsets,
                              long structBytes, int lineSize, int nrCpuIds, int warmupSamples, int warmupMillis, int samples,
                              int sampleMillis) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment threads = arena.allocateFrom(ValueLayout.JAVA_INT, cpus);
            MemorySegment counts = arena.allocateFrom(ValueLayout.JAVA_LONG, countOffsets);
            MemorySegment masks = arena.allocateFrom(ValueLayout.JAVA_LONG, maskOffsets);
            MemorySegment reader = arena.allocate(ValueLayout.JAVA_DOUBLE, samples);
            MemorySegment writer = arena.allocate(ValueLayout.JAVA_DOUBLE, samples);
            MemorySegment scanned = arena.allocate(ValueLayout.JAVA_DOUBLE, samples);
            MemorySegment ran = arena.allocate(ValueLayout.JAVA_DOUBLE, samples);
            MemorySegment failed = arena.allocate(NAME_BYTES);
            int rc = (int) TwinLinker.linked(Holder.RUN, Holder.REASON).invokeExact(mechanism ? 0 : 1, rtAll ? 1 : 0,
                    threads, cpus.length - 1, counts, masks, structBytes, lineSize, nrCpuIds, warmupSamples, warmupMillis,
                    samples, sampleMillis, reader, writer, scanned, ran, failed, NAME_BYTES);
            if (rc != 0) {
                throw new NativeException(failed.getString(0), "reader=" + (cpus.length > 0 ? cpus[0] : -1) + ", writers="
                        + Arrays.toString(Arrays.copyOfRange(cpus, Math.min(1, cpus.length), cpus.length)), rc);
            }
            return new Samples(reader.toArray(ValueLayout.JAVA_DOUBLE), writer.toArray(ValueLayout.JAVA_DOUBLE),
                    scanned.toArray(ValueLayout.JAVA_DOUBLE), ran.toArray(ValueLayout.JAVA_DOUBLE));
        } catch (Throwable t) {
            throw NativeCalls.rethrow(t);
        }
    }

    /**
     * The C twin, each variant of {@code group} as separately started runs (threads started,
     * struct allocated and warmed up afresh each time), interleaved variant by variant; a row is
     * the median of every run's samples and its 99.9% interval, each run one of its runs[].
     */
    static List<Result> rows(List<CpupriFamily.Measurement> group, BenchContext context, int line, Map<CpupriFamily.Measurement, Double> countsPerFind,
                                              Map<CpupriFamily.Measurement, Double> ran) {
        int rounds = CpupriFamily.runsPerSide(group.getFirst());
        Map<CpupriFamily.Measurement, List<Samples>> got = new LinkedHashMap<>();
        for (int round = 0; round < rounds; round++) {
            for (CpupriFamily.Measurement r : group) {
                context.progress().begin(r.workload() + " " + r.variant() + " C");
                got.computeIfAbsent(r, k -> new ArrayList<>()).add(runNative(r, context, line));
                context.progress().step(r.workload() + " " + r.variant() + " C" + (rounds > 1 ? " run " + (round + 1) + " of " + rounds : ""));
            }
        }
        List<Result> out = new ArrayList<>();
        got.forEach((r, all) -> {
            Map<String, Object> params = CpupriFamily.params(r, "median");
            // contention needs both threads on their CPUs: samples where one was off its CPU (a busy machine) timed a
            // thread alone and are set aside, and a run with none left drops out; with none left at all the row keeps
            // every sample as one run, which no interval decides from (the model's concurrent says 0)
            List<Samples> kept = all.stream().map(Samples::concurrent).filter(x -> x.ran().length > 0).toList();
            ran.put(r, (double) concat(kept, Samples::ran).length / concat(all, Samples::ran).length);
            List<Samples> samples = !kept.isEmpty() ? kept : List.of(new Samples(concat(all, Samples::readerNs), concat(all, Samples::writerNs),
                    concat(all, Samples::countsPerFind), concat(all, Samples::ran)));
            if (r.rt() != null) countsPerFind.put(r, SampleStats.of(concat(samples, Samples::countsPerFind)).median());
            out.add(nativeRow(r, "find", params, samples, Samples::readerNs));
            out.add(nativeRow(r, "set", params, samples, Samples::writerNs));
        });
        return out;
    }

    private static Result nativeRow(CpupriFamily.Measurement r, String metric, Map<String, Object> params, List<Samples> runs,
                                    Function<Samples, double[]> side) {
        SampleStats all = SampleStats.of(concat(runs, side));
        List<dev.corescope.report.RunFigures> each = runs.size() < 2 ? null : runs.stream().map(x -> {
            double[] v = side.apply(x);
            ListStatistics st = new ListStatistics(v);
            return new dev.corescope.report.RunFigures(st.getMean(), v.length, v.length > 1 ? st.getStandardDeviation() : null);
        }).toList();
        return Result.builder().benchmark("cpupri").variant(r.variant()).implementation("native").metric(metric).unit("ns/op")
                .score(all.median()).error(all.errorOrNull()).samples(all.samples()).cpus(r.cpuList()).params(params).runs(each).build();
    }

    private static double[] concat(List<Samples> runs, Function<Samples, double[]> side) {
        return runs.stream().flatMapToDouble(x -> Arrays.stream(side.apply(x))).toArray();
    }

    /** One run of the C twin: samples timed in C. */
    private static Samples runNative(CpupriFamily.Measurement r, BenchContext context, int line) {
        CpupriLayouts.Kind kind = CpupriLayouts.Kind.of(r.variant());
        var config = CpupriLayouts.Config.offstack(line);
        long[][] at = CpupriLayouts.offsets(kind, config);
        Jmh.Settings js = CpupriFamily.settings(context);
        return run(r.workload().equals("mechanism"), "all".equals(r.rt()), r.cpus(),
                at[0], at[1], CpupriLayouts.layout(kind, config).byteSize(), line, context.os().nrCpuIds(), js.warmupIterations(), js.warmupMillis(),
                CpupriFamily.nativeSamples(js), js.measurementMillis());
    }

    private static final class Holder {
        private static final TwinLinker LINKER = new TwinLinker();
        static final MethodHandle RUN = LINKER.downcall("cs_cpupri_run", FunctionDescriptor.of(ValueLayout.JAVA_INT,
                ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT,
                ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT,
                ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT,
                ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.ADDRESS,
                ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
        static final String REASON = LINKER.failure();
    }
}
