package dev.corescope.bench;

import dev.corescope.report.Claim;
import dev.corescope.report.SeedVerdicts;
import org.openjdk.jmh.results.RunResult;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The Java rows of one family run: each a JMH run of one benchmark method at the run's settings,
 * its forks pinned to {@code --cpus} ({@link ForkPinning}), its undisturbed iterations kept
 * ({@link UndisturbedIterations}); a row a claim counts gets the claim's forks in every mode, since
 * runs are the unit of its interval ({@link Jmh.Settings#forClaim}).
 */
public final class JavaRows {

    private final BenchFamily family;
    private final BenchContext ctx;
    private final Class<?> benchmark;
    private final Jmh.Settings settings;
    private final List<UndisturbedIterations> iterations = new ArrayList<>();

    public JavaRows(BenchFamily family, BenchContext ctx, Class<?> benchmark, Jmh.Settings settings) {
        this.family = family;
        this.ctx = ctx;
        this.benchmark = benchmark;
        this.settings = settings;
    }

    /** The row of {@code method} run with {@code jmhParams}, saved with {@code params}; {@code step} names it in the progress. */
    public Measured measure(String method, Map<String, String[]> jmhParams, Map<String, Object> params, String step) throws Exception {
        Jmh.Settings s = Claim.counts(family.claims(), family.name(), method, "java", "op", params)
                ? settings.forClaim(SeedVerdicts.RUNS_PER_SIDE) : settings;
        Collection<RunResult> runs = ForkPinning.withProperty(ctx.cpus(),
                () -> Jmh.run(benchmark, method, jmhParams, s, ForkPinning.jvmArgs(ctx.cpus())));
        UndisturbedIterations u = UndisturbedIterations.of(runs.iterator().next());
        iterations.add(u);
        ctx.progress().step(step);
        return Measured.java(family.name(), method, u, ForkPinning.cpusField(ctx.cpus()), params);
    }

    /** The iterations left out over the rows measured so far. */
    public Undisturbed undisturbed() {
        return Undisturbed.ofIterations(iterations);
    }

    /** The settings in a line, {@code per} what one JMH run measures ({@code "variant"}), with the claim rows' and the run size's. */
    public String settingsWords(String per) {
        Jmh.Settings claim = settings.forClaim(SeedVerdicts.RUNS_PER_SIDE);
        return "JMH " + settings.forks() + " fork" + (settings.forks() == 1 ? "" : "s") + " x " + settings.measurementIterations()
                + " x " + settings.measurementMillis() + " ms (warm-up " + settings.warmupIterations() + " x " + settings.warmupMillis()
                + " ms) per " + per + (claim == settings ? "" : "; rows the time claim counts: " + claim.forks() + " forks x "
                + claim.measurementIterations() + " x " + settings.measurementMillis() + " ms") + ctx.size().note();
    }
}
