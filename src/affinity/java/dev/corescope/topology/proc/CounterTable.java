package dev.corescope.topology.proc;

import dev.corescope.text.Shorten;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code /proc/interrupts} or {@code /proc/softirqs}: a header naming one column per CPU
 * ({@code CPU0 CPU1 ...}, online CPUs only, so the numbers can have holes), then one row per
 * source, {@code NAME: count count ... [description]}.
 *
 * <p>Rows as the kernel writes them ({@code show_interrupts}, {@code arch_show_interrupts},
 * {@code show_softirqs}, Linux 4.x to 6.x): numbered device IRQs ({@code 36: 0 49170
 * PCI-MSIX-0000:00:02.0 1-edge virtio1-req.0}: chip, hardware IRQ and trigger, then the
 * actions' names), architecture rows ({@code LOC: ... Local timer interrupts},
 * {@code IPI0: ... Rescheduling interrupts} on Arm), and rows with a single total and no
 * per-CPU columns ({@code ERR: 0}, {@code MIS: 0}), which are kept without per-CPU counts.
 *
 * @param cpus the CPU number of each column, in header order
 * @param rows the rows by key, in file order
 */
public record CounterTable(int[] cpus, Map<String, Row> rows) {

    /** The interrupt counters, relative to a root: for {@link #read}. */
    public static final String INTERRUPTS = "proc/interrupts";
    /** The softirq counters, relative to a root: for {@link #read}. */
    public static final String SOFTIRQS = "proc/softirqs";

    /**
     * One source.
     *
     * @param key         the text before the colon: {@code 36}, {@code LOC}, {@code TIMER}
     * @param counts      per column of {@link CounterTable#cpus()}; empty for a total-only row
     * @param description what follows the counts: chip, trigger and action names, or the row's
     *                    long name ({@code Local timer interrupts}); empty for softirqs
     */
    public record Row(String key, long[] counts, String description) {

        /** {@return the count on one column, 0 when the row has no per-CPU counts} */
        public long count(int column) {
            return column < counts.length ? counts[column] : 0;
        }

        /** {@return whether this is a numbered device interrupt ({@code 36:}), which has an {@code smp_affinity_list}} */
        public boolean isDeviceIrq() {
            return !key.isEmpty() && key.chars().allMatch(c -> c >= '0' && c <= '9');
        }

        /** {@return what a person calls it: a device IRQ's actions ({@code eth0-TxRx-3}), an architecture row's long name ({@code local timer})} */
        public String displayName() {
            if (isDeviceIrq()) {
                String[] words = description.trim().split("\\s+");
                // chip, then "hwirq-trigger", then the actions ("eth0-TxRx-3" or "i8042, i8042")
                int i = 0;
                while (i < words.length && !words[i].matches(".*-(edge|level|fasteoi|simple|none)$")) i++;
                String actions = i + 1 < words.length ? String.join(" ", Arrays.copyOfRange(words, i + 1, words.length))
                        : words.length > 0 ? words[words.length - 1] : "";
                return actions.isEmpty() ? "IRQ " + key : actions;
            }
            if (description.isBlank()) return key;
            String d = description.trim();
            if (d.endsWith(" interrupts")) d = d.substring(0, d.length() - " interrupts".length());
            // "Local timer" -> "local timer", but "TLB shootdowns" keeps its capitals
            boolean word = d.length() > 1 && Character.isLowerCase(d.charAt(1));
            return word ? Character.toLowerCase(d.charAt(0)) + d.substring(1) : d;
        }
    }

    /** A table; {@code cpus} and {@code rows} are copied. */
    public CounterTable {
        cpus = cpus.clone();
        rows = Collections.unmodifiableMap(new LinkedHashMap<>(rows));
    }

    /** {@return the column of a CPU, or -1 when the table has none for it (offline when read)} */
    public int column(int cpu) {
        for (int i = 0; i < cpus.length; i++) if (cpus[i] == cpu) return i;
        return -1;
    }

    /** {@return the row of that key, or empty} */
    public Optional<Row> row(String key) {
        return Optional.ofNullable(rows.get(key));
    }

    /** {@return {@code this - before} per row and CPU} Rows or CPUs missing from either side are left out; a counter that went back counts 0. */
    public CounterTable minus(CounterTable before) {
        Map<String, Row> out = new LinkedHashMap<>();
        for (Row r : rows.values()) {
            Row b = before.rows.get(r.key());
            if (b == null) continue;
            long[] d = new long[r.counts().length];
            for (int col = 0; col < cpus.length && col < d.length; col++) {
                int bc = before.column(cpus[col]);
                if (bc < 0 || bc >= b.counts().length) continue;
                d[col] = Math.max(0, r.counts()[col] - b.counts()[bc]);
            }
            out.put(r.key(), new Row(r.key(), d, r.description()));
        }
        return new CounterTable(cpus, out);
    }

    /** {@return {@code rel} ({@link #INTERRUPTS} or {@link #SOFTIRQS}); empty when absent or unreadable} Malformed: as {@link #parse(Reader)}. */
    public static Optional<CounterTable> read(SysfsReader r, String rel) {
        return r.readLines(rel).map(CounterTable::parse);
    }

    /** {@return the table of the file's lines, as {@link #parse(Reader)}} */
    public static CounterTable parse(List<String> lines) {
        try {
            return parse(new StringReader(String.join("\n", lines)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@return per CPU number, the sum of its counts over every row} */
    public Map<Integer, Long> sumsPerCpu() {
        Map<Integer, Long> sums = new HashMap<>();
        for (int col = 0; col < cpus.length; col++) {
            long sum = 0;
            for (Row row : rows.values()) sum += row.count(col);
            sums.put(cpus[col], sum);
        }
        return sums;
    }

    /**
     * Parses the file.
     *
     * @throws IllegalArgumentException with the line number when the header has no {@code CPUn} columns or a count is not a number
     */
    public static CounterTable parse(Reader in) throws IOException {
        BufferedReader r = new BufferedReader(in);
        String header = r.readLine();
        while (header != null && header.isBlank()) header = r.readLine();
        if (header == null) throw new IllegalArgumentException("empty file, expected a header of CPU columns");
        String[] names = header.trim().split("\\s+");
        int[] cpus = new int[names.length];
        for (int i = 0; i < names.length; i++) {
            if (!names[i].matches("CPU\\d{1,7}")) {
                throw new IllegalArgumentException("line 1: expected CPU columns (CPU0 CPU1 ...), found '" + clip(names[i]) + "'");
            }
            cpus[i] = Integer.parseInt(names[i].substring(3));
        }
        Map<String, Row> rows = new LinkedHashMap<>();
        String line;
        int number = 1;
        while ((line = r.readLine()) != null) {
            number++;
            if (line.isBlank()) continue;
            int colon = line.indexOf(':');
            if (colon < 0) throw new IllegalArgumentException("line " + number + ": no ':' after the source name");
            String key = line.substring(0, colon).trim();
            String rest = line.substring(colon + 1);
            List<Long> counts = new ArrayList<>();
            int pos = 0;
            while (counts.size() < cpus.length) {
                while (pos < rest.length() && rest.charAt(pos) == ' ') pos++;
                int end = pos;
                while (end < rest.length() && rest.charAt(end) >= '0' && rest.charAt(end) <= '9') end++;
                if (end == pos || (end < rest.length() && rest.charAt(end) != ' ' && rest.charAt(end) != '\t')) break;
                try {
                    counts.add(Long.parseLong(rest.substring(pos, end)));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("line " + number + ": count too large: " + clip(rest.substring(pos, end)));
                }
                pos = end;
            }
            String description = rest.substring(Math.min(pos, rest.length())).trim();
            long[] perCpu;
            if (counts.size() == cpus.length) {
                perCpu = counts.stream().mapToLong(Long::longValue).toArray();
            } else if (counts.size() == 1 && description.isEmpty()) {
                perCpu = new long[0]; // ERR: and MIS: hold one total, not a count per CPU
            } else if (counts.isEmpty() && !description.isEmpty() && !key.isEmpty()) {
                // a row of another shape (an architecture's extra line): kept by name, no counts
                perCpu = new long[0];
            } else {
                throw new IllegalArgumentException("line " + number + " (" + clip(key) + "): " + counts.size()
                        + " counts for " + cpus.length + " CPU columns");
            }
            rows.put(key, new Row(key, perCpu, description));
        }
        return new CounterTable(cpus, rows);
    }

    /** {@return {@code s} cut to 43 characters for a table column, as {@code text.Shorten.end} cuts} */
    public static String clip(String s) {
        return Shorten.end(s, 43);
    }
}
