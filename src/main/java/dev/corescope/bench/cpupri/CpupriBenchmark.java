package dev.corescope.bench.cpupri;

import dev.corescope.bench.cpupri.CpupriLayouts.Kind;
import dev.corescope.cpumask.CpuMask;
import dev.corescope.sys.Pinning;
import dev.corescope.sys.internal.Os;
import dev.corescope.topology.CpuPair;
import dev.corescope.topology.Placements;
import dev.corescope.topology.Topology;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.ThreadParams;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * False sharing between {@code cpupri_vec->count} and {@code ->mask}, seed 002, as a JMH
 * {@code @Group}: one reader thread and N writer threads, each pinned to its own CPU, on one
 * {@code struct cpupri}.
 *
 * <p><b>What the seed measured.</b> On a 2-socket, 480-CPU machine running 60 ffmpeg instances
 * with RT threads, {@code perf c2c} showed {@code cpupri_find()} loads of {@code vec->mask}
 * stalling on the line that {@code cpupri_set()} keeps writing through {@code vec->count}:
 * cache-line-aligning the mask cut kernel cycles from ~20% to ~12% and raised fps ~11%, at the
 * price of {@code struct cpupri} growing from 26 to 203 cache lines (the split alternative: 21).
 *
 * <p><b>What this measures</b>, ns per operation for each side ({@code metric} {@code find} for
 * the reader, {@code set} for the writers), per layout ({@code variant}):
 * <ul>
 *   <li>BASELINE, {@code packed}: today's layout, count and mask of a priority on one line.</li>
 *   <li>APPROACH 1, {@code aligned}: the patch, each mask on its own line.</li>
 *   <li>APPROACH 2, {@code split}: counts[] and masks[] as two arrays, counts[0] alone.</li>
 *   <li>The Java-heap analogues: {@code heap_packed} (BASELINE), {@code heap_padded} (padding
 *       classes by hand), {@code heap_contended} ({@code @Contended}, needs
 *       {@code -XX:-RestrictContended}).</li>
 * </ul>
 * Two workloads, two groups:
 * <ul>
 *   <li>{@code mechanism}: the false sharing alone. The writer does {@code atomic_inc} +
 *       {@code atomic_dec} on {@code count[99]}; the reader loads {@code mask[99]}, the pointer,
 *       with an opaque load so the JIT cannot hoist it out of the loop. Only the layout
 *       decides whether they touch the same line.</li>
 *   <li>{@code cpupri}: the kernel's own pattern. Every CPU of the run is in cpupri from the
 *       start, as {@code rq_online_rt()} puts every online CPU in it. Writers run
 *       {@code cpupri_set()} moving their CPU between NORMAL and RT99 (so {@code count[0]}
 *       changes on every operation); the reader runs {@code cpupri_find()} for an RT99 task,
 *       scanning from index 0. With {@code rt=writers} the reader's CPU sits at NORMAL, so the
 *       scan stops at index 0 (one count, one mask); with {@code rt=all} it runs RT99, so while
 *       a writer is at RT99 the scan reads all 99 counts and finds nothing, the case the seed's
 *       480 CPUs full of RT threads approach.</li>
 * </ul>
 *
 * <p><b>Where the analogy stops.</b> No runqueue lock, no interrupts, no scheduler around the
 * accesses: only the memory traffic is reproduced. In the {@code cpupri} workload the reader
 * reads {@code count[0]}, which the writers really write, in every layout (true sharing), so on
 * a few CPUs the layouts differ little; the seed's gain needed hundreds of CPUs hitting the same
 * lines. The heap variants depend on where the JVM puts objects, which only JOL can tell
 * ({@link HeapLayouts}), and a GC may move them.
 *
 * <p><b>HOW TO RUN</b> (reader and writer pinned to a topology placement):
 * <pre>
 *   ./run.sh bench cpupri                      # every layout and workload, with the report
 *   ./run.sh jmh 'CpupriBenchmark.mechanism' -p variant=packed,aligned -p placement=any
 *   ./run.sh jmh 'CpupriBenchmark.cpupri' -tg 1,3 -p cpus=0-3   # 3 writers, CPUs 0-3
 *   ./run.sh jmh 'CpupriBenchmark.cpupri' -p variant=packed -p rt=all  # the full scan
 *   ./run.sh jmh 'CpupriBenchmark.cpupri' -tg 1,0 -p variant=packed,aligned  # the reader alone (diagnostic)
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 10, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Fork(value = 2, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-XX:-RestrictContended"})
@State(Scope.Group)
public class CpupriBenchmark {

    @Param({"packed", "aligned", "split", "heap_packed", "heap_padded", "heap_contended"})
    public String variant;

    /** {@code same-core}, {@code same-l3}, {@code other-l3}, {@code other-package} or {@code any}: reader and first writer. */
    @Param({"any"})
    public String placement;

    /** The CPUs to choose from (cpulist); empty: the allowed set. Further writers take the next free CPUs. */
    @Param({""})
    public String cpus;

    /**
     * The CPUs as the family chose them, in order: the reader's, then one per writer
     * ({@code 5/1/2}; a slash, since JMH's {@code -p} splits values at commas); the fork pins
     * to exactly these and derives nothing. Empty: chosen here from {@code placement} and
     * {@code cpus} (a run of the benchmark by hand).
     */
    @Param({""})
    public String pinned;

    /**
     * {@code writers}: only the writers' CPUs run RT tasks, the reader's sits at CPUPRI_NORMAL as
     * an idle CPU does in the kernel, so a find stops at index 0; {@code all}: the reader's CPU
     * runs RT99 too, so while the writer is at RT99 a find reads all 99 counts (the full scan).
     * Only the {@code cpupri} group reads it.
     */
    @Param({"writers"})
    public String rt;

    CpupriStruct model;
    int readerCpu;
    int[] writerCpus;

    @Setup(Level.Trial)
    public void setUp(ThreadParams threads) {
        int writers = threads.getGroupThreadCount() - 1;
        Topology topology = Topology.live();
        int[] chosen = pinned.isBlank() ? choose(topology, placement, usable(topology, cpus), writers) : pinned(pinned, writers);
        readerCpu = chosen[0];
        writerCpus = Arrays.copyOfRange(chosen, 1, chosen.length);
        model = create(variant, Os.live().nrCpuIds(), topology.cacheLineSize(), writerCpus, chosen, CpupriStruct.Rt.of(rt));
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        model.close();
    }

    /** The reader's thread: pinned, with its own {@code lowest_mask}. */
    @State(Scope.Thread)
    public static class Reader {
        Pinning pinning;
        long[] lowestMask;

        @Setup(Level.Trial)
        public void pin(CpupriBenchmark b) {
            pinning = Os.live().pinChecked(b.readerCpu);
            lowestMask = new long[b.model.maskWords()];
        }

        @TearDown(Level.Trial)
        public void unpin() {
            pinning.close();
        }
    }

    /** A writer's thread: pinned to its CPU, whose priority it changes. */
    @State(Scope.Thread)
    public static class Writer {
        Pinning pinning;
        int cpu;

        @Setup(Level.Trial)
        public void pin(CpupriBenchmark b, ThreadParams t) {
            cpu = b.writerCpus[t.getSubgroupThreadIndex()];
            pinning = Os.live().pinChecked(cpu);
        }

        @TearDown(Level.Trial)
        public void unpin() {
            pinning.close();
        }
    }

    @Benchmark
    @Group("mechanism")
    @GroupThreads(1)
    public long mechanismFind(Reader r) {
        return model.readMask();
    }

    @Benchmark
    @Group("mechanism")
    @GroupThreads(1)
    public void mechanismSet(Writer w) {
        model.incDec();
    }

    @Benchmark
    @Group("cpupri")
    @GroupThreads(1)
    public int cpupriFind(Reader r) {
        return model.find(r.lowestMask);
    }

    @Benchmark
    @Group("cpupri")
    @GroupThreads(1)
    public void cpupriSet(Writer w) {
        model.toggle(w.cpu);
    }

    // ---- shared with the family and the tests ----

    /** The variants in report order: the three kernel layouts, then the three heap shapes. */
    public static final List<String> VARIANTS = List.of("packed", "aligned", "split",
            "heap_packed", "heap_padded", "heap_contended");

    static CpupriStruct create(String variant, int nrCpuIds, int lineSize, int[] writers, int[] task, CpupriStruct.Rt rt) {
        if (variant.startsWith("heap_")) return HeapCpupri.create(variant, nrCpuIds, writers, task, rt);
        return new OffHeapCpupri(Kind.of(variant), lineSize, nrCpuIds, writers, task, rt);
    }

    /** The CPU numbers of a {@code pinned} param, in its order, one per thread of the group. */
    static int[] pinned(String list, int writers) {
        int[] cpus;
        try {
            cpus = Arrays.stream(list.split("/")).map(String::strip).mapToInt(Integer::parseInt).toArray();
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("pinned=" + list + ": not CPU numbers separated by slashes (5/1/2)");
        }
        if (cpus.length != writers + 1) {
            throw new IllegalArgumentException("pinned=" + list + ": " + cpus.length + " CPUs for " + (writers + 1) + " threads");
        }
        if (Arrays.stream(cpus).distinct().count() != cpus.length || Arrays.stream(cpus).anyMatch(c -> c < 0)) {
            throw new IllegalArgumentException("pinned=" + list + ": each thread needs a CPU of its own");
        }
        return cpus;
    }

    /** The usable CPUs (online and allowed), limited to {@code cpus} when given. */
    static CpuMask usable(Topology topology, String cpus) {
        CpuMask usable = topology.usable();
        if (cpus == null || cpus.isBlank()) return usable;
        return CpuMask.parseList(cpus, usable.nbits()).and(usable);
    }

    /**
     * The reader's CPU, then one per writer: the placement's pair first, then the lowest free
     * usable CPUs. Fails when there are not enough CPUs: threads sharing a CPU would measure
     * the scheduler, not the cache.
     */
    static int[] choose(Topology topology, String placement, CpuMask usable, int writers) {
        if (writers < 0) throw new IllegalArgumentException("cpupri: " + writers + " writer threads");
        CpuPair pair = Placements.find(topology, usable, placement).orElseThrow(() -> new IllegalStateException(
                "placement " + placement + " is not available among CPUs " + usable.toList()));
        if (usable.weight() < writers + 1) {
            throw new IllegalStateException((writers + 1) + " threads need " + (writers + 1)
                    + " CPUs, but only " + usable.weight() + " are usable (" + usable.toList() + ")");
        }
        // no writer (-tg 1,0): the reader alone, a diagnostic of its own cost in each layout
        List<Integer> chosen = new ArrayList<>(writers == 0 ? List.of(pair.from()) : List.of(pair.from(), pair.to()));
        for (int cpu = usable.first(); chosen.size() < writers + 1; cpu = usable.next(cpu)) {
            if (!chosen.contains(cpu)) chosen.add(cpu);
        }
        return chosen.stream().mapToInt(Integer::intValue).toArray();
    }
}
