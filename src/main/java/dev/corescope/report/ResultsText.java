package dev.corescope.report;

import dev.corescope.text.Terminal;
import dev.corescope.text.Num;
import dev.corescope.text.TextDoc;
import dev.corescope.text.TextTable;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The documents a person reads about a results file beside the families' own: a family's rows
 * (Java and C side by side, paired in {@link #sideBySide}, the one pairing the text and the page
 * share), the {@code perf_event_open} counters, the environment with its warnings, the failures;
 * and the number, params and CPU-set forms every report uses.
 */
public final class ResultsText {

    private static final List<String> COUNTER_ORDER = List.of(
            "task-clock", "context-switches", "cpu-migrations", "page-faults", "cycles", "instructions", "cache-misses");

    private ResultsText() {
    }

    /**
     * A family's rows as a document, for a file that holds no model of it: one table keyed by
     * variant and metric (the params after the figures), Java and C side by side as {@code value [low, high]}.
     */
    public static TextDoc summaryDocument(String family, List<Result> results) {
        // params last: a long one wraps under itself
        TextTable t = new TextTable(TextTable.Column.key("variant"), TextTable.Column.key("metric"),
                TextTable.Column.number("java"), TextTable.Column.number("native"), TextTable.Column.text("unit"),
                TextTable.Column.text("cpus").optional(1), TextTable.Column.text("params")).named(family);
        for (Result[] pair : sideBySide(results)) {
            Result any = pair[0] != null ? pair[0] : pair[1];
            t.row(any.variant(), any.metric(), interval(pair[0]), interval(pair[1]), any.unit(), cpusCell(pair), params(any.params()));
        }
        return new TextDoc().heading("Results (mean [99.9% confidence interval]; Java and C side by side)").table(t);
    }

    /**
     * The rows as {@code {java, native}} pairs, in order of first appearance: results that differ
     * only in {@code implementation} ({@link RowKey#withoutImplementation()}, and the unit) share
     * a pair; any other implementation takes the Java slot; a second result for a taken slot gets
     * a pair of its own.
     */
    static Collection<Result[]> sideBySide(List<Result> results) {
        record Side(RowKey row, String unit, int extra) {
        }
        Map<Side, Result[]> rows = new LinkedHashMap<>();
        for (Result r : results) {
            int slot = "native".equals(r.implementation()) ? 1 : 0;
            Side side = new Side(r.key().withoutImplementation(), r.unit(), 0);
            Result[] pair = rows.computeIfAbsent(side, k -> new Result[2]);
            if (pair[slot] != null) rows.put(new Side(side.row(), side.unit(), rows.size()), pair = new Result[2]);
            pair[slot] = r;
        }
        return rows.values();
    }

    private static String interval(Result r) {
        return r == null ? "" : Num.withInterval(r.score(), r.error());
    }

    static String cpusCell(Result[] pair) {
        TreeSet<String> cpus = new TreeSet<>();
        for (Result r : pair) if (r != null) cpus.add(r.cpus() == null || r.cpus().isEmpty() ? "unpinned" : r.cpus());
        return String.join(" / ", cpus);
    }

    /** The counters as a document: a table keyed by family (the software counters, then the hardware ones), then what its marks mean and why counters are missing. */
    public static TextDoc countersDocument(List<Counters> counters) {
        TextDoc d = new TextDoc();
        if (counters.isEmpty()) return d;
        List<String> names = COUNTER_ORDER.stream()
                .filter(n -> counters.stream().anyMatch(c -> c.get(n) != null))
                .toList();
        List<TextTable.Column> columns = new ArrayList<>(List.of(TextTable.Column.key("family")));
        for (String n : names) columns.add(TextTable.Column.number(n, n.equals("task-clock") ? "ms" : ""));
        TextTable t = new TextTable(columns).named("counters");
        TreeMap<String, String> unavailable = new TreeMap<>();
        boolean scaled = false;
        boolean userOnly = false;
        for (Counters fc : counters) {
            Object[] row = new Object[names.size() + 1];
            row[0] = fc.benchmark();
            for (int i = 0; i < names.size(); i++) {
                Counters.Counter c = fc.get(names.get(i));
                if (c == null || c.value() == null) {
                    row[i + 1] = "n/a";
                    if (c != null && c.unavailable() != null) unavailable.putIfAbsent(c.unavailable(), c.name());
                    continue;
                }
                String v = c.name().equals("task-clock")
                        ? String.format(Locale.ROOT, "%,.1f", c.value() / 1e6)
                        : String.format(Locale.ROOT, "%,d", c.value());
                if (c.runningPercent() != null) {
                    v += "*";
                    scaled = true;
                }
                if (Boolean.TRUE.equals(c.userOnly())) userOnly = true;
                row[i + 1] = v;
            }
            t.row(row);
        }
        d.heading("Counters (perf_event_open; " + counters.getFirst().scope() + "):").table(t);
        List<String> notes = new ArrayList<>();
        if (scaled) notes.add("* multiplexed: scaled by time enabled / time running");
        if (userOnly) notes.add("user space only: the kernel refused counting kernel work (perf_event_paranoid)");
        Map<String, List<String>> byReason = unavailable.entrySet().stream().collect(Collectors.groupingBy(
                e -> e.getKey().replaceFirst("^perf_event_open\\([^)]*\\)", "perf_event_open"),
                TreeMap::new, Collectors.mapping(Map.Entry::getValue, Collectors.toList())));
        byReason.forEach((why, events) -> notes.add("n/a " + String.join(", ", events) + ": " + why));
        return d.notes("  ", "", notes);
    }

    /** The families that did not finish, one line each. */
    public static String failures(List<ResultsFile.Failure> failures) {
        if (failures.isEmpty()) return "";
        StringBuilder sb = new StringBuilder("FAILED:\n");
        for (ResultsFile.Failure f : failures) sb.append("  ").append(Terminal.escape(f.benchmark())).append(": ").append(Terminal.escape(f.reason())).append('\n');
        return sb.toString();
    }

    /** The machine and the run as a document: a table of what was measured on, then the warnings as notes. */
    public static TextDoc environmentDocument(Environment e) {
        TextTable t = new TextTable(TextTable.Column.key("machine"), TextTable.Column.text("")).named("environment");
        for (String[] r : environmentRows(e)) t.row(r[0], r[1]);
        TextDoc d = new TextDoc().heading("Environment").table(t);
        if (e.warnings() != null) d.notes(e.warnings().stream().map(w -> "WARNING: " + w).toList());
        return d;
    }

    static List<String[]> environmentRows(Environment e) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[]{"CPU", orUnknown(e.cpuModel())});
        rows.add(new String[]{"kernel", orUnknown(e.kernel())});
        rows.add(new String[]{"JDK", orUnknown(e.jdk())});
        if (e.jvmFlags() != null && !e.jvmFlags().isEmpty()) rows.add(new String[]{"JVM flags", String.join(" ", e.jvmFlags())});
        rows.add(new String[]{"CPUs", cpus(e)});
        if (e.pinnedCpus() != null) rows.add(new String[]{"pinned", e.pinnedCpus()});
        rows.add(new String[]{"cgroup", "cpuset " + set(e.cgroupCpuset()) + ", CPU quota " + (e.cpuQuota() == null ? "unknown" : e.cpuQuota())
                + (e.cgroup() == null ? "" : " (" + e.cgroup() + ")")});
        String freq = e.frequencyMHz() == null ? "frequency not readable"
                : e.frequencyMHz().get("lowest") + "-" + e.frequencyMHz().get("highest") + " MHz (" + e.frequencyMHz().get("source") + ")";
        rows.add(new String[]{"cpufreq", "governor " + (e.governor() == null ? "not readable (no cpufreq)" : e.governor()) + "; " + freq});
        rows.add(new String[]{"hypervisor", e.hypervisor() == null ? "none seen" : e.hypervisor()
                + (e.stealPercent() == null ? "" : "; steal " + Num.of(e.stealPercent()) + "%")});
        rows.add(new String[]{"hw counters", e.hardwareCounters() == null ? "unknown"
                : e.hardwareCounters() ? "available" : "not available: " + e.hardwareCountersReason()});
        rows.add(new String[]{"run", orUnknown(e.startedAt()) + " to " + orUnknown(e.endedAt()) + duration(e.startedAt(), e.endedAt())});
        return rows;
    }

    /** {@code nrCpus=64 workload=cpupri}, keys sorted. */
    public static String params(Map<String, ?> params) {
        if (params == null || params.isEmpty()) return "";
        return new TreeMap<>(params).entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(" "));
    }

    /**
     * Four significant figures or so, without exponent: 0.1234, 12.35, 1234.5, 123456; beyond a
     * billion or below 0.0001, in scientific form (1.235e+12), never hundreds of digits.
     */
    public static String number(double v) {
        if (Double.isNaN(v)) return "NaN";
        if (Double.isInfinite(v)) return v > 0 ? "inf" : "-inf";
        double a = Math.abs(v);
        if (a >= 1e9 || a > 0 && a < 1e-4) return String.format(Locale.ROOT, "%.3e", v);
        String fmt = a >= 10_000 ? "%.0f" : a >= 100 ? "%.1f" : a >= 10 ? "%.2f" : a >= 1 ? "%.3f" : a == 0 ? "%.0f" : "%.4f";
        return String.format(Locale.ROOT, fmt, v);
    }

    /** The CPU sets and SMT in one line, for the text and the HTML report alike. */
    static String cpus(Environment e) {
        return "allowed " + set(e.allowed()) + ", online " + set(e.online()) + ", isolated " + set(e.isolated())
                + ", nohz_full " + set(e.nohzFull()) + "; SMT " + (e.smt() == null ? "unknown" : e.smt() ? "on" : "off");
    }

    /** A cpulist for a report line: {@code -} for the empty set, {@code ?} when unknown. */
    static String set(String cpulist) {
        if (cpulist == null) return "?";
        return cpulist.isEmpty() ? "-" : cpulist;
    }

    private static String orUnknown(String s) {
        return s == null ? "unknown" : s;
    }

    private static String duration(String from, String to) {
        try {
            Duration d = Duration.between(Instant.parse(from), Instant.parse(to));
            return String.format(Locale.ROOT, " (%.1f s)", d.toMillis() / 1000.0);
        } catch (DateTimeParseException | NullPointerException e) {
            return "";
        }
    }
}
