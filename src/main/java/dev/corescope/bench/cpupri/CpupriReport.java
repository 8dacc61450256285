package dev.corescope.bench.cpupri;

import dev.corescope.report.Layout;
import dev.corescope.report.Result;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/** The {@code bench cpupri} report as text, built from the model in one place. */
final class CpupriReport {

    private CpupriReport() {
    }

    static String text(int line, List<Layout> layouts, List<Layout> seedLayouts, List<HeapLayouts.HeapLayout> heap,
                       List<CpupriFamily.Run> runs, List<Result> results, List<String> notes, String vmDetails) {
        StringBuilder out = new StringBuilder();
        out.append("# cpupri: seed 002, false sharing between cpupri_vec->count and ->mask\n");
        out.append("# cache line: ").append(line).append(" bytes; struct cpupri starts on a line\n\n");

        List<Layout> offstack = layouts.stream().filter(l -> Boolean.TRUE.equals(l.params().get("offstack"))).toList();
        out.append("## struct cpupri, CONFIG_CPUMASK_OFFSTACK=y (cpumask_var_t is a pointer)\n\n");
        for (Layout l : offstack) {
            out.append(l.name()).append(": ").append(CpupriLayouts.Kind.of(l.name()).description()).append('\n');
            rows(out, l, true);
            out.append('\n');
        }
        out.append(String.format(Locale.ROOT, "%-8s %7s %6s %14s  %s%n", "layout", "bytes", "lines", "seed (64-B)", "count[99] and mask[99]"));
        for (int i = 0; i < offstack.size(); i++) {
            Layout l = offstack.get(i);
            Layout seed = seedLayouts.get(i);
            var s = CpupriLayouts.layout(CpupriLayouts.Kind.of(l.name()), CpupriLayouts.Config.offstack(line));
            var k = CpupriLayouts.Kind.of(l.name());
            boolean shared = CpupriLayouts.countOffset(s, k, CpupriLayouts.CPUPRI_RT99) / line
                    == CpupriLayouts.maskOffset(s, k, CpupriLayouts.CPUPRI_RT99) / line;
            out.append(String.format(Locale.ROOT, "%-8s %7d %6d %14s  %s%n", l.name(), l.sizeBytes(), l.cacheLines(),
                    seed.cacheLines() + " lines", shared ? "share a line" : "on different lines"));
        }
        out.append("(seed: 26, 203 and 21 cache lines)\n\n");

        List<Layout> inline = layouts.stream().filter(l -> Boolean.FALSE.equals(l.params().get("offstack"))).toList();
        if (!inline.isEmpty()) {
            out.append("## struct cpupri, CONFIG_CPUMASK_OFFSTACK=n (the mask inline, NR_CPUS bits)\n\n");
            Map<Object, Map<String, Layout>> byNr = new LinkedHashMap<>();
            for (Layout l : inline) byNr.computeIfAbsent(l.params().get("nrCpus"), n -> new LinkedHashMap<>()).put(l.name(), l);
            out.append(String.format(Locale.ROOT, "%8s %20s %20s %20s%n", "NR_CPUS", "packed", "aligned", "split"));
            byNr.forEach((nr, m) -> out.append(String.format(Locale.ROOT, "%8s %20s %20s %20s%n", nr,
                    size(m.get("packed")), size(m.get("aligned")), size(m.get("split")))));
            out.append('\n');
        }

        out.append("## The Java-heap analogue (field offsets read by JOL from this JVM)\n");
        vmDetails.lines().forEach(l -> out.append("# ").append(l.replaceFirst("^#\\s*", "")).append('\n'));
        out.append('\n');
        for (HeapLayouts.HeapLayout h : heap) {
            out.append(h.variant()).append(": ").append(h.type().getName().replace("dev.corescope.bench.cpupri.", "")).append('\n');
            rows(out, h.layout(), false);
            out.append(String.format(Locale.ROOT, "%d bytes per object; count at %d, mask at %d: %d bytes apart, %s%n",
                    h.instanceSize(), h.countOffset(), h.maskOffset(), h.gap(),
                    h.apart(line) ? "never on one " + line + "-byte line" : "can share a " + line + "-byte line"));
            out.append(String.format(Locale.ROOT, "%d objects + the Object[%d] = %d bytes, %d cache lines%n%n",
                    CpupriLayouts.CPUPRI_NR_PRIORITIES, CpupriLayouts.CPUPRI_NR_PRIORITIES, h.layout().sizeBytes(),
                    h.layout().cacheLines()));
        }

        out.append("## Contention (ns/op; java: JMH mean ± 99.9% CI half-width; C: median of the samples ± 99.9% CI half-width)\n\n");
        if (runs.isEmpty()) {
            out.append("not measured (see notes)\n\n");
        } else {
            Map<String, List<CpupriFamily.Run>> groups = new LinkedHashMap<>();
            for (CpupriFamily.Run r : runs) {
                groups.computeIfAbsent(r.workload() + "|" + r.rt() + "|" + r.placement().name() + "|" + r.writers(),
                        k -> new ArrayList<>()).add(r);
            }
            groups.forEach((key, rs) -> contention(out, rs, results));
        }

        if (!notes.isEmpty()) {
            out.append("## Notes\n");
            for (String n : notes) out.append("- ").append(n).append('\n');
        }
        return out.toString();
    }

    private static void contention(StringBuilder out, List<CpupriFamily.Run> runs, List<Result> results) {
        CpupriFamily.Run first = runs.getFirst();
        int[] cpus = first.cpus();
        StringBuilder writers = new StringBuilder();
        for (int i = 1; i < cpus.length; i++) writers.append(i > 1 ? "," : "").append(cpus[i]);
        String rt = first.rt() == null ? "" : ", rt=" + first.rt() + (first.rt().equals("all")
                ? " (the reader's CPU runs RT99: full scan while the writer is at RT99)"
                : " (the reader's CPU at CPUPRI_NORMAL: a find stops at index 0)");
        out.append(String.format(Locale.ROOT, "workload %s%s, %d writer(s); reader on CPU %d, writer(s) on CPU %s (placement %s: %s)%n",
                first.workload(), rt, first.writers(), cpus[0], writers, first.placement().name(), first.placement().description()));
        out.append(String.format(Locale.ROOT, "%-15s %-6s %22s %9s %22s %9s%n", "variant", "stat", "find (reader)", "/packed",
                "set (writer)", "/packed"));
        for (CpupriFamily.Run r : runs) {
            Result find = find(results, r, "find");
            Result set = find(results, r, "set");
            String base = r.variant().startsWith("heap_") ? "heap_packed" : "packed";
            CpupriFamily.Run baseRun = runs.stream()
                    .filter(x -> x.variant().equals(base) && x.implementation().equals(r.implementation())).findFirst().orElse(r);
            String name = r.implementation().equals("native") ? r.variant() + " (C)" : r.variant();
            out.append(String.format(Locale.ROOT, "%-15s %-6s %22s %9s %22s %9s%n", name,
                    r.implementation().equals("native") ? "median" : "mean",
                    score(find), ratio(find, find(results, baseRun, "find")),
                    score(set), ratio(set, find(results, baseRun, "set"))));
        }
        out.append("(/packed: this variant's time over packed's, Java means over Java means and C medians over C medians; "
                + "heap variants over heap_packed; below 1 is faster)\n\n");
    }

    private static Result find(List<Result> results, CpupriFamily.Run r, String metric) {
        return results.stream().filter(x -> x.variant().equals(r.variant()) && x.metric().equals(metric)
                        && x.implementation().equals(r.implementation())
                        && Objects.equals(x.params().get("workload"), r.workload())
                        && Objects.equals(x.params().get("rt"), r.rt())
                        && Objects.equals(x.params().get("writers"), r.writers())
                        && Objects.equals(x.params().get("placement"), r.placement().name()))
                .findFirst().orElse(null);
    }

    private static String score(Result r) {
        if (r == null) return "-";
        return r.error() == null ? String.format(Locale.ROOT, "%.2f", r.score())
                : String.format(Locale.ROOT, "%.2f ± %.2f", r.score(), r.error());
    }

    private static String ratio(Result r, Result base) {
        if (r == null || base == null || base.score() <= 0) return "-";
        return String.format(Locale.ROOT, "%.2f×", r.score() / base.score());
    }

    private static String size(Layout l) {
        return l == null ? "-" : l.sizeBytes() + " B/" + l.cacheLines() + " lines";
    }

    /** JOL-style rows: offset, size, (cache lines), field; column widths from the data. */
    private static void rows(StringBuilder out, Layout l, boolean withLine) {
        List<String> lines = l.rows().stream().map(r -> lineSpan(r, l.lineSize())).toList();
        int offW = Math.max(3, String.valueOf(l.sizeBytes()).length());
        int szW = Math.max(2, l.rows().stream().mapToInt(r -> String.valueOf(r.size()).length()).max().orElse(2));
        int lineW = Math.max(4, lines.stream().mapToInt(String::length).max().orElse(4));
        String head = withLine ? " %" + offW + "s %" + szW + "s %" + lineW + "s  %s%n" : " %" + offW + "s %" + szW + "s  %s%n";
        out.append(withLine ? String.format(Locale.ROOT, head, "OFF", "SZ", "LINE", "FIELD")
                : String.format(Locale.ROOT, head, "OFF", "SZ", "FIELD"));
        for (int i = 0; i < l.rows().size(); i++) {
            Layout.Row r = l.rows().get(i);
            out.append(withLine
                    ? String.format(Locale.ROOT, head, r.offset(), r.size(), lines.get(i), r.name())
                    : String.format(Locale.ROOT, head, r.offset(), r.size(), r.name()));
        }
        if (withLine) {
            out.append(String.format(Locale.ROOT, "Size: %d bytes = %d cache lines of %d bytes%n",
                    l.sizeBytes(), l.cacheLines(), l.lineSize()));
        }
    }

    /** The cache line(s) a row covers, counted from the start of the struct. */
    private static String lineSpan(Layout.Row r, int lineSize) {
        long first = r.offset() / lineSize;
        long last = (r.offset() + r.size() - 1) / lineSize;
        return first == last ? String.valueOf(first) : first + "-" + last;
    }
}
