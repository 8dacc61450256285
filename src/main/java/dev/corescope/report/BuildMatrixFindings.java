package dev.corescope.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The findings of claims about exact figures that move with the build (code size): the rows are
 * one figure per part (a function) and build, and a claim is about their sum per build
 * ({@link Claim.Rows#matrix}). Nothing is sampled, so there is no interval; what varies is the
 * build, and a finding holds only where every build of the matrix gives it:
 * <ul>
 *   <li>a claimed change of size {@code C}: each build's net is classified as an interval of
 *       width zero would be ({@link SeedVerdicts#classify}: within a factor of two of {@code C}
 *       supports, the claimed direction but off by more supports the direction, less than half
 *       of it or the other way contradicts);</li>
 *   <li>"no net change" ({@link Claim.Direction#NONE}): a build supports it when its net is within
 *       the claim's share of its own gross (the sum of the parts' absolute changes), and
 *       contradicts it otherwise.</li>
 * </ul>
 * Where builds give different findings the claim is {@code inconclusive} and the reason names
 * which builds give which: no single word stands for a figure that moves with the build, and
 * none is ever called exact.
 */
final class BuildMatrixFindings {

    private BuildMatrixFindings() {
    }

    /** One build's figures: the sum of its parts before and after, and the gross of their changes. */
    record Build(String name, double before, double after, double gross, int parts) {
        double net() {
            return after - before;
        }
    }

    /** The claim tested over the builds {@code file} holds. */
    static ClaimResult test(ResultsFile file, Claim c) {
        Claim.Rows sel = c.rows();
        Claim.Matrix m = sel.matrix();
        List<Build> builds = builds(file, sel);
        if (builds.isEmpty()) {
            return result(c, Finding.NOT_TESTABLE, null, List.of(), "no rows in this file measure it (" + sel.metric() + " of "
                    + sel.approach() + " against " + sel.baseline() + ", per " + m.buildParam() + ")");
        }
        List<ClaimResult.RowFinding> rows = new ArrayList<>();
        Map<Finding, List<String>> byFinding = new LinkedHashMap<>();
        for (Build b : builds) {
            Finding f = finding(c, b);
            byFinding.computeIfAbsent(f, k -> new ArrayList<>()).add(b.name() + " " + signed(b.net()) + " " + c.unit()
                    + (m.netShareOfGross() == null ? "" : " of " + number(b.gross()) + " gross"));
            Map<String, Object> params = new LinkedHashMap<>();
            sel.where().forEach((k, v) -> params.put(k, v.size() == 1 ? v.getFirst() : String.join("|", v)));
            params.put(m.buildParam(), b.name());
            rows.add(new ClaimResult.RowFinding(sel.implementations().getFirst(), params, b.before(), b.after(), c.unit(), b.net(),
                    null, null, null, null, true, f, ClaimResult.Bound.BUILD.words, ClaimResult.Bound.BUILD));
        }
        Finding finding = byFinding.size() == 1 ? byFinding.keySet().iterator().next() : Finding.INCONCLUSIVE;
        StringBuilder why = new StringBuilder();
        why.append(builds.size()).append(builds.size() == 1 ? " build" : " builds").append(", each the sum over ")
                .append(builds.stream().mapToInt(Build::parts).max().orElse(0)).append(' ').append(m.summedParam()).append("s");
        if (m.netShareOfGross() != null) {
            why.append(String.format(Locale.ROOT, "; no net change: a net within %.0f%% of its own gross", 100 * m.netShareOfGross()));
        }
        if (byFinding.size() == 1) {
            why.append("; every build ").append(finding.words()).append(": ").append(String.join(", ", byFinding.values().iterator().next()));
        } else {
            why.append("; the builds disagree, so no single finding: ");
            List<String> parts = new ArrayList<>();
            byFinding.forEach((f, names) -> parts.add(f.words() + " at " + String.join(", ", names)));
            why.append(String.join("; ", parts));
        }
        return result(c, finding, builds.getFirst().net(), rows, why.toString());
    }

    /** One build's finding. */
    static Finding finding(Claim c, Build b) {
        Double share = c.rows().matrix().netShareOfGross();
        if (c.direction() == Claim.Direction.NONE) {
            double tolerance = share == null ? 0 : share * b.gross();
            return Math.abs(b.net()) <= tolerance ? Finding.SUPPORTS : Finding.CONTRADICTS;
        }
        return SeedVerdicts.classify(c, b.net(), b.net());
    }

    /** The builds in the rows' order, each with its parts summed (a part counts where both variants have it). */
    static List<Build> builds(ResultsFile file, Claim.Rows sel) {
        String buildParam = sel.matrix().buildParam(), part = sel.matrix().summedParam();
        Map<String, Map<String, double[]>> byBuild = new LinkedHashMap<>();
        for (Result r : file.results()) {
            if (!r.benchmark().equals(sel.benchmark()) || !r.metric().equals(sel.metric()) || !sel.implementations().contains(r.implementation())
                    || !Claim.holds(sel.where(), r.params()) || !r.params().containsKey(buildParam)) continue;
            int side = r.variant().equals(sel.baseline()) ? 0 : r.variant().equals(sel.approach()) ? 1 : -1;
            if (side < 0) continue;
            double[] v = byBuild.computeIfAbsent(String.valueOf(r.params().get(buildParam)), k -> new LinkedHashMap<>())
                    .computeIfAbsent(String.valueOf(r.params().get(part)), k -> new double[]{Double.NaN, Double.NaN});
            v[side] = r.score();
        }
        List<Build> out = new ArrayList<>();
        byBuild.forEach((name, parts) -> {
            double before = 0, after = 0, gross = 0;
            int n = 0;
            for (double[] v : parts.values()) {
                if (Double.isNaN(v[0]) || Double.isNaN(v[1])) continue;
                before += v[0];
                after += v[1];
                gross += Math.abs(v[1] - v[0]);
                n++;
            }
            if (n > 0) out.add(new Build(name, before, after, gross, n));
        });
        return out;
    }

    /** The builds' range in words, e.g. {@code builds -111..+28 bytes}, for the interval cell. */
    static String range(ClaimResult r) {
        double lo = r.rows().stream().mapToDouble(ClaimResult.RowFinding::effect).min().orElse(0);
        double hi = r.rows().stream().mapToDouble(ClaimResult.RowFinding::effect).max().orElse(0);
        String n = r.rows().size() + (r.rows().size() == 1 ? " build" : " builds");
        return lo == hi ? n + ": " + signed(lo) + " " + r.unit() : n + ": " + signed(lo) + ".." + signed(hi) + " " + r.unit();
    }

    /** The measurement in words: the first build's net and the range over all, each build named. */
    static String measured(ClaimResult r) {
        List<String> each = new ArrayList<>();
        for (ClaimResult.RowFinding x : r.rows()) each.add(x.params().values().stream().reduce((a, b) -> b).orElse("") + " " + signed(x.effect()));
        return range(r) + " (" + String.join(", ", each) + ")";
    }

    private static ClaimResult result(Claim c, Finding f, Double effect, List<ClaimResult.RowFinding> rows, String reason) {
        return new ClaimResult(c.id(), c.family(), c.seed(), c.words(), c.quantity(), c.unit(), c.direction(), c.scale(), c.size(),
                c.claimedText(), c.conditions(), f, effect, null, null, null, null, null, !rows.isEmpty(), null, null, reason, rows,
                List.of());
    }

    private static String signed(double v) {
        return (v > 0 ? "+" : "") + number(v);
    }

    private static String number(double v) {
        return v == Math.rint(v) ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.1f", v);
    }
}
