package dev.corescope.bench;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.report.SeedVerdicts;
import dev.corescope.sys.internal.Os;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * How a family's run was set up, as data its model saves ({@code setup}) and its view words: the CPUs of
 * {@code --cpus} (a cpulist, null when unpinned) and the allowed ones, the load average before the run
 * (1, 5 and 15 minutes, null where unreadable) and the CPUs this JVM saw, the JMH settings, those of the
 * rows a claim counts ({@link Jmh.Settings#forClaim}) and the run's size.
 */
public record RunSetup(String pinned, String allowed, List<Double> loadAverage, int cpus, Jmh.Settings jmh, Jmh.Settings claimJmh,
                       RunSize size) {

    /** A live run's: {@code cpus} of {@code --cpus}, the allowed CPUs through {@code os}, this machine's load now. */
    public static RunSetup of(Os os, Optional<CpuMask> cpus, RunSize size, Jmh.Settings jmh) {
        return new RunSetup(cpus.map(CpuMask::toList).orElse(null), os.processAllowed().toList(),
                MachineLoad.averages(Path.of("/")).orElse(null), Runtime.getRuntime().availableProcessors(), jmh,
                jmh.forClaim(SeedVerdicts.RUNS_PER_SIDE), size);
    }

    /** {@link #of(Os, Optional, RunSize, Jmh.Settings)} of a family's context. */
    public static RunSetup of(BenchContext ctx, Jmh.Settings jmh) {
        return of(ctx.os(), ctx.cpus(), ctx.size(), jmh);
    }

    /** Pinned where, or unpinned among which CPUs, in a line. */
    public String pinning() {
        if (pinned != null) return "pinned to CPU" + (single(pinned) ? " " : "s ") + pinned + " (--cpus)";
        return single(allowed) ? "unpinned, but only CPU " + allowed + " is allowed"
                : "unpinned: the scheduler may move the measuring thread between CPUs " + allowed + " (pin with --cpus)";
    }

    /** {@code load average 1.20 0.80 0.50 (1, 5, 15 min) on 2 CPUs}, or null when it was not known. */
    public String load() {
        return loadAverage == null ? null : String.format(Locale.ROOT, "load average %.2f %.2f %.2f (1, 5, 15 min) on %d CPUs",
                loadAverage.get(0), loadAverage.get(1), loadAverage.get(2), cpus);
    }

    /** The JMH settings in a line, {@code per} what one JMH run measures ({@code "variant"}). */
    public String jmhWords(String per) {
        return "JMH " + jmh.forks() + " fork" + (jmh.forks() == 1 ? "" : "s") + " x " + jmh.measurementIterations() + " x "
                + jmh.measurementMillis() + " ms (warm-up " + jmh.warmupIterations() + " x " + jmh.warmupMillis() + " ms) per " + per
                + (claimJmh.equals(jmh) ? "" : "; rows the time claim counts: " + claimJmh.forks() + " forks x "
                + claimJmh.measurementIterations() + " x " + jmh.measurementMillis() + " ms") + size.note();
    }

    private static boolean single(String cpulist) {
        return !cpulist.contains(",") && !cpulist.contains("-");
    }
}
