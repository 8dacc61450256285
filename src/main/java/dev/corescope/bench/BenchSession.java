package dev.corescope.bench;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.report.Counters;
import dev.corescope.report.Environment;
import dev.corescope.report.EnvironmentProbe;
import dev.corescope.report.Histogram;
import dev.corescope.report.Json;
import dev.corescope.report.Layout;
import dev.corescope.report.MachineCode;
import dev.corescope.report.MachineSummary;
import dev.corescope.report.MachineTopology;
import dev.corescope.report.Matrix;
import dev.corescope.report.Result;
import dev.corescope.report.ResultsFile;
import dev.corescope.report.SeedVerdicts;
import dev.corescope.sys.PerfCounters;

import com.fasterxml.jackson.databind.JsonNode;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Runs benchmark families one after another on a worker thread, the way {@code bench} and the
 * tour need it: each family with {@code perf_event_open} counters around it; a family that
 * throws is recorded as a failure and the next one still runs; {@link #abort} (Ctrl-C, from a
 * shutdown hook) interrupts the worker and waits for it, so families stop their threads and
 * unpin in their {@code finally} blocks, and {@link #resultsFile()} still has every family
 * that finished.
 *
 * <p>The worker thread is not pinned: {@code --cpus} ({@link BenchContext#cpus()}) is each
 * family's to apply to the threads it measures, leaving the JIT and GC threads of its forked
 * JVMs free, and the counters count those too. To keep every thread of a run on one CPU (and
 * see {@code cpu-migrations} read 0), pin the whole process: {@code ./run.sh pin --cpus 1 --
 * ./run.sh bench NAME}. After each family the worker thread's affinity is compared with what
 * it was before; a family that left it changed is recorded as failed and the mask is put back.
 *
 * <p><b>Note:</b> {@link #run()} is called once, by one thread; {@link #abort} and
 * {@link #resultsFile()} may be called from any thread (a shutdown hook) at any time.
 */
public final class BenchSession {

    /** What a caller hears while the session runs (progress lines, a bar). */
    public interface Listener {
        Listener NONE = new Listener() {
        };

        default void familyStarted(int index, int total, BenchFamily family) {
        }

        default void familyFinished(int index, int total, BenchFamily family, ResultsFile.Failure failure) {
        }

        /** {@code first}, then {@code second}, for each event. */
        static Listener both(Listener first, Listener second) {
            return new Listener() {
                @Override
                public void familyStarted(int index, int total, BenchFamily family) {
                    first.familyStarted(index, total, family);
                    second.familyStarted(index, total, family);
                }

                @Override
                public void familyFinished(int index, int total, BenchFamily family, ResultsFile.Failure failure) {
                    first.familyFinished(index, total, family, failure);
                    second.familyFinished(index, total, family, failure);
                }
            };
        }
    }

    private final List<BenchFamily> families;
    private final BenchContext context;
    private final EnvironmentProbe probe;
    private final Listener listener;
    private final Supplier<MachineTopology> topologyReader;
    private MachineTopology topology;

    private final List<FamilyRun> runs = new ArrayList<>();
    private final List<Counters> counters = new ArrayList<>();
    private final List<MachineCode> code = new ArrayList<>();
    private final List<ResultsFile.Failure> failures = new ArrayList<>();
    private int processed;
    private EnvironmentProbe.Start start;
    private Thread worker;
    private volatile String abortReason;
    private volatile boolean finished;

    public BenchSession(List<BenchFamily> families, BenchContext context, EnvironmentProbe probe, Listener listener) {
        this(families, context, probe, listener, () -> null);
    }

    /** @param topology reads the machine's topology once, at the start, for the results file */
    public BenchSession(List<BenchFamily> families, BenchContext context, EnvironmentProbe probe, Listener listener,
                        Supplier<MachineTopology> topology) {
        this.families = List.copyOf(families);
        this.context = context;
        this.probe = probe;
        this.listener = listener == null ? Listener.NONE : listener;
        this.topologyReader = topology;
    }

    /**
     * Runs every family and returns when all have finished or failed, or the session was
     * aborted. Failures are in {@link #resultsFile()}, not thrown.
     */
    public void run() throws InterruptedException {
        synchronized (this) {
            if (worker != null) throw new IllegalStateException("a session runs once");
            start = probe.start(Instant.now());
            try {
                topology = topologyReader.get();
            } catch (RuntimeException e) {
                topology = MachineTopology.unreadable(describe(e));
            }
            worker = new Thread(this::runAll, "corescope-bench");
        }
        worker.start();
        try {
            worker.join();
        } catch (InterruptedException e) {
            abort("the calling thread was interrupted", Duration.ofSeconds(10));
            throw e;
        }
    }

    /**
     * Stops the run: interrupts the worker and waits up to {@code wait} for it to finish its
     * {@code finally} blocks. Returns true when the session was still running.
     */
    public boolean abort(String reason, Duration wait) {
        Thread w;
        synchronized (this) {
            if (worker == null || finished) return false;
            if (abortReason == null) abortReason = reason;
            w = worker;
        }
        w.interrupt();
        try {
            w.join(wait.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return true;
    }

    /** Whether {@link #abort} stopped this session. */
    public boolean aborted() {
        return abortReason != null;
    }

    /** The failures so far. */
    public synchronized List<ResultsFile.Failure> failures() {
        return List.copyOf(failures);
    }

    /** The families that finished, in order. */
    public synchronized List<FamilyRun> runs() {
        return List.copyOf(runs);
    }

    /**
     * The results file of everything that finished so far, with the environment measured from
     * the start until now; families that did not finish are in {@code failures}.
     */
    public synchronized ResultsFile resultsFile() {
        List<Result> results = new ArrayList<>();
        List<Layout> layouts = new ArrayList<>();
        List<Histogram> histograms = new ArrayList<>();
        Matrix matrix = null;
        Map<String, JsonNode> models = new LinkedHashMap<>();
        for (FamilyRun r : runs) {
            if (r.model() != null) models.put(r.family(), Json.MAPPER.valueToTree(r.model()));
            results.addAll(r.results());
            layouts.addAll(r.layouts());
            histograms.addAll(r.histograms());
            if (r.matrix() != null) matrix = r.matrix();
        }
        List<ResultsFile.Failure> allFailures = new ArrayList<>(failures);
        if (!finished) allFailures.addAll(unfinished(abortReason == null ? "still running" : abortReason));
        Environment env = start == null ? null : probe.finish(start, Instant.now(), pinnedCpus(results));
        ResultsFile file = ResultsFile.builder().environment(env).results(results)
                .layouts(layouts).histograms(histograms).matrix(matrix).failures(allFailures).counters(counters).topology(topology).code(code).models(models).build();
        ResultsFile withClaims = file.withClaims(SeedVerdicts.evaluate(file, Families.claims(families), Families.allowances(families)));
        return withClaims.toBuilder().machine(MachineSummary.compute(withClaims, Families.relationLatencies(families, withClaims))).build();
    }

    /** Failures for the families from {@link #processed} on: the one running, then those not started. */
    private List<ResultsFile.Failure> unfinished(String why) {
        List<ResultsFile.Failure> out = new ArrayList<>();
        for (int i = processed; i < families.size(); i++) {
            out.add(new ResultsFile.Failure(families.get(i).name(),
                    (i == processed && worker != null ? "interrupted before it finished: " : "not run: ") + why));
        }
        return out;
    }

    private void runAll() {
        try {
            CpuMask before = context.os().allowed();
            for (int i = 0; i < families.size(); i++) {
                BenchFamily f = families.get(i);
                if (Thread.currentThread().isInterrupted() && abortReason == null) abortReason = "interrupted";
                if (abortReason != null) break;
                listener.familyStarted(i, families.size(), f);
                ResultsFile.Failure failure = runOne(f);
                if (failure == null) failure = checkAffinity(f, before);
                synchronized (this) {
                    if (failure != null) failures.add(failure);
                    processed = i + 1;
                }
                listener.familyFinished(i, families.size(), f, failure);
            }
        } catch (RuntimeException e) {
            synchronized (this) {
                if (abortReason == null) abortReason = "the run could not start: " + describe(e);
            }
        } finally {
            synchronized (this) {
                if (abortReason != null) {
                    for (int i = processed; i < families.size(); i++) {
                        failures.add(new ResultsFile.Failure(families.get(i).name(), "not run: " + abortReason));
                    }
                }
                processed = families.size();
                finished = true;
            }
        }
    }

    /** Runs one family; null when it finished, else why not. */
    private ResultsFile.Failure runOne(BenchFamily f) {
        PerfCounters.Session perf = null;
        String perfFailure = null;
        try {
            perf = context.os().startCounters();
        } catch (RuntimeException e) {
            perfFailure = describe(e);
        }
        try {
            FamilyRun run = f.run(context);
            List<PerfCounters.Count> counts = perf == null ? null : perf.stop();
            if (abortReason != null) {
                return new ResultsFile.Failure(f.name(), "interrupted before it finished: " + abortReason);
            }
            List<MachineCode> machineCode = MachineCodeReader.read(f.name(), f.measuredFunctions(), f.javaCodeBenchmarks());
            synchronized (this) {
                runs.add(run);
                counters.add(toCounters(f.name(), counts, perfFailure));
                code.addAll(machineCode);
            }
            return null;
        } catch (Throwable t) {
            if (perf != null) perf.close();
            if (abortReason != null) {
                return new ResultsFile.Failure(f.name(), "interrupted before it finished: " + abortReason);
            }
            if (t instanceof VirtualMachineError vme) {
                synchronized (this) {
                    abortReason = "stopped after " + vme.getClass().getSimpleName() + " in " + f.name();
                }
            }
            return new ResultsFile.Failure(f.name(), describe(t));
        }
    }

    private ResultsFile.Failure checkAffinity(BenchFamily f, CpuMask before) {
        CpuMask after = context.os().allowed();
        if (after.sameCpus(before)) return null;
        context.os().setAllowed(before);
        return new ResultsFile.Failure(f.name(), "left its thread pinned to CPUs " + after.toList()
                + " (corescope put back " + before.toList() + "); its results were kept");
    }

    private static Counters toCounters(String family, List<PerfCounters.Count> counts, String perfFailure) {
        List<Counters.Counter> list = new ArrayList<>();
        if (counts == null) {
            for (PerfCounters.Event e : PerfCounters.Event.values()) {
                list.add(new Counters.Counter(e.perfName(), e.unit(), null, null, null, perfFailure));
            }
        } else {
            for (PerfCounters.Count c : counts) {
                list.add(new Counters.Counter(c.event().perfName(), c.event().unit(), c.value(),
                        c.available() && c.runningPercent() < 100.0 ? c.runningPercent() : null,
                        c.userOnly() ? Boolean.TRUE : null, c.unavailable()));
            }
        }
        return new Counters(family, Counters.SCOPE_FAMILY_THREAD_INHERIT, list);
    }

    /** The union of the CPUs the results were pinned to, or null when none says. */
    static CpuMask pinnedCpus(List<Result> results) {
        CpuMask all = null;
        for (Result r : results) {
            if (r.cpus() == null || r.cpus().isBlank()) continue;
            try {
                CpuMask m = CpuMask.parseList(r.cpus(), 1 << 16);
                all = all == null ? m : all.or(m);
            } catch (IllegalArgumentException ignored) {
                // a malformed cpus field pins nothing we can name
            }
        }
        return all;
    }

    /** One line: the exception's type and message, and the root cause's when it differs. */
    public static String describe(Throwable t) {
        String top = t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) root = root.getCause();
        if (root != t && root.getMessage() != null && (t.getMessage() == null || !t.getMessage().contains(root.getMessage()))) {
            top += "; caused by " + root.getClass().getSimpleName() + ": " + root.getMessage();
        }
        return top.replace('\n', ' ').replace('\r', ' ');
    }
}
