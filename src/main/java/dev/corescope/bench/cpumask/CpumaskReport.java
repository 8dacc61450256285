package dev.corescope.bench.cpumask;

import dev.corescope.bench.Figure;
import dev.corescope.bench.JavaMachineCode;
import dev.corescope.bench.Measured;
import dev.corescope.cpumask.CpuMask;
import dev.corescope.report.Result;
import dev.corescope.text.TextTable;

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
                     List<Comparison> comparisons, List<Split> splits, List<CpumaskModel.CallerSize> callers,
                     List<String> familyNotes, boolean quick, String load) {

    /** The seed's effect: (after - before) / before, in percent. */
    static final double SEED_EFFECT_PCT =
            100.0 * (CpumaskFamily.SEED_AFTER_NS - CpumaskFamily.SEED_BEFORE_NS) / CpumaskFamily.SEED_BEFORE_NS;
    /** The full mode's target: each error under this share of its score. */
    static final double TARGET_ERROR_PCT = 2.0;

    /** The two variants of one configuration and implementation; {@code layout} null for Java. */
    record Comparison(CpumaskConfig config, String implementation, CpumaskTwins.Layout layout, Measured baseline,
                      Measured approach) {

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
            return new Comparison(config, "java", null, loop, loopFirst);
        }

        Comparison shape() {
            return new Comparison(config, "java", null, loopFirst, firstBut);
        }
    }

    /**
     * The callers' sizes as results rows: metric {@code codeSize} per caller (params nrCpus and
     * caller) and {@code codeSizeTotal} per NR_CPUS (their sum: what bloat-o-meter's total is
     * over), unit {@code bytes}, exact (error 0); old = {@value CpumaskFamily#BASELINE}, new =
     * {@value CpumaskFamily#APPROACH}.
     */
    static List<Result> results(List<CpumaskModel.CallerSize> callers) {
        List<Result> out = new ArrayList<>();
        for (int nrCpus : KernelCallers.NR_CPUS) {
            long before = 0, after = 0;
            boolean any = false;
            for (CpumaskModel.CallerSize c : callers) {
                if (c.nrCpus() != nrCpus) continue;
                any = true;
                Map<String, Object> params = new java.util.LinkedHashMap<>();
                params.put("nrCpus", nrCpus);
                params.put("caller", c.function());
                out.add(size(CpumaskFamily.BASELINE, "codeSize", c.oldBytes(), params));
                out.add(size(CpumaskFamily.APPROACH, "codeSize", c.newBytes(), params));
                before += c.oldBytes();
                after += c.newBytes();
            }
            if (!any) continue;
            Map<String, Object> params = Map.of("nrCpus", nrCpus);
            out.add(size(CpumaskFamily.BASELINE, "codeSizeTotal", before, params));
            out.add(size(CpumaskFamily.APPROACH, "codeSizeTotal", after, params));
        }
        return out;
    }

    private static Result size(String variant, String metric, long bytes, Map<String, Object> params) {
        return Result.builder().benchmark("cpumask").variant(variant).implementation("native").metric(metric).unit("bytes")
                .score(bytes).error(0.0).samples(1).cpus("").params(params).build();
    }

    /** The notes for the results' reader (also in the text). */
    List<String> notes() {
        List<String> notes = new ArrayList<>();
        notes.add(masksNote());
        notes.add("Every call draws its CPU inside the timed call (an xorshift64* step and an unsigned %, the same generator in "
                + "Java and C), as the seed's loop timed get_random_bytes() % nr_cpu_ids: no replayed table a branch predictor "
                + "could learn. The seed's CSPRNG took most of its ~197 ns per iteration, so its 0.6% is about 1.2 ns per call.");
        notes.add("mask=high is a synthetic worst case (the online CPUs moved to the top bits, which no machine has): it shows "
                + "the scan over empty words and is not the seed's experiment; online=16 mask=online is.");
        notes.add("native rows run at two code layouts, the same source compiled with "
                + CpumaskTwins.Layout.ALIGN64.flags() + " (layout=align64) and " + CpumaskTwins.Layout.ALIGN32.flags()
                + " (layout=align32): a speed difference counts only where it holds at both, since one that changes sign or "
                + "size between them is code placement, not the patch.");
        notes.add("significant: Welch's t-test at 99.9% between the two variants' samples (JMH iterations; C batches), "
                + "as JMH's Statistics.isDifferent.");
        notes.add(resolutionNote());
        notes.add("native nrCpus=4096 rows bound the out-of-line searches at nr_cpu_ids, the online CPUs' count (all 4096 bits "
                + "for mask=high), as a kernel built with NR_CPUS=4096 does; Java has no NR_CPUS and bounds them at the mask's size.");
        if (quick) {
            notes.add("--quick: Java measures " + comparisons.stream().filter(c -> c.implementation().equals("java")).count()
                    + " of " + CpumaskConfig.all().size() + " configurations; run without --quick for all, with smaller errors.");
        }
        notes.addAll(familyNotes);
        return notes;
    }

    private String masksNote() {
        Set<String> masks = new LinkedHashSet<>();
        for (String online : CpumaskConfig.ONLINE) {
            for (CpumaskInputs.MaskKind kind : CpumaskInputs.MaskKind.values()) {
                for (int nrCpus : KernelCallers.NR_CPUS) {
                    CpumaskInputs in = CpumaskInputs.of(nrCpus, kind, online, allowed, nrCpuIds);
                    masks.add("online=" + online + " mask=" + kind.param() + " nrCpus=" + nrCpus + ": " + in.describeMask()
                            + ", CPU drawn as " + (in.offset() == 0 ? "" : in.offset() + " + ") + "random % " + in.range());
                }
            }
        }
        return "Masks (online=16: the seed's machine, CPUs 0-15; online=host: this machine's allowed CPUs " + allowed.toList()
                + ", nr_cpu_ids " + nrCpuIds + "): " + String.join("; ", masks) + ".";
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
                comparisons.stream().map(c -> new CpumaskModel.Row(c.implementation(), c.config().nrCpus(), c.config().online(),
                        c.config().mask().param(), c.layout() == null ? null : c.layout().param(), Figure.of(c.baseline()),
                        Figure.of(c.approach()), c.significant())).toList(),
                splits.stream().map(sp -> new CpumaskModel.SplitRow(sp.config().nrCpus(), sp.config().online(),
                        sp.config().mask().param(), Figure.of(sp.loop()), Figure.of(sp.loopFirst()), Figure.of(sp.firstBut()),
                        sp.calls().significant(), sp.shape().significant())).toList(),
                callers, KernelCallers.FLAGS, splits.isEmpty() ? null : hsdis(), notes());
    }

    /** Whether this run could show C2's machine code of the Java variants, in one line ({@link JavaMachineCode}). */
    static String hsdis() {
        return JavaMachineCode.plugin().map(p -> "C2's code of the Java variants (hsdis at " + p + ") is in the machine code "
                + "section, beside the C twins': read it with the split above.").orElse(JavaMachineCode.noPluginReason()
                + ": the split above is the evidence, not the machine code.");
    }
}
