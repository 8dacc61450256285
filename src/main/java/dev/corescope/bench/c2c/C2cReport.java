package dev.corescope.bench.c2c;

import dev.corescope.bench.SampleStats;
import dev.corescope.report.Result;
import dev.corescope.topology.Placement;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/** The {@code bench c2c} report as text, built from the measured pairs in one place. */
final class C2cReport {

    private C2cReport() {
    }

    static String text(int[] cpus, List<CpuLabels.Place> places, List<C2cFamily.Pair> pairs, Result jmh, List<String> notes) {
        StringBuilder out = new StringBuilder();
        out.append("# c2c: core-to-core latency, one cache line ping-ponged between two pinned threads\n");
        out.append("# one-way ns = round trip / 2; median of the samples, error = 99.9% confidence half-width of the median\n");
        for (CpuLabels.Place p : places) out.append("# ").append(p.longLabel()).append('\n');
        out.append('\n');
        if (!pairs.isEmpty()) {
            byRelation(out, pairs);
            // a matrix only where most of it was measured (a small machine, or --full up to 64 CPUs)
            if (cpus.length <= 64 && 2L * pairs.size() >= (long) cpus.length * (cpus.length - 1) / 2) {
                matrix(out, "Java (row: ping CPU, column: pong CPU)", cpus, pairs, C2cFamily.Pair::java);
                if (pairs.stream().allMatch(p -> p.nativeTwin() != null)) {
                    matrix(out, "C twin", cpus, pairs, C2cFamily.Pair::nativeTwin);
                }
            }
            if (pairs.size() <= 64) table(out, pairs);
            summary(out, pairs);
        }
        if (jmh != null) {
            out.append(String.format(Locale.ROOT, "JMH cross-check, placement %s, CPU %s \u2192 %s: %s ns one way%n%n",
                    jmh.params().get("placement"), jmh.params().get("from"), jmh.params().get("to"),
                    jmh.error() == null ? String.format(Locale.ROOT, "%.1f", jmh.score())
                            : String.format(Locale.ROOT, "%.1f \u00b1 %.1f", jmh.score(), jmh.error())));
        }
        if (!notes.isEmpty()) {
            out.append("## Notes\n");
            for (String n : notes) out.append("- ").append(n).append('\n');
        }
        return out.toString();
    }

    private static void matrix(StringBuilder out, String title, int[] cpus, List<C2cFamily.Pair> pairs,
                               Function<C2cFamily.Pair, SampleStats> side) {
        String[][] cells = new String[cpus.length][cpus.length];
        int w = 3;
        for (C2cFamily.Pair p : pairs) {
            SampleStats s = side.apply(p);
            String v = Double.isNaN(s.error()) ? String.format(Locale.ROOT, "%.1f", s.median())
                    : String.format(Locale.ROOT, "%.1f\u00b1%.1f", s.median(), s.error());
            cells[index(cpus, p.from())][index(cpus, p.to())] = v;
            w = Math.max(w, v.length());
        }
        int headW = Math.max(4, String.valueOf(cpus[cpus.length - 1]).length() + 3);
        out.append(title).append('\n');
        out.append(" ".repeat(headW));
        for (int c : cpus) out.append(String.format(Locale.ROOT, " %" + w + "s", "cpu" + c));
        out.append('\n');
        for (int i = 0; i < cpus.length; i++) {
            out.append(String.format(Locale.ROOT, "%-" + headW + "s", "cpu" + cpus[i]));
            for (int j = 0; j < cpus.length; j++) {
                String v = cells[i][j] != null ? cells[i][j] : "-";
                out.append(String.format(Locale.ROOT, " %" + w + "s", v));
            }
            out.append('\n');
        }
        out.append('\n');
    }

    /**
     * Per relation (what the two CPUs share), the pairs measured and the range of their Java and C
     * medians: the summary of a by-relation run, and the first table of a full one. Nothing for
     * files from before relations were saved.
     */
    private static void byRelation(StringBuilder out, List<C2cFamily.Pair> pairs) {
        if (pairs.stream().anyMatch(p -> p.relation() == null)) return;
        java.util.Map<String, List<C2cFamily.Pair>> by = new java.util.LinkedHashMap<>();
        for (Placement r : Placement.values()) {
            List<C2cFamily.Pair> in = pairs.stream().filter(p -> p.relation().equals(PairClasses.key(r))).toList();
            if (!in.isEmpty()) by.put(r.words(), in);
        }
        out.append(String.format(Locale.ROOT, "%-16s %6s %22s %22s%n", "relation", "pairs", "java median (min-max)", "C median (min-max)"));
        for (var e : by.entrySet()) {
            out.append(String.format(Locale.ROOT, "%-16s %6d %22s %22s", e.getKey(), e.getValue().size(),
                    range(e.getValue(), C2cFamily.Pair::java), range(e.getValue(), C2cFamily.Pair::nativeTwin)).stripTrailing()).append('\n');
        }
        out.append('\n');
    }

    private static String range(List<C2cFamily.Pair> pairs, Function<C2cFamily.Pair, SampleStats> side) {
        double[] m = pairs.stream().map(side).filter(java.util.Objects::nonNull).mapToDouble(SampleStats::median).sorted().toArray();
        if (m.length == 0) return "-";
        double mid = m.length % 2 == 1 ? m[m.length / 2] : (m[m.length / 2 - 1] + m[m.length / 2]) / 2;
        return m.length == 1 ? String.format(Locale.ROOT, "%.1f", mid)
                : String.format(Locale.ROOT, "%.1f (%.1f-%.1f)", mid, m[0], m[m.length - 1]);
    }

    private static void table(StringBuilder out, List<C2cFamily.Pair> pairs) {
        boolean twin = pairs.stream().allMatch(p -> p.nativeTwin() != null);
        out.append(String.format(Locale.ROOT, "%-10s %16s %8s %8s", "pair", "java median", "mean", "min"));
        if (twin) out.append(String.format(Locale.ROOT, " %16s %8s %8s %7s", "C median", "mean", "min", "java/C"));
        out.append('\n');
        for (C2cFamily.Pair p : pairs) {
            out.append(String.format(Locale.ROOT, "%-10s %16s %8.1f %8.1f", p.from() + " \u2192 " + p.to(),
                    medianError(p.java()), p.java().mean(), p.java().min()));
            if (twin) {
                SampleStats c = p.nativeTwin();
                out.append(String.format(Locale.ROOT, " %16s %8.1f %8.1f %6.2f\u00d7", medianError(c), c.mean(), c.min(),
                        p.java().median() / c.median()));
            }
            out.append('\n');
        }
        out.append('\n');
    }

    private static void summary(StringBuilder out, List<C2cFamily.Pair> pairs) {
        C2cFamily.Pair min = pairs.stream().min(Comparator.comparingDouble(p -> p.java().median())).orElseThrow();
        C2cFamily.Pair max = pairs.stream().max(Comparator.comparingDouble(p -> p.java().median())).orElseThrow();
        double mean = pairs.stream().mapToDouble(p -> p.java().median()).average().orElse(Double.NaN);
        out.append(String.format(Locale.ROOT, "Min latency: %s ns, CPUs (%d,%d)%n", medianError(min.java()), min.from(), min.to()));
        out.append(String.format(Locale.ROOT, "Max latency: %s ns, CPUs (%d,%d)%n", medianError(max.java()), max.from(), max.to()));
        out.append(String.format(Locale.ROOT, "Mean of the pairs' medians: %.1f ns over %d pairs%n%n", mean, pairs.size()));
    }

    private static String medianError(SampleStats s) {
        return Double.isNaN(s.error()) ? String.format(Locale.ROOT, "%.1f", s.median())
                : String.format(Locale.ROOT, "%.1f \u00b1 %.1f", s.median(), s.error());
    }

    private static int index(int[] cpus, int cpu) {
        for (int i = 0; i < cpus.length; i++) if (cpus[i] == cpu) return i;
        throw new IllegalArgumentException("CPU " + cpu);
    }
}
