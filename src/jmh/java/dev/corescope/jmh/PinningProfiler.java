package dev.corescope.jmh;

import dev.corescope.affinity.CpuPreference;
import dev.corescope.affinity.CpuStrategy;
import dev.corescope.affinity.Reservation;
import dev.corescope.affinity.ReservationException;
import dev.corescope.affinity.Reservations;
import dev.corescope.cpumask.CpuMask;
import dev.corescope.sys.CpuNotAllowedException;
import dev.corescope.topology.Topology;
import dev.corescope.topology.UsableCpus;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.runner.BenchmarkException;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.ExternalProfiler;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.profile.ProfilerException;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;
import org.openjdk.jmh.runner.IterationType;

import java.io.File;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Pins the threads of any JMH benchmark by placement, with one command-line option and no
 * code in the benchmark:
 *
 * <pre>
 * java --enable-native-access=ALL-UNNAMED -jar target/benchmarks.jar MyBenchmark \
 *     -prof 'PinningProfiler:placement=same-l3' -rf json
 * </pre>
 *
 * <p>JMH thread index {@code i} (the threads of a {@code @Group} are numbered group by group)
 * runs on the {@code i}-th CPU of the plan. Options, separated by {@code ;} or {@code ,} before
 * a key: {@code placement=same-core|same-l3|other-l3|other-package|any|quiet},
 * {@code prefer=quiet|kernel-hints}, {@code cpus=LIST} (exactly those, in order),
 * {@code reserve=false} (do not reserve the CPUs through {@code affinity.Reservations} for each
 * fork), {@code counters=false} (no {@code perf_event_open}). Only the fork's benchmark threads
 * are pinned, each for its iteration task.
 *
 * <p>Per iteration it records, as secondary results, {@code ·pin} (the pinned threads, with
 * where each ran as its text), {@code ·pin.thread-N.cpu}, {@code ·pin.migrated} (threads that
 * migrated or ended on another CPU: 0 when pinning held) and the threads' summed
 * {@code ·pin.cpu-migrations} and {@code ·pin.context-switches}.
 *
 * <p>What this machine can never give ({@code placement=same-core} without SMT, {@code cpus=5}
 * on two CPUs) is refused before the run through JMH's profiler error path; what cannot be had
 * for one benchmark (CPUs another run holds) fails that benchmark alone, with one line on
 * standard error. Needs forked runs, and native access in the host JVM. docs/library.md
 * describes every option and result.
 *
 * @since 0.1.0
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

    /**
     * The profiler with its options, as JMH makes it from {@code -prof
     * PinningProfiler:OPTIONS}. A placement this machine can never give
     * ({@code placement=same-core} without SMT, {@code cpus=} outside the process's mask) is refused
     * here, so JMH stops before the run with one line.
     *
     * @param initLine the options (see the class comment); empty for the defaults
     * @throws ProfilerException when an option is unknown or malformed, or the placement impossible here
     */
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
                    case "cpus" -> cpus = cpusInOrder(value);
                    case "reserve" -> r = Boolean.parseBoolean(value);
                    case "counters" -> c = Boolean.parseBoolean(value);
                    default -> throw new ProfilerException("corescope pinning: unknown option '" + key
                            + "' (placement=same-core|same-l3|other-l3|other-package|any|quiet, prefer=quiet|kernel-hints, cpus=LIST, reserve=false, counters=false)");
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
        checkTheMachineCanGiveIt();
    }

    /**
     * {@code 1,0} as {@code [1, 0]}: thread i gets the i-th CPU as written (a range counts up),
     * not the CPUs in ascending order.
     */
    static int[] cpusInOrder(String list) {
        return Arrays.stream(list.split(","))
                .flatMapToInt(part -> Arrays.stream(CpuMask.parseList(part, 1 << 20).toArray())).toArray();
    }

    /**
     * Refuses what this machine can never give: CPUs outside the usable set, or a placement no
     * two usable CPUs here have. JMH prints a {@link ProfilerException} from the constructor as
     * one line and exits, its own error path for a profiler.
     */
    private void checkTheMachineCanGiveIt() throws ProfilerException {
        Topology t = Topology.live();
        UsableCpus use = UsableCpus.of(t);
        if (explicitCpus != null) {
            // named CPUs: any a pin may name (the cgroup's cpuset), as on the command line
            CpuMask named = CpuMask.ofCpus(explicitCpus);
            Optional<String> refused = use.refusal(named);
            if (refused.isPresent()) {
                throw new ProfilerException("corescope pinning: cpus=" + named.toList() + ": " + refused.get());
            }
            return;
        }
        if (quietPlacement || placement == CpuStrategy.ANY) return;
        // a placement relates the threads to the first: two CPUs so related must exist here
        CpuMask usable = use.usable();
        if (!placement.possibleOn(t, usable)) {
            throw new ProfilerException("corescope pinning: placement=" + placement.placementName()
                    + " cannot be given here: no two of the usable CPUs " + usable.toList() + " are so related (the second "
                    + placement.describe(usable.first()).replace("CPU " + usable.first(), "the first") + ")");
        }
    }

    /**
     * The profiler with the defaults ({@code placement=any}, reserving, counting).
     *
     * @throws ProfilerException as {@link #PinningProfiler(String)} with no options
     */
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

    /**
     * Plans and reserves the CPUs for the next fork and passes them to it, with
     * {@code --enable-native-access=ALL-UNNAMED} unless its JVM arguments grant it (a fork runs
     * on the class path, where a jar's manifest attribute does not count). CPUs that cannot be
     * had fail this benchmark through JMH's own path ({@link BenchmarkException}), with one line
     * on standard error.
     */
    @Override
    public synchronized Collection<String> addJVMOptions(BenchmarkParams params) {
        release();
        int[] cpus;
        try {
            cpus = plan(params.getThreads());
        } catch (ReservationException | CpuNotAllowedException e) {
            release();
            String why = "corescope pinning: " + params.getBenchmark() + " with " + params.getThreads() + " thread"
                    + (params.getThreads() == 1 ? "" : "s") + " not run: " + e.getMessage();
            System.err.println(why);
            throw new BenchmarkException(why, List.of());
        }
        String list = Arrays.stream(cpus).mapToObj(String::valueOf).collect(Collectors.joining(","));
        List<String> options = new ArrayList<>(List.of("-Djmh.executor=CUSTOM",
                "-Djmh.executor.class=" + PinningExecutor.class.getName(),
                "-D" + PinningExecutor.CPUS + "=" + list,
                "-D" + PinningExecutor.COUNTERS + "=" + counters));
        if (params.getJvmArgs().stream().noneMatch(a -> a.startsWith("--enable-native-access"))) {
            options.add("--enable-native-access=ALL-UNNAMED");
        }
        return options;
    }

    /** One CPU per JMH thread index, reserved unless {@code reserve=false}. */
    private int[] plan(int threads) {
        // the directory as configured now (-Dcorescope.reservations.dir may be set by the run),
        // not the one Reservations.shared() fixed when it was first used in this JVM
        Topology t = Topology.live();
        Reservations machine = Reservations.of(Reservations.configuredDirectory(), t, t.usable());
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
    public synchronized Collection<? extends Result<?>> afterTrial(BenchmarkResult br, long pid, File stdOut, File stdErr) {
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
    public Collection<? extends Result<?>> afterIteration(BenchmarkParams params, IterationParams iterationParams,
                                                          IterationResult result) {
        if (!PinningExecutor.active) {
            return List.of(new PinnedThreads(0, "threads NOT pinned: this JVM does not run JMH's threads through corescope's executor"
                    + " (forks=0, or -Djmh.executor set otherwise); run with forks >= 1\n"));
        }
        List<Result<?>> out = new ArrayList<>();
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
        // where each thread ran, as numbers, so the JSON results have it too (JMH writes a text
        // result's text only to the human-readable output)
        cpuOf.forEach((t, c) -> out.add(new ScalarResult("pin.thread-" + t + ".cpu", c, "CPU", AggregationPolicy.MAX)));
        if (refused == null && counters) {
            out.add(new ScalarResult("pin.cpu-migrations", migrations, "#", AggregationPolicy.AVG));
            out.add(new ScalarResult("pin.context-switches", switches, "#", AggregationPolicy.AVG));
        }
        StringBuilder text = new StringBuilder("threads pinned: ");
        cpuOf.forEach((t, c) -> text.append("thread ").append(t).append(" on CPU ").append(c).append("; "));
        text.append(placementText());
        if (refused != null) text.append("; counters refused by the kernel: ").append(refused).append(" (pinning checked with sched_getcpu only)");
        for (String n : notes) text.append("; ").append(n);
        // a number with the text (not a TextResult, whose summary row and JSON score are NaN);
        // JMH joins an iteration's texts into the run's: each different text once
        String now = text.append('\n').toString();
        if (iterationParams.getType() == IterationType.MEASUREMENT) {
            out.add(new PinnedThreads(cpuOf.size(), now.equals(lastText) ? "" : now));
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
