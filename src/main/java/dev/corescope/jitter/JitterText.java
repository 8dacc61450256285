package dev.corescope.jitter;

import dev.corescope.text.TextDoc;
import dev.corescope.text.TextTable;
import dev.corescope.text.TextTable.Column;
import dev.corescope.topology.proc.CpuTimes;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The view of a {@link JitterReport} as a document ({@link TextDoc}): a table quietest first, the
 * evidence per CPU, the verdict. {@code jitter} lays it out at the terminal's width, {@code report
 * --format text} too, and the page renders it with {@link JitterHtml#chart the chart} beside it.
 */
public final class JitterText {

    private JitterText() {
    }

    /** {@link #document} laid out at {@code width} columns. */
    public static String render(JitterReport r, int width) {
        return document(r).render(width);
    }

    /** The run as a document: the table quietest first, the evidence per CPU, the kernel's settings, the quietest CPU. */
    public static TextDoc document(JitterReport r) {
        TextDoc d = new TextDoc();
        long cost = r.rows().stream().mapToLong(CpuJitter::clockCostNs).min().orElse(0);
        long thr = r.rows().stream().mapToLong(CpuJitter::thresholdNs).max().orElse(0);
        d.title("jitter: the quiet CPUs");
        d.paragraph(r.rows().size() + (r.rows().size() == 1 ? " CPU, " : " CPUs, ")
                + String.format(Locale.ROOT, "%.1f s each, ", r.secondsPerCpu()) + r.mode()
                + "; a clock read costs " + cost + " ns, gaps over " + thr + " ns recorded").blank();

        TextTable t = new TextTable(Column.number("rank"), Column.key("CPU"), Column.number(">1µs/s"), Column.number(">10µs/s"),
                Column.number(">100µs/s"), Column.number("p99"), Column.number("p99.99").optional(2), Column.number("max"),
                Column.number("lost").optional(3), Column.number("steal").optional(1), Column.number("switches").optional(1),
                Column.text("likely cause of the worst gaps")).named("jitter").wrappingLast();
        for (CpuJitter c : r.rows()) {
            t.row(c.rank(), c.cpu(), num(c.over1usPerSecond()), num(c.over10usPerSecond()), num(c.over100usPerSecond()),
                    ns(c.p99Ns()), ns(c.p9999Ns()), ns(c.maxNs()), String.format(Locale.ROOT, "%.3f%%", c.lostPercent()),
                    c.stealPercent() == null ? "?" : String.format(Locale.ROOT, "%.1f%%", c.stealPercent()),
                    c.contextSwitches() == null ? "n/a" : String.valueOf(c.contextSwitches()), c.likelyCause());
        }
        d.table(t).paragraph("(gap percentiles are of the recorded gaps; steal from /proc/stat; switches of the spinning thread, perf_event_open)").blank();

        d.paragraph("Evidence per CPU over its window (events on that CPU per second):");
        List<String> evidence = new ArrayList<>();
        for (CpuJitter c : r.rows()) {
            StringBuilder line = new StringBuilder("CPU ").append(c.cpu());
            if (!c.kernelFlags().isEmpty()) line.append(" [").append(c.kernelFlags()).append(']');
            if (!c.batch().equals(String.valueOf(c.cpu()))) line.append(" (measured with ").append(c.batch()).append(')');
            List<String> parts = new ArrayList<>(c.causes().stream().map(Cause::describe).toList());
            if (parts.isEmpty()) parts.add("no interrupt, softirq or switch counted");
            if (c.migrations() != null && c.migrations() > 0) parts.add(c.migrations() + " migrations (the pinning did not hold)");
            evidence.add(line.append(": ").append(String.join(", ", parts)).toString());
        }
        d.notes("  ", "", evidence).blank();
        d.paragraph("Kernel: " + kernelLine(r.kernel()));
        d.notes("", "note: ", notes(r));
        if (!r.rows().isEmpty()) {
            CpuJitter best = r.rows().getFirst();
            d.blank().paragraph("Quietest first: " + r.quietest());
            d.paragraph("Quietest CPU: " + best.cpu() + " (" + num(best.over10usPerSecond()) + " gaps over 10 µs per second, largest "
                    + ns(best.maxNs()) + "); pin to it with --cpus " + best.cpu() + ", or --cpus quiet to measure again and choose");
        }
        return d;
    }

    /** When even the quietest CPU lost this share of its window, the machine was busy, and a note says so. */
    static final double BUSY_LOST_PERCENT = 5.0;

    /**
     * How to read the run, worded from its data: the hypervisor caveat, files and CPUs that could not be read or measured,
     * a busy machine; a file written before these were data, its sentences as saved.
     */
    public static List<String> notes(JitterReport r) {
        if (!r.notes().isEmpty()) return r.notes();
        List<String> notes = new ArrayList<>();
        if (r.hypervisor() != null) {
            notes.add("Under a hypervisor (" + r.hypervisor() + ") each vCPU is a thread on the host: steal time and the host's "
                    + "scheduling dominate the long gaps, and they change with the other guests' load. Read the ranking as "
                    + "true for now on this host; re-run before relying on it, and compare steal% with the gap rates: "
                    + "gaps the guest's own interrupts do not explain are the host's.");
        }
        r.unread().forEach(u -> notes.add(u.file() + " not read (" + u.why() + "): "
                + (u.file().endsWith(CpuTimes.FILE) ? "steal time unknown" : "its sources are not attributed")));
        r.notMeasured().forEach(n -> notes.add("CPU " + n.cpu() + ": not measured (" + (n.why() == null ? "the batch did not start" : n.why()) + ")"));
        double leastLost = r.rows().stream().mapToDouble(CpuJitter::lostPercent).min().orElse(0);
        if (leastLost >= BUSY_LOST_PERCENT) {
            notes.add(String.format(Locale.ROOT, "Every CPU lost at least %.0f%% of its window to gaps: other tasks are running here "
                    + "(see the context switches). The ranking shows where that load fell during the run, not the kernel's own "
                    + "noise; measure again when the machine is idle, or isolate the CPUs you care about.", leastLost));
        }
        return notes;
    }

    static String kernelLine(Map<String, String> k) {
        return k.entrySet().stream().map(e -> {
            String v = e.getValue();
            return switch (e.getKey()) {
                case "isolated" -> "isolated (sysfs) " + (v.isEmpty() ? "none" : v);
                case "nohzFullActive" -> "nohz_full (sysfs) " + (v.isEmpty() ? "none" : v);
                default -> e.getKey() + "=" + (v.isEmpty() ? "(not set)" : v);
            };
        }).collect(Collectors.joining("; "));
    }

    /** {@code 0}, {@code 3.5}, {@code 250}, {@code 1.2k}. */
    static String num(double v) {
        if (v == 0) return "0";
        if (v >= 10_000) return String.format(Locale.ROOT, "%.0fk", v / 1000);
        if (v >= 1000) return String.format(Locale.ROOT, "%.1fk", v / 1000);
        if (v >= 10) return String.format(Locale.ROOT, "%.0f", v);
        return String.format(Locale.ROOT, "%.1f", v);
    }

    /** {@code 850 ns}, {@code 12.3 µs}, {@code 4.1 ms}. */
    static String ns(long v) {
        if (v < 1_000) return v + " ns";
        if (v < 1_000_000) return String.format(Locale.ROOT, "%.1f µs", v / 1e3);
        if (v < 1_000_000_000) return String.format(Locale.ROOT, "%.1f ms", v / 1e6);
        return String.format(Locale.ROOT, "%.2f s", v / 1e9);
    }
}
