package dev.corescope.jitter;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.sys.PerfCounters;
import dev.corescope.sys.Pinning;
import dev.corescope.sys.internal.Os;
import dev.corescope.topology.Topology;
import dev.corescope.topology.TopologyNode;
import dev.corescope.topology.proc.CounterTable;
import dev.corescope.topology.proc.KernelHints;
import dev.corescope.topology.proc.SysfsReader;
import org.HdrHistogram.Histogram;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * Runs the probe on this machine: for each batch of CPUs (one CPU at a time, or CPUs that
 * share no core at once), a pinned platform thread per CPU warms up, then all spin for the
 * window while {@code /proc} is read just before and just after, with their own context
 * switches and migrations counted ({@code perf_event_open} software counters, no PMU needed).
 * The JVM's own threads (JIT, GC) may still run: they show as context switches.
 */
public final class JitterProbe {

    /** The default window per CPU: the whole probe stays a few seconds on a small machine. */
    public static final double DEFAULT_SECONDS = 2.0;
    /** Above this much spinning in total, CPUs sharing no core are measured together by default. */
    static final double MAX_SECONDS_IN_TURN = 20.0;

    /** How the CPUs are visited. */
    public enum Mode {
        /** One CPU at a time: nothing of the probe disturbs the CPU being measured. */
        IN_TURN,
        /** CPUs that share no core (no SMT sibling of each other) at the same time. */
        TOGETHER,
        /** In turn when the whole run stays under 20 s, together otherwise. */
        AUTO
    }

    /**
     * @param cpus       the CPUs to measure (each must be allowed)
     * @param seconds    the spinning window per CPU
     * @param mode       how to visit them
     * @param hypervisor the hypervisor's name, or null on bare metal: it changes how gaps are read
     */
    public record Options(CpuMask cpus, double seconds, Mode mode, String hypervisor) {
    }

    private final Path root;
    private final Topology topology;

    /** On this machine: {@code /proc} and {@code /sys} of {@code /}, and its live topology. */
    public JitterProbe() {
        this(Path.of("/"), Topology.live());
    }

    /** On this machine, with its topology already read. */
    public JitterProbe(Topology live) {
        this(Path.of("/"), live);
    }

    JitterProbe(Path root, Topology topology) {
        this.root = root;
        this.topology = topology;
    }

    /** Measures every CPU of {@code o.cpus()}; {@code progress} gets one line per batch. */
    public JitterReport run(Options o, Consumer<String> progress) throws InterruptedException {
        Mode mode = o.mode() == Mode.AUTO
                ? (o.cpus().weight() * o.seconds() <= MAX_SECONDS_IN_TURN ? Mode.IN_TURN : Mode.TOGETHER)
                : o.mode();
        List<int[]> batches = mode == Mode.IN_TURN ? inTurn(o.cpus()) : sharingNoCore(o.cpus(), topology);
        KernelHints hints = KernelHints.read(new SysfsReader(root), Math.max(topology.nbits(), o.cpus().nbits()));
        List<CpuJitter> rows = new ArrayList<>();
        List<JitterReport.NotMeasured> notMeasured = new ArrayList<>();
        List<JitterReport.Unread> unread = new ArrayList<>();
        int done = 0;
        for (int[] batch : batches) {
            progress.accept("jitter: " + (batch.length == 1 ? "CPU " + batch[0] : "CPUs " + join(batch))
                    + String.format(Locale.ROOT, " for %.1f s", o.seconds())
                    + " (" + (done + batch.length) + " of " + o.cpus().weight() + ")");
            rows.addAll(measure(batch, o, hints, notMeasured, unread));
            done += batch.length;
        }
        List<CpuJitter> ranked = Ranking.rank(rows);
        return new JitterReport(mode == Mode.IN_TURN ? "in turn" : "together (CPUs sharing no core at once)", o.seconds(),
                o.hypervisor(), kernelSummary(hints), ranked, Ranking.quietestFirst(ranked), notMeasured, unread, List.of());
    }

    private static Map<String, String> kernelSummary(KernelHints h) {
        Map<String, String> k = new LinkedHashMap<>();
        for (String opt : new String[] {"isolcpus", "nohz_full", "rcu_nocbs", "irqaffinity"}) {
            k.put(opt, h.cmdline().getOrDefault(opt, ""));
        }
        k.put("isolated", h.isolated().toList());
        k.put("nohzFullActive", h.nohzFull().toList());
        return k;
    }

    private static List<int[]> inTurn(CpuMask cpus) {
        return Arrays.stream(cpus.toArray()).mapToObj(cpu -> new int[] {cpu}).toList();
    }

    /**
     * Batches in which no two CPUs are SMT siblings (share a core): the k-th batch takes the
     * k-th measured PU of every core. CPUs the topology does not place are measured alone.
     */
    static List<int[]> sharingNoCore(CpuMask cpus, Topology t) {
        List<List<Integer>> batches = new ArrayList<>();
        Map<Integer, Integer> seenPerCore = new LinkedHashMap<>();
        for (int cpu : cpus.toArray()) {
            var core = t.nodeOf(TopologyNode.Kind.CORE, cpu);
            int key = core.map(c -> c.cpus().first()).orElse(-1 - cpu);
            int k = seenPerCore.merge(key, 1, Integer::sum) - 1;
            while (batches.size() <= k) batches.add(new ArrayList<>());
            batches.get(k).add(cpu);
        }
        return batches.stream().map(b -> b.stream().mapToInt(Integer::intValue).toArray()).toList();
    }

    /** What one spinning thread brings back. */
    private static final class Spinner {
        final int cpu;
        long clockCost;
        long threshold;
        GapSampler.Gaps gaps;
        Long contextSwitches;
        Long migrations;
        String failure;

        Spinner(int cpu) {
            this.cpu = cpu;
        }
    }

    private List<CpuJitter> measure(int[] batch, Options o, KernelHints hints, List<JitterReport.NotMeasured> notMeasured,
                                    List<JitterReport.Unread> unread) throws InterruptedException {
        ProcSnapshot[] snaps = new ProcSnapshot[2];
        long[] windowNs = new long[2];
        CyclicBarrier start = new CyclicBarrier(batch.length, () -> {
            snaps[0] = ProcSnapshot.read(root);
            windowNs[0] = System.nanoTime();
        });
        CyclicBarrier end = new CyclicBarrier(batch.length, () -> {
            windowNs[1] = System.nanoTime();
            snaps[1] = ProcSnapshot.read(root);
        });
        long durationNs = Math.round(o.seconds() * 1e9);
        List<Spinner> spinners = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int cpu : batch) {
            Spinner s = new Spinner(cpu);
            spinners.add(s);
            Thread t = Thread.ofPlatform().name("jitter-cpu" + cpu).daemon().unstarted(() -> spin(s, durationNs, start, end));
            threads.add(t);
        }
        for (Thread t : threads) t.start();
        try {
            for (Thread t : threads) t.join();
        } catch (InterruptedException e) {
            for (Thread t : threads) t.interrupt();
            throw e;
        }
        List<CpuJitter> rows = new ArrayList<>();
        if (snaps[0] == null || snaps[1] == null) {
            for (Spinner s : spinners) notMeasured.add(new JitterReport.NotMeasured(s.cpu, s.failure));
            return rows;
        }
        for (JitterReport.Unread u : snaps[1].unread()) if (!unread.contains(u)) unread.add(u);
        double window = (windowNs[1] - windowNs[0]) / 1e9;
        CounterTable irqs = snaps[1].interruptsSince(snaps[0]);
        CounterTable soft = snaps[1].softirqsSince(snaps[0]);
        String batchList = join(batch);
        for (Spinner s : spinners) {
            if (s.failure != null) {
                notMeasured.add(new JitterReport.NotMeasured(s.cpu, s.failure));
                continue;
            }
            Double steal = null;
            if (snaps[0].times() != null && snaps[1].times() != null) {
                var p = snaps[1].times().stealPercentSince(snaps[0].times(), s.cpu);
                if (p.isPresent()) steal = p.getAsDouble();
            }
            rows.add(row(s.cpu, batchList, s.gaps, window, irqs, soft, steal, s.contextSwitches, s.migrations, hints, o.hypervisor()));
        }
        return rows;
    }

    private static void spin(Spinner s, long durationNs, CyclicBarrier start, CyclicBarrier end) {
        Pinning pinned = null;
        try {
            try {
                pinned = Os.live().pinChecked(s.cpu);
                s.clockCost = GapSampler.warmUpAndCalibrate();
                s.threshold = GapSampler.thresholdFor(s.clockCost);
            } catch (RuntimeException e) {
                s.failure = String.valueOf(e.getMessage());
            }
            start.await();
            if (s.failure == null) {
                PerfCounters.Session counters = null;
                try {
                    counters = PerfCounters.start(List.of(PerfCounters.Event.CONTEXT_SWITCHES, PerfCounters.Event.CPU_MIGRATIONS));
                } catch (RuntimeException e) {
                    // counters are evidence, not the measurement: without them the row says "not counted"
                }
                s.gaps = GapSampler.sample(durationNs, s.clockCost, s.threshold);
                if (counters != null) {
                    for (PerfCounters.Count c : counters.stop()) {
                        if (c.event() == PerfCounters.Event.CONTEXT_SWITCHES) s.contextSwitches = c.value();
                        if (c.event() == PerfCounters.Event.CPU_MIGRATIONS) s.migrations = c.value();
                    }
                }
            }
            end.await();
        } catch (InterruptedException | BrokenBarrierException e) {
            if (s.failure == null) s.failure = "interrupted";
        } finally {
            if (pinned != null) pinned.close();
        }
    }

    /** One row from a window's measurements. */
    static CpuJitter row(int cpu, String batch, GapSampler.Gaps g, double windowSeconds, CounterTable irqs, CounterTable soft,
                         Double steal, Long contextSwitches, Long migrations, KernelHints hints, String hypervisor) {
        Histogram h = g.histogram();
        double seconds = g.elapsedNs() / 1e9;
        long over1 = countAbove(h, 1_000);
        long over10 = countAbove(h, 10_000);
        long over100 = countAbove(h, 100_000);
        List<Cause> causes = Attribution.causes(cpu, windowSeconds, irqs, soft, steal, contextSwitches, hints);
        String likely = Attribution.likelyCause(causes, over10, over100, windowSeconds, hypervisor);
        return new CpuJitter(cpu, 0, batch, round(seconds, 3), g.clockCostNs(), g.thresholdNs(), h.getTotalCount(),
                round(over1 / seconds, 2), round(over10 / seconds, 2), round(over100 / seconds, 2),
                h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(99.0),
                h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(99.99),
                h.getMaxValue(), round(100.0 * g.lostNs() / Math.max(1, g.elapsedNs()), 4),
                steal == null ? null : round(steal, 2), contextSwitches, migrations,
                hints == null ? "" : hints.flagsOf(cpu), causes, likely);
    }

    /** Recorded gaps strictly longer than {@code ns} (to the histogram's 3 significant digits). */
    static long countAbove(Histogram h, long ns) {
        if (h.getTotalCount() == 0 || h.getMaxValue() <= ns) return 0;
        return h.getCountBetweenValues(h.nextNonEquivalentValue(ns), h.getMaxValue());
    }

    private static double round(double v, int digits) {
        double f = Math.pow(10, digits);
        return Math.round(v * f) / f;
    }

    private static String join(int[] cpus) {
        return Arrays.stream(cpus).mapToObj(String::valueOf).collect(Collectors.joining(","));
    }
}
