package dev.corescope.jitter;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The text view of a {@link JitterReport}: a table quietest first, the evidence per CPU, the verdict. */
public final class JitterText {

    private JitterText() {
    }

    public static String render(JitterReport r) {
        StringBuilder sb = new StringBuilder();
        long cost = r.rows().stream().mapToLong(CpuJitter::clockCostNs).min().orElse(0);
        long thr = r.rows().stream().mapToLong(CpuJitter::thresholdNs).max().orElse(0);
        sb.append("Jitter: ").append(r.rows().size()).append(r.rows().size() == 1 ? " CPU, " : " CPUs, ")
                .append(String.format(Locale.ROOT, "%.1f s each, ", r.secondsPerCpu())).append(r.mode())
                .append("; a clock read costs ").append(cost).append(" ns, gaps over ").append(thr).append(" ns recorded\n\n");

        List<String[]> table = new ArrayList<>();
        table.add(new String[] {"rank", "CPU", ">1µs/s", ">10µs/s", ">100µs/s", "p99", "p99.99", "max", "lost", "steal", "switches", "likely cause of the worst gaps"});
        for (CpuJitter c : r.rows()) {
            table.add(new String[] {
                    String.valueOf(c.rank()), String.valueOf(c.cpu()),
                    num(c.over1usPerSecond()), num(c.over10usPerSecond()), num(c.over100usPerSecond()),
                    ns(c.p99Ns()), ns(c.p9999Ns()), ns(c.maxNs()),
                    String.format(Locale.ROOT, "%.3f%%", c.lostPercent()),
                    c.stealPercent() == null ? "?" : String.format(Locale.ROOT, "%.1f%%", c.stealPercent()),
                    c.contextSwitches() == null ? "n/a" : String.valueOf(c.contextSwitches()),
                    c.likelyCause()});
        }
        int[] w = new int[table.getFirst().length];
        for (String[] row : table) for (int i = 0; i < row.length - 1; i++) w[i] = Math.max(w[i], row[i].length());
        for (String[] row : table) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.length - 1; i++) line.append(" ".repeat(w[i] - row[i].length())).append(row[i]).append("  ");
            line.append(row[row.length - 1]);
            sb.append(line.toString().stripTrailing()).append('\n');
        }
        sb.append("(gap percentiles are of the recorded gaps; steal from /proc/stat; switches of the spinning thread, perf_event_open)\n\n");

        sb.append("Evidence per CPU over its window (events on that CPU per second):\n");
        for (CpuJitter c : r.rows()) {
            sb.append("  CPU ").append(c.cpu());
            if (!c.kernelFlags().isEmpty()) sb.append(" [").append(c.kernelFlags()).append(']');
            if (!c.batch().equals(String.valueOf(c.cpu()))) sb.append(" (measured with ").append(c.batch()).append(')');
            sb.append(": ");
            List<String> parts = new ArrayList<>();
            for (Cause cause : c.causes()) parts.add(cause.describe());
            if (parts.isEmpty()) parts.add("no interrupt, softirq or switch counted");
            if (c.migrations() != null && c.migrations() > 0) parts.add(c.migrations() + " migrations (the pinning did not hold)");
            sb.append(String.join(", ", parts)).append('\n');
        }
        sb.append('\n').append("Kernel: ").append(kernelLine(r.kernel())).append('\n');
        for (String n : r.notes()) sb.append("note: ").append(n).append('\n');
        if (!r.rows().isEmpty()) {
            CpuJitter best = r.rows().getFirst();
            sb.append('\n').append("Quietest first: ").append(r.quietest()).append('\n');
            sb.append("Quietest CPU: ").append(best.cpu()).append(" (").append(num(best.over10usPerSecond()))
                    .append(" gaps over 10 µs per second, largest ").append(ns(best.maxNs())).append(")")
                    .append("; pin to it with --cpus ").append(best.cpu()).append(", or --cpus quiet to measure again and choose\n");
        }
        return sb.toString();
    }

    static String kernelLine(Map<String, String> k) {
        List<String> parts = new ArrayList<>();
        for (var e : k.entrySet()) {
            String name = switch (e.getKey()) {
                case "isolated" -> "isolated (sysfs)";
                case "nohzFullActive" -> "nohz_full (sysfs)";
                default -> e.getKey() + "=";
            };
            parts.add(name + (name.endsWith("=") ? "" : " ") + (e.getValue().isEmpty() ? (name.endsWith("=") ? "(not set)" : "none") : e.getValue()));
        }
        return String.join("; ", parts);
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
