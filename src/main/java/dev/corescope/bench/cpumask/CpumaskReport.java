package dev.corescope.bench.cpumask;

import dev.corescope.bench.Figure;
import dev.corescope.bench.Measured;
import dev.corescope.cpumask.CpuMask;
import dev.corescope.report.Result;
import dev.corescope.report.TextTable;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What {@code bench cpumask} measured, live: the comparisons, splits and code sizes, the notes
 * that read them ({@link #notes()}), and the {@link #model()} that is saved and that
 * {@link CpumaskView} renders.
 */
record CpumaskReport(String pinning, CpuMask allowed, int nrCpuIds, String javaSettings, int nativeBatches,
                     List<Comparison> comparisons, List<Split> splits, List<CodeSize> sizes, List<String> familyNotes,
                     boolean quick, String load) {

    /** The seed's effect: (after - before) / before, in percent. */
    static final double SEED_EFFECT_PCT =
            100.0 * (CpumaskFamily.SEED_AFTER_NS - CpumaskFamily.SEED_BEFORE_NS) / CpumaskFamily.SEED_BEFORE_NS;
    /** The full mode's target: each error under this share of its score. */
    static final double TARGET_ERROR_PCT = 2.0;

    /** The two variants of one configuration and implementation. */
    record Comparison(CpumaskConfig config, String implementation, Measured baseline, Measured approach) {

        /** Welch's t-test at 99.9%, as JMH compares two results. */
        boolean significant() {
            return baseline.stats().getN() > 1 && approach.stats().getN() > 1
                    && baseline.stats().isDifferent(approach.stats(), 0.999);
        }

        /** The sum of both errors as a share of the baseline: differences below it are not resolved. */
        double resolutionPct() {
            return 100.0 * (err(baseline.result()) + err(approach.result())) / baseline.result().score();
        }

        double worstErrorPct() {
            return Math.max(100.0 * err(baseline.result()) / baseline.result().score(),
                    100.0 * err(approach.result()) / approach.result().score());
        }

        private static double err(Result r) {
            return r.error() == null ? Double.POSITIVE_INFINITY : r.error();
        }
    }

    /**
     * A Java gap split in two by {@value CpumaskFamily#LOOP_FIRST}: {@code calls} is
     * any_but_loop against it (the same loop, {@code next(-1)} against {@code first()}: what the
     * patch changed), {@code shape} is it against first_but (the same calls, loop against
     * straight-line code: how C2 compiles them, not the patch).
     */
    record Split(CpumaskConfig config, Measured loop, Measured loopFirst, Measured firstBut) {

        Comparison calls() {
            return new Comparison(config, "java", loop, loopFirst);
        }

        Comparison shape() {
            return new Comparison(config, "java", loopFirst, firstBut);
        }
    }

    /** bloat-o-meter's row: the old and new function of one NR_CPUS. */
    record CodeSize(int nrCpus, String oldSymbol, long oldBytes, String newSymbol, long newBytes, String table) {

        /** As results rows: metric {@code codeSize}, unit {@code bytes}, exact (error 0). */
        List<Result> results() {
            Map<String, Object> params = Map.of("nrCpus", nrCpus);
            return List.of(
                    Result.builder().benchmark("cpumask").variant(CpumaskFamily.BASELINE).implementation("native").metric("codeSize").unit("bytes")
                            .score(oldBytes).error(0.0).samples(1).cpus("").params(params).build(),
                    Result.builder().benchmark("cpumask").variant(CpumaskFamily.APPROACH).implementation("native").metric("codeSize").unit("bytes")
                            .score(newBytes).error(0.0).samples(1).cpus("").params(params).build());
        }
    }

    /** The notes for the results' reader (also in the text). */
    List<String> notes() {
        List<String> notes = new ArrayList<>();
        notes.add(masksNote());
        notes.add("input=random draws each CPU inside the timed call (an xorshift64* step and an unsigned %), as the seed's loop "
                + "timed get_random_bytes(); input=precomputed reads the same draws from an array of "
                + CpumaskInputs.PRECOMPUTED + (randomCost().isEmpty() ? "." : "; " + randomCost()));
        notes.add("significant: Welch's t-test at 99.9% between the two variants' samples (JMH iterations; C batches), "
                + "as JMH's Statistics.isDifferent.");
        notes.add(resolutionNote());
        notes.add("nrCpus=4096 rows bound every search at 4096 bits, as a kernel built with NR_CPUS=4096 on a machine whose "
                + "nr_cpu_ids is 4096; on this machine such a kernel would stop at nr_cpu_ids=" + nrCpuIds + ".");
        if (quick) {
            notes.add("--quick: Java measures " + comparisons.stream().filter(c -> c.implementation().equals("java")).count()
                    + " of " + CpumaskConfig.all().size() + " configurations; run without --quick for all, with smaller errors.");
        }
        notes.addAll(familyNotes);
        return notes;
    }

    private String masksNote() {
        Set<String> allowedMasks = new LinkedHashSet<>();
        Set<String> highMasks = new LinkedHashSet<>();
        int range = 0;
        for (int nrCpus : new int[]{64, 4096}) {
            CpumaskInputs a = CpumaskInputs.of(nrCpus, CpumaskInputs.MaskKind.ALLOWED, CpumaskInputs.InputKind.RANDOM, allowed, nrCpuIds);
            CpumaskInputs h = CpumaskInputs.of(nrCpus, CpumaskInputs.MaskKind.HIGH, CpumaskInputs.InputKind.RANDOM, allowed, nrCpuIds);
            allowedMasks.add(a.describeMask());
            highMasks.add(h.describeMask() + " (CPUs drawn from " + h.offset() + "-" + (h.offset() + h.range() - 1) + ")");
            range = Math.max(range, a.range());
        }
        return "mask=allowed: the allowed CPUs " + allowed.toList() + ", as " + String.join(" and ", allowedMasks)
                + ", CPUs drawn as random % " + range + " (nr_cpu_ids); mask=high: the same CPUs and draws moved to the top bits, "
                + String.join(" and ", highMasks) + ", so each search first skips the empty words below them.";
    }

    private String randomCost() {
        for (Comparison r : comparisons) {
            if (!r.implementation().equals("java") || r.config().input() != CpumaskInputs.InputKind.RANDOM) continue;
            for (Comparison p : comparisons) {
                if (p.implementation().equals("java") && p.config().input() == CpumaskInputs.InputKind.PRECOMPUTED
                        && p.config().nrCpus() == r.config().nrCpus() && p.config().mask() == r.config().mask()) {
                    double cost = Math.min(r.baseline().result().score() - p.baseline().result().score(),
                            r.approach().result().score() - p.approach().result().score());
                    return String.format(Locale.ROOT, "drawing costs about %.1f ns per call here (java, nrCpus=%d, "
                                    + "mask=%s: random minus precomputed, the smaller of the two variants). The seed's CSPRNG took most of its ~197 ns per iteration, "
                                    + "so its 0.6%% is about 1.2 ns per call.",
                            cost, r.config().nrCpus(), r.config().mask().param());
                }
            }
        }
        return "";
    }

    private String resolutionNote() {
        long resolving = comparisons.stream().filter(c -> c.resolutionPct() < Math.abs(SEED_EFFECT_PCT)).count();
        long wide = comparisons.stream().filter(c -> c.worstErrorPct() > TARGET_ERROR_PCT).count();
        String s = String.format(Locale.ROOT, "The seed's effect is %.2f%% of its total. A row can resolve an effect that small only "
                        + "when its two errors add up to less than that share of the score: %d of %d rows here do; %s",
                SEED_EFFECT_PCT, resolving, comparisons.size(),
                resolving == comparisons.size() ? "every row could have shown it."
                        : "the others can neither confirm nor refute a 0.6% change.");
        if (wide > 0) {
            s += String.format(Locale.ROOT, " %d row%s an error above %.0f%% of the score (%s).",
                    wide, wide == 1 ? " has" : "s have", TARGET_ERROR_PCT,
                    quick ? "--quick runs fewer iterations" : "other work on the machine: see the load average above");
        }
        return s;
    }

    /** The model saved in the results file, from which {@link CpumaskView} renders the report. */
    CpumaskModel model() {
        return new CpumaskModel(pinning, allowed.toList(), nrCpuIds, javaSettings, nativeBatches, load,
                comparisons.stream().map(c -> new CpumaskModel.Row(c.implementation(), c.config().nrCpus(), c.config().mask().param(),
                        c.config().input().param(), Figure.of(c.baseline()), Figure.of(c.approach()), c.significant())).toList(),
                splits.stream().map(sp -> new CpumaskModel.SplitRow(sp.config().nrCpus(), sp.config().mask().param(),
                        sp.config().input().param(), Figure.of(sp.loop()), Figure.of(sp.loopFirst()), Figure.of(sp.firstBut()),
                        sp.calls().significant(), sp.shape().significant())).toList(),
                sizes.stream().map(s -> new CpumaskModel.Size(s.nrCpus(), s.oldSymbol(), s.oldBytes(), s.newSymbol(), s.newBytes(),
                        s.table())).toList(),
                splits.isEmpty() ? null : hsdis(), notes());
    }

    /** Whether this JVM can show C2's machine code ({@code -XX:+PrintAssembly} needs the hsdis plug-in). */
    static String hsdis() {
        String arch = System.getProperty("os.arch").equals("x86_64") ? "amd64" : System.getProperty("os.arch");
        java.nio.file.Path home = java.nio.file.Path.of(System.getProperty("java.home"), "lib");
        for (java.nio.file.Path p : List.of(home.resolve("server"), home)) {
            java.nio.file.Path lib = p.resolve("hsdis-" + arch + ".so");
            if (java.nio.file.Files.exists(lib)) {
                return "hsdis is at " + lib + ": ./run.sh jmh CpumaskBenchmark -jvmArgsAppend "
                        + "'-XX:+UnlockDiagnosticVMOptions -XX:+PrintAssembly' shows C2's code for each variant.";
            }
        }
        return "hsdis-" + arch + ".so is not in " + home + " (it is not part of the JDK), so -XX:+PrintAssembly cannot "
                + "show C2's code here: the split above is the evidence, not the machine code.";
    }
}
