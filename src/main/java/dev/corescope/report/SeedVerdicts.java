package dev.corescope.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * One verdict per seed: what the kernel patch claimed, and what this machine shows for it in
 * Java and in C, as an effect with its interval and a finding with its reason. The effect is
 * the seed's approach against its baseline in the same results file ({@code first_but} against
 * {@code any_but_loop}, ...), computed as {@code compare} computes a change
 * ({@link Comparison}): a run (JMH fork) is the unit, the run-to-run noise is pooled over the
 * family's rows with 2+ runs; without it, the between-run allowance ({@link RunNoise#allowance})
 * stands in, so only an effect far beyond it gets a verdict and a smaller one is "not resolvable
 * here". The C twins
 * of {@code cpumask} and {@code timerbase} run both variants' batches interleaved in one
 * process ({@code CleanBatches}), so their difference has no run-to-run part between them;
 * the verdict says so.
 */
public final class SeedVerdicts {

    /**
     * A seed's verdict.
     *
     * @param family  the family that re-runs it
     * @param seed    the patch, in a few words
     * @param claim   what the patch's mail claimed
     * @param java    what Java shows here, in words
     * @param c       what C shows here, in words
     * @param extra   exact figures (code sizes), or null
     * @param finding {@code significant}, {@code no change detectable here} or {@code not resolvable here}
     * @param why     why that finding
     */
    public record Verdict(String family, String seed, String claim, String java, String c, String extra, String finding, String why) {

        /** The verdict on one line: {@code cpumask — seed: ...; claim: ...; Java: ...; C: ...; finding (why)}. */
        public String line() {
            return family + " (" + seed + "): " + finding + (why.isEmpty() ? "" : " (" + why + ")") + ". Claim: " + claim
                    + ". Java: " + java + ". C: " + c + "." + (extra == null ? "" : " " + extra + ".");
        }
    }

    /**
     * A seed and how its family re-runs it. {@code modelDiffers} is null when the family's model does
     * what the kernel does in the point the seed is about; otherwise it says where the model
     * departs, and the verdict is "not resolvable here" for that reason, whatever the figures show:
     * an effect measured on a stand-in is not evidence for or against the patch.
     */
    private record Seed(String family, String seed, String claim, String baseline, String approach, String metric,
                        Map<String, Object> only, boolean cInterleaved, String modelDiffers) {
    }

    private static final List<Seed> SEEDS = List.of(
            new Seed("cpumask", "cpumask_first_but(), June 2025",
                    "cpumask_any_but() as a wrapper of cpumask_first_but() is 78 bytes smaller at NR_CPUS=64 (2 at 4096) "
                            + "and 0.6% faster over 10000 calls", "any_but_loop", "first_but", "op", Map.of(), true, null),
            new Seed("timerbase", "get_timer_cpu_base(), December 2024",
                    "one per_cpu_ptr() instead of two: fewer instructions in lock_timer_base()'s loop, latencies move "
                            + "from 100-139 ns to 20-119 ns", "before", "after", "op", Map.of(), true, null),
            new Seed("cpupri", "cpupri_vec layout, June 2025",
                    "count and mask of each priority on their own cache lines end the false sharing: kernel cycles "
                            + "20% -> 12%, fps +11% on 480 CPUs", "packed", "aligned", "find", Map.of("workload", "cpupri"), false, null),
            new Seed("locks", "slub irqsave measurements, February 2015",
                    "spin_lock_irqsave costs 8.3 ns more than spin_lock (21.1 vs 12.8 ns on an i7-2620M)",
                    "spin_lock_unlock", "spin_lock_irqsave", "op", Map.of(), false,
                    "the model differs from the kernel in the point the seed is about: user space cannot mask "
                            + "interrupts, so irqsave's stand-in is pthread_sigmask, two system calls where the kernel "
                            + "runs a few instructions; the difference below is the stand-in's, not local_irq_save()'s"));

    private SeedVerdicts() {
    }

    /** The verdicts for the seeds whose family is in {@code file}, in the seeds' order. */
    public static List<Verdict> of(ResultsFile file) {
        Map<String, RunNoise> pools = RunNoise.pools(List.of(file.results()));
        List<Verdict> out = new ArrayList<>();
        for (Seed s : SEEDS) {
            if (file.results().stream().noneMatch(r -> r.benchmark().equals(s.family()))) continue;
            RunNoise javaNoise = pools.get(s.family() + "/java");
            Side java = side(s, file.results(), "java", javaNoise == null ? RunNoise.allowance(s.family() + "/java") : javaNoise);
            RunNoise cNoise = pools.get(s.family() + "/native");
            if (cNoise == null && s.cInterleaved()) {
                cNoise = new RunNoise(0, Double.POSITIVE_INFINITY, 0,
                        "none between the variants: their C batches ran interleaved in one process");
            }
            if (cNoise == null) cNoise = RunNoise.allowance(s.family() + "/native");
            Side c = side(s, file.results(), "native", cNoise);
            String extra = codeSize(s, file.results());
            String finding, why;
            if (s.modelDiffers() != null) {
                finding = Comparison.NOT_RESOLVABLE;
                why = s.modelDiffers();
            } else if (java.finding.equals(Comparison.SIGNIFICANT) || c.finding.equals(Comparison.SIGNIFICANT)) {
                finding = Comparison.SIGNIFICANT;
                why = "";
            } else if (java.finding.equals(Comparison.NO_CHANGE) || c.finding.equals(Comparison.NO_CHANGE)) {
                finding = Comparison.NO_CHANGE;
                why = "the effect is smaller than the noise floor";
            } else {
                finding = Comparison.NOT_RESOLVABLE;
                why = java.why.isEmpty() ? c.why : java.why;
            }
            out.add(new Verdict(s.family(), s.seed(), s.claim(), java.text, c.text, extra, finding, why));
        }
        return out;
    }

    private record Side(String text, String finding, String why) {
    }

    private static Side side(Seed s, List<Result> results, String implementation, RunNoise noise) {
        Map<String, Result> base = new LinkedHashMap<>();
        for (Result r : results) {
            if (matches(s, r, implementation, s.baseline())) base.put(paramsKey(r), r);
        }
        List<Comparison.Row> rows = new ArrayList<>();
        for (Result r : results) {
            if (!matches(s, r, implementation, s.approach())) continue;
            Result b = base.get(paramsKey(r));
            if (b != null) rows.add(Comparison.row(b, r, noise));
        }
        String name = implementation.equals("java") ? "Java" : "C";
        if (rows.isEmpty()) return new Side("no " + name + " rows in this file", Comparison.NOT_RESOLVABLE, "");
        String what = s.approach() + " against " + s.baseline();
        if (rows.size() == 1) {
            Comparison.Row r = rows.getFirst();
            if (Comparison.NOT_RESOLVABLE.equals(r.finding())) {
                String ci = r.ciLowPercent() == null ? "" : String.format(Locale.ROOT, ", %s CI %+.0f..%+.0f%%", Comparison.CONFIDENCE,
                        r.ciLowPercent(), r.ciHighPercent());
                return new Side(what + String.format(Locale.ROOT, " %+.1f%%%s, not resolvable here", r.deltaPercent(), ci),
                        Comparison.NOT_RESOLVABLE, unresolvedWhy(r));
            }
            return new Side(what + ": " + r.effectText() + " (" + r.finding() + noiseNote(r, noise) + ")", r.finding(), "");
        }
        int faster = 0, slower = 0, same = 0, unresolved = 0;
        double fLo = Double.MAX_VALUE, fHi = 0, sLo = Double.MAX_VALUE, sHi = 0, nLo = Double.MAX_VALUE, nHi = 0;
        for (Comparison.Row r : rows) {
            double d = Math.abs(Objects.requireNonNullElse(r.deltaPercent(), 0.0));
            if (Comparison.SIGNIFICANT.equals(r.finding())) {
                if (r.after() < r.before()) {
                    faster++;
                    fLo = Math.min(fLo, d);
                    fHi = Math.max(fHi, d);
                } else {
                    slower++;
                    sLo = Math.min(sLo, d);
                    sHi = Math.max(sHi, d);
                }
            } else if (Comparison.NO_CHANGE.equals(r.finding())) {
                same++;
                nLo = Math.min(nLo, r.noiseFloorPercent());
                nHi = Math.max(nHi, r.noiseFloorPercent());
            } else {
                unresolved++;
            }
        }
        List<String> parts = new ArrayList<>();
        if (faster > 0) parts.add(faster + " faster (by " + range(fLo, fHi) + ")");
        if (slower > 0) parts.add(slower + " slower (by " + range(sLo, sHi) + ")");
        if (same > 0) parts.add(same + " no change detectable (noise floor " + range(nLo, nHi) + ")");
        if (unresolved > 0) parts.add(unresolved + " not resolvable");
        String finding = faster + slower > 0 ? Comparison.SIGNIFICANT : same > 0 ? Comparison.NO_CHANGE : Comparison.NOT_RESOLVABLE;
        String why = unresolved == rows.size() ? unresolvedWhy(rows.getFirst()) : "";
        String note = noise == null ? "" : noise.assumed() ? (faster + slower > 0 ? "; one run per variant: beyond the between-run allowance" : "")
                : noise.rows() > 0 || noise.relativeVariance() > 0 ? "" : "; " + noise.source();
        return new Side(what + " in " + rows.size() + " configurations: " + String.join(", ", parts) + note, finding, why);
    }

    private static String noiseNote(Comparison.Row r, RunNoise noise) {
        if (noise != null && noise.assumed()) return "; one run per variant: beyond the between-run allowance, not a measured noise";
        return noise != null && noise.rows() == 0 && noise.relativeVariance() == 0 ? "; " + noise.source() : "";
    }

    private static String unresolvedWhy(Comparison.Row r) {
        String reason = r.reason() == null ? "" : r.reason();
        if (reason.contains("between-run allowance")) {
            return "one run (fork) per variant, so the run-to-run noise is unknown, and the effect is within the between-run "
                    + "allowance that stands in for it; run bench without --quick";
        }
        if (reason.contains("run-to-run error is unknown")) return "one run (fork) per variant, so the run-to-run noise is unknown; run bench without --quick";
        return reason;
    }

    private static String range(double lo, double hi) {
        return Math.abs(hi - lo) < 0.05 ? String.format(Locale.ROOT, "%.1f%%", lo) : String.format(Locale.ROOT, "%.1f-%.1f%%", lo, hi);
    }

    private static String codeSize(Seed s, List<Result> results) {
        List<String> out = new ArrayList<>();
        for (Result a : results) {
            if (!a.benchmark().equals(s.family()) || !a.metric().equals("codeSize") || !a.variant().equals(s.baseline())) continue;
            for (Result b : results) {
                if (b.benchmark().equals(s.family()) && b.metric().equals("codeSize") && b.variant().equals(s.approach())
                        && b.params().equals(a.params())) {
                    String p = ResultsText.params(a.params());
                    out.add((p.isEmpty() ? "" : p + ": ") + String.format(Locale.ROOT, "%.0f -> %.0f bytes (%+.0f)", a.score(), b.score(), b.score() - a.score()));
                }
            }
        }
        return out.isEmpty() ? null : "C code size (exact) " + String.join(", ", out);
    }

    private static boolean matches(Seed s, Result r, String implementation, String variant) {
        if (!r.benchmark().equals(s.family()) || !r.implementation().equals(implementation) || !r.variant().equals(variant)
                || !r.metric().equals(s.metric())) return false;
        for (var e : s.only().entrySet()) if (!Objects.equals(String.valueOf(r.params().get(e.getKey())), String.valueOf(e.getValue()))) return false;
        return true;
    }

    private static String paramsKey(Result r) {
        return new java.util.TreeMap<>(r.params()).toString();
    }

    /** The verdicts as text lines wrapped to {@code width}, under a heading; empty when there are none. */
    public static String text(List<Verdict> verdicts, int width) {
        if (verdicts.isEmpty()) return "";
        StringBuilder sb = new StringBuilder("Verdicts (one per seed; effects with 99.9% intervals, runs as the unit; see docs/compare.md):\n");
        for (Verdict v : verdicts) ComparisonText.wrap(sb, "  ", v.line(), width);
        return sb.append('\n').toString();
    }
}
