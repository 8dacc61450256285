package dev.corescope.jmh;

import dev.corescope.affinity.CpuPreference;
import dev.corescope.affinity.CpuStrategy;
import dev.corescope.affinity.Reservation;
import dev.corescope.affinity.Reservations;
import dev.corescope.cpumask.CpuMask;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.ExternalProfiler;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.profile.ProfilerException;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;
import org.openjdk.jmh.results.TextResult;
import org.openjdk.jmh.runner.IterationType;

import java.io.File;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Pins the threads of any JMH benchmark by placement, with one command-line option and no
 * code in the benchmark:
 *
 * <pre>
 * java -jar benchmarks.jar FalseSharing -prof dev.corescope.jmh.PinningProfiler:placement=smt
 * </pre>
 *
 * <p>JMH thread index {@code i} (the threads of a {@code @Group} are numbered group by group)
 * runs on the {@code i}-th CPU of the plan: {@code placement=smt} (SMT siblings),
 * {@code same-l3}, {@code cross-l3}, {@code cross-package}, {@code any} (first CPU by
 * preference, each further thread related to it so), {@code quiet} (the quietest CPUs, measured
 * for 200 ms before each fork: {@link CpuPreference#QUIET}), or {@code cpus=2,3} (exactly
 * those). {@code prefer=quiet} measures the same way and keeps the placement's relation, e.g.
 * {@code placement=same-l3;prefer=quiet}.
 * The host JVM reserves the CPUs ({@code affinity.Reservations}) for the time of each fork,
 * so two benchmark runs on one machine do not share them; the fork inherits the host's
 * affinity mask and only its benchmark threads are pinned, each for the duration of its
 * iteration task, so nothing stays pinned after the run.
 *
 * <p>Per iteration it records, as secondary results, the benchmark threads' own
 * {@code perf_event_open} software counters: {@code ·pin.cpu-migrations} and
 * {@code ·pin.context-switches} (summed over threads), and {@code ·pin.migrated}, the number of
 * pinned threads that migrated during the iteration or ended it on another CPU (0 when pinning
 * held). Where the kernel refuses the counters, {@code ·pin.migrated} still comes from
 * {@code sched_getcpu}, and the text result says why the counters are missing. Options:
 * {@code placement=NAME}, {@code prefer=quiet|kernel-hints}, {@code cpus=LIST}, {@code reserve=false}, {@code counters=false},
 * separated by {@code ;} or {@code ,} before a key.
 *
 * <p>Needs forked runs (the default): the pinning is set up through the fork's JVM options.
 */
public final class PinningProfiler implements ExternalProfiler, InternalProfiler {

    private final CpuStrategy placement;
    private final CpuPreference preference;
    private final boolean quietPlacement;
    private final int[] explicitCpus;
    private final boolean reserve;
    private final boolean counters;
    private final List<Reservation> held = new ArrayList<>();
    private String lastText;

    public PinningProfiler(String initLine) throws ProfilerException {
        CpuStrategy p = CpuStrategy.ANY;
        CpuPreference pref = CpuPreference.KERNEL_HINTS;
        boolean quiet = false;
        int[] cpus = null;
        boolean r = true;
        boolean c = true;
        for (String opt : initLine.split(";|,(?=[a-z]+=)")) {
            if (opt.isBlank()) continue;
            int eq = opt.indexOf('=');
            String key = eq < 0 ? opt.strip() : opt.substring(0, eq).strip();
            String value = eq < 0 ? "" : opt.substring(eq + 1).strip();
            try {
                switch (key) {
                    case "placement" -> {
                        quiet = value.equals("quiet");
                        if (quiet) pref = CpuPreference.QUIET;
                        else p = CpuStrategy.of(value);
                    }
                    case "prefer" -> pref = switch (value) {
                        case "quiet" -> CpuPreference.QUIET;
                        case "kernel-hints" -> CpuPreference.KERNEL_HINTS;
                        default -> throw new IllegalArgumentException("not one of quiet, kernel-hints");
                    };
                    case "cpus" -> cpus = CpuMask.parseList(value, 1 << 20).toArray();
                    case "reserve" -> r = Boolean.parseBoolean(value);
                    case "counters" -> c = Boolean.parseBoolean(value);
                    default -> throw new ProfilerException("corescope pinning: unknown option '" + key
                            + "' (placement=smt|same-l3|cross-l3|cross-package|any|quiet, prefer=quiet|kernel-hints, cpus=LIST, reserve=false, counters=false)");
                }
            } catch (IllegalArgumentException e) {
                throw new ProfilerException("corescope pinning: " + key + "=" + value + ": " + e.getMessage());
            }
        }
        this.placement = p;
        this.preference = pref;
        this.quietPlacement = quiet;
        this.explicitCpus = cpus;
        this.reserve = r;
        this.counters = c;
    }

    public PinningProfiler() throws ProfilerException {
        this("");
    }

    @Override
    public String getDescription() {
        return "corescope: pins benchmark threads by placement, counts their migrations and context switches";
    }

    // ---- host JVM: plan the CPUs, hand them to the fork --------------------------------

    @Override
    public Collection<String> addJVMInvokeOptions(BenchmarkParams params) {
        return List.of();
    }

    @Override
    public synchronized Collection<String> addJVMOptions(BenchmarkParams params) {
        release();
        int[] cpus = plan(params.getThreads());
        StringBuilder list = new StringBuilder();
        for (int cpu : cpus) list.append(list.isEmpty() ? "" : ",").append(cpu);
        return List.of("-Djmh.executor=CUSTOM",
                "-Djmh.executor.class=" + PinningExecutor.class.getName(),
                "-D" + PinningExecutor.CPUS + "=" + list,
                "-D" + PinningExecutor.COUNTERS + "=" + counters);
    }

    /** One CPU per JMH thread index, reserved unless {@code reserve=false}. */
    private int[] plan(int threads) {
        Reservations machine = Reservations.shared();
        if (explicitCpus != null) {
            if (reserve) for (int cpu : explicitCpus) held.add(machine.reserveCpu(cpu));
            int[] out = new int[threads];
            for (int i = 0; i < threads; i++) out[i] = explicitCpus[i % explicitCpus.length];
            return out;
        }
        if (preference == CpuPreference.QUIET) machine = machine.preferring(CpuPreference.QUIET);
        List<Reservation> group = machine.reserveGroup(threads, placement);
        int[] out = new int[threads];
        for (int i = 0; i < threads; i++) out[i] = group.get(i).cpu();
        if (reserve) held.addAll(group);
        else group.forEach(Reservation::close);
        return out;
    }

    @Override
    public void beforeTrial(BenchmarkParams params) {
    }

    @Override
    public synchronized Collection<? extends Result> afterTrial(BenchmarkResult br, long pid, File stdOut, File stdErr) {
        release();
        return List.of();
    }

    private void release() {
        held.forEach(Reservation::close);
        held.clear();
    }

    @Override
    public boolean allowPrintOut() {
        return true;
    }

    @Override
    public boolean allowPrintErr() {
        return true;
    }

    // ---- fork: per-iteration results from the pinned tasks -----------------------------

    @Override
    public void beforeIteration(BenchmarkParams params, IterationParams iterationParams) {
        PinningExecutor.LOG.clear();
    }

    @Override
    public Collection<? extends Result> afterIteration(BenchmarkParams params, IterationParams iterationParams,
                                                       org.openjdk.jmh.results.IterationResult result) {
        List<Result> out = new ArrayList<>();
        if (!PinningExecutor.active) {
            out.add(new TextResult("threads NOT pinned: this JVM does not run JMH's threads through corescope's executor"
                    + " (forks=0, or -Djmh.executor set otherwise); run with forks >= 1", "pin"));
            return out;
        }
        List<PinningExecutor.TaskRecord> records = new ArrayList<>(PinningExecutor.LOG);
        PinningExecutor.LOG.clear();
        long migrations = 0;
        long switches = 0;
        int migrated = 0;
        String refused = null;
        Map<Integer, Integer> cpuOf = new TreeMap<>();
        TreeSet<String> notes = new TreeSet<>();
        for (PinningExecutor.TaskRecord r : records) {
            cpuOf.put(r.threadIndex(), r.cpu());
            if (r.migrations() != null) migrations += r.migrations();
            if (r.contextSwitches() != null) switches += r.contextSwitches();
            if (r.countersRefused() != null) refused = r.countersRefused();
            if (r.bindingNote() != null) notes.add(r.bindingNote());
            if (r.endCpu() != r.cpu() || (r.migrations() != null && r.migrations() > 0)) migrated++;
        }
        out.add(new ScalarResult("pin.migrated", migrated, "threads", AggregationPolicy.MAX));
        if (refused == null && counters) {
            out.add(new ScalarResult("pin.cpu-migrations", migrations, "#", AggregationPolicy.AVG));
            out.add(new ScalarResult("pin.context-switches", switches, "#", AggregationPolicy.AVG));
        }
        StringBuilder text = new StringBuilder("threads pinned: ");
        cpuOf.forEach((t, c) -> text.append("thread ").append(t).append(" on CPU ").append(c).append("; "));
        text.append(placementText());
        if (refused != null) text.append("; counters refused by the kernel: ").append(refused).append(" (pinning checked with sched_getcpu only)");
        for (String n : notes) text.append("; ").append(n);
        // JMH joins an iteration's text results into the run's: each different text once
        String now = text.append('\n').toString();
        if (iterationParams.getType() == IterationType.MEASUREMENT && !now.equals(lastText)) {
            out.add(new TextResult(now, "pin"));
            lastText = now;
        }
        return out;
    }

    private String placementText() {
        if (explicitCpus != null) return "cpus given";
        if (quietPlacement) return "placement quiet";
        return "placement " + placement.placementName() + (preference == CpuPreference.QUIET ? ", quietest first" : "");
    }

}
