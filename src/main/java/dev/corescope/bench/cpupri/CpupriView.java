package dev.corescope.bench.cpupri;

import dev.corescope.bench.MachineLoad;
import dev.corescope.bench.SavedModel;
import dev.corescope.report.Layout;
import dev.corescope.report.Result;
import dev.corescope.report.ResultsFile;
import dev.corescope.report.Xml;
import dev.corescope.text.Num;
import dev.corescope.topology.Placement;
import dev.corescope.text.TextDoc;
import dev.corescope.text.TextTable;
import dev.corescope.text.TextTable.Column;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The one view of a {@link CpupriModel}: the text report {@code bench cpupri} prints (the layouts,
 * the heap analogue, the contention tables, the notes) and its picture (the cache lines of each
 * layout, showing which counts and masks share a line), the same from a live run or a saved file.
 */
final class CpupriView {

    private CpupriView() {
    }

    /** The model a results file holds, if any. */
    static Optional<CpupriModel> model(ResultsFile file) {
        return SavedModel.read(file, "cpupri", CpupriModel.class);
    }

    /**
     * The report as a document: the layouts, the heap analogue, the contention tables, the notes.
     *
     * @param rows the file's cpupri rows ({@code results[]}); the model of a file written before
     *             they were kept once carries its own copy, used when {@code rows} is empty
     */
    static TextDoc document(CpupriModel m, List<Result> rows) {
        int line = m.lineSize();
        List<CpupriModel.Measured> runs = m.runs();
        List<Result> results = rows.isEmpty() ? m.results() : rows;
        TextDoc d = new TextDoc();
        d.title("bench cpupri: seed 002, false sharing between cpupri_vec->count and ->mask");
        d.paragraph("  ", "cache line: " + line + " bytes; struct cpupri starts on a line").blank();

        d.heading("struct cpupri, CONFIG_CPUMASK_OFFSTACK=y (cpumask_var_t is a pointer)");
        for (CpupriModel.Struct st : m.structs()) {
            d.heading(3, st.layout().name() + ": " + what(st.layout()));
            d.table(rows(st.layout(), true));
            d.paragraph("  ", "Size: " + st.layout().sizeBytes() + " bytes = " + st.layout().cacheLines() + " cache lines of "
                    + st.layout().lineSize() + " bytes").blank();
        }
        TextTable sizes = new TextTable(Column.key("layout"), Column.number("size", "B"), Column.number("lines"),
                Column.number("seed (64-B lines)"), Column.text("count[99] and mask[99]")).named("cpupri");
        for (CpupriModel.Struct st : m.structs()) {
            Layout l = st.layout();
            sizes.row(l.name(), l.sizeBytes(), l.cacheLines(), st.seedCacheLines(), st.rt99Shared() ? "share a line" : "on different lines");
        }
        d.table(sizes).paragraph("  ", "(seed: 26, 203 and 21 cache lines)").blank();

        List<Layout> inline = m.inline();
        if (!inline.isEmpty()) {
            d.heading("struct cpupri, CONFIG_CPUMASK_OFFSTACK=n (the mask inline, NR_CPUS bits)");
            Map<Object, Map<String, Layout>> byNr = new LinkedHashMap<>();
            for (Layout l : inline) byNr.computeIfAbsent(l.params().get("nrCpus"), n -> new LinkedHashMap<>()).put(l.name(), l);
            TextTable t = new TextTable(Column.key("NR_CPUS"), Column.number("packed"), Column.number("aligned"), Column.number("split"))
                    .named("cpupri");
            byNr.forEach((nr, byName) -> t.row(nr, size(byName.get("packed")), size(byName.get("aligned")), size(byName.get("split"))));
            d.table(t).blank();
        }

        d.heading("The Java-heap analogue (field offsets read by JOL from this JVM)");
        m.vmDetails().lines().filter(l -> !l.isBlank()).forEach(l -> d.paragraph("  ", l.replaceFirst("^#\\s*", "")));
        d.blank();
        for (CpupriModel.Heap h : m.heap()) {
            d.heading(3, h.variant() + ": " + h.type());
            d.table(rows(h.layout(), false)).blank();
        }
        if (!m.heap().isEmpty()) {
            int n = CpupriLayouts.CPUPRI_NR_PRIORITIES;
            TextTable ht = new TextTable(Column.key("variant"), Column.number("object", "B"), Column.number("count at"),
                    Column.number("mask at"), Column.number("apart", "B"), Column.text("count and mask"),
                    Column.number(n + " objects + array", "B"), Column.number("lines")).named("cpupri");
            for (CpupriModel.Heap h : m.heap()) {
                ht.row(h.variant(), h.instanceSize(), h.countOffset(), h.maskOffset(), h.gap(),
                        h.apart() ? "never on one line" : "can share a line", h.layout().sizeBytes(), h.layout().cacheLines());
            }
            d.table(ht).paragraph("  ", "(one object per priority, " + n + " of them, and the Object[" + n + "] that holds them; lines of "
                    + line + " bytes)").blank();
        }

        d.heading("Contention (ns/op; java: JMH mean [99.9% CI]; C: median of the samples [99.9% CI])");
        if (runs.isEmpty()) {
            d.paragraph("  ", "not measured (see notes)").blank();
        } else {
            Map<String, List<CpupriModel.Measured>> groups = new LinkedHashMap<>();
            for (CpupriModel.Measured r : runs) {
                groups.computeIfAbsent(r.workload() + "|" + r.rt() + "|" + r.placement() + "|" + r.writers(),
                        k -> new ArrayList<>()).add(r);
            }
            groups.forEach((key, rs) -> contention(d, rs, results));
            d.notes("  ", "", List.of("/packed: this variant's time over packed's, Java means over Java means and C medians over C "
                    + "medians; heap variants over heap_packed; below 1 is faster.")).blank();
        }

        List<CpupriModel.Measured> counted = runs.stream().filter(r -> r.countsPerFind() != null).toList();
        if (!counted.isEmpty()) {
            d.heading("Counts a C find read (median of the samples; 1 = it stopped at index 0, "
                    + (CpupriLayouts.CPUPRI_NR_PRIORITIES - 2) + " = the full scan)");
            TextTable ct = new TextTable(Column.key("rt"), Column.key("variant"), Column.key("placement"), Column.key("writers"),
                    Column.number("counts per find")).named("cpupri");
            for (CpupriModel.Measured r : counted) ct.row(r.rt(), r.variant(), r.placement(), r.writers(), Num.of(r.countsPerFind()));
            d.table(ct).blank();
        }

        List<String> notes = notes(m);
        if (!notes.isEmpty()) d.heading("Notes").notes(notes);
        return d;
    }

    /**
     * The notes, worded from the model's fields; a file written before they were fields carries
     * them as sentences, shown as saved.
     */
    static List<String> notes(CpupriModel m) {
        if (m.notesAsSentences()) return m.notes();
        List<String> notes = new ArrayList<>(m.lineWarnings());
        if (m.contendedIgnored()) notes.add("@Contended was ignored: run the JVM with -XX:-RestrictContended (run.sh does)");
        notes.addAll(planNotes(m.usableCount(), m.usable(), m.nativeUnavailable()));
        boolean measured = !m.runs().isEmpty();
        if (measured && m.loadOneMinute() != null) MachineLoad.busyNote(m.loadOneMinute(), m.onlineCpus()).ifPresent(notes::add);
        double concurrent = m.runs().stream().map(CpupriModel.Measured::concurrent).filter(Objects::nonNull).mapToDouble(x -> x).min().orElse(1);
        if (concurrent < 1) {
            notes.add(String.format(Locale.ROOT, "C rows: a sample in which a thread was off its CPU for over %.0f%% of the time "
                    + "timed a thread alone, not contention, and is left out (at worst %.0f%% of a row's samples were kept%s)",
                    (1 - CpupriTwins.Samples.RAN_FLOOR) * 100, concurrent * 100, concurrent > 0 ? ""
                            : "; a row with none kept shows all of them as one run, which decides no claim: the machine was too busy"));
        }
        notes.add("Seed 002 measured a 2-socket, 240-core/480-CPU machine running 60 ffmpeg instances with RT threads: "
                + "perf c2c showed cpupri_find() loads of vec->mask waiting on the line cpupri_set() writes through "
                + "vec->count (10K-59K cycles per load); aligning the mask cut kernel cycles from ~20% to ~12% and raised fps ~11%.");
        if (measured) {
            int writers = m.runs().stream().mapToInt(CpupriModel.Measured::writers).max().orElse(0);
            notes.add("Here one reader and " + writers + " writer thread(s) share the lines, on " + m.usableCount()
                    + " usable CPUs. The false-sharing cost grows with the writers (params.writers): the more cores write "
                    + "count[0] and count[99], the more often the line is in another core's cache when a reader wants the "
                    + "mask pointer beside it, and with the distance between the cores (SMT < same L3 < other L3 < other "
                    + "package). The seed had 480 CPUs on two sockets under 60 ffmpeg instances; a few CPUs cannot reproduce its 11%.");
            notes.add("In the cpupri workload every CPU of the run is in cpupri from the start, as rq_online_rt() puts every "
                    + "online CPU in it. rt=writers (the kernel's usual case): the reader's CPU sits at CPUPRI_NORMAL, so count[0] "
                    + "is never 0 and a find reads count[0] and mask[0] only, in every layout; count[0] is what the writers change, "
                    + "so this is true sharing, and the layouts can differ only in where mask[0] sits. rt=all: the reader's CPU "
                    + "runs RT99, so while the writer is at RT99 a find reads counts 0..98 and finds nothing: 25 lines packed, "
                    + "99 aligned, 8 split; there the aligned layout (and the padded heap objects) pay for their size.");
        }
        return notes;
    }

    /** What the plan could measure with {@code usableCount} CPUs ({@code usable}, a list) and the C twin, in words. */
    static List<String> planNotes(int usableCount, String usable, String nativeUnavailable) {
        List<String> notes = new ArrayList<>();
        if (usableCount < 2) {
            notes.add("contention not measured: it needs 2 CPUs, " + (usableCount == 0 ? "none is" : "only CPU " + usable + " is")
                    + " usable");
            return notes;
        }
        if (usableCount == 2) {
            notes.add("writers > 1 needs 3 or more usable CPUs; this run has " + usableCount + ", so the seed's system claim "
                    + "(many writers updating counts while readers scan masks, on 480 CPUs) is not testable here: one reader and "
                    + "one writer fit, and in rt=writers every find stops at index 0, where count[0] is what the writer changes "
                    + "(true sharing). The mechanism workload (a reader of the mask pointer beside a count another core writes) "
                    + "is this run's evidence for the false sharing.");
        }
        if (nativeUnavailable != null) {
            notes.add("C twin not run: " + nativeUnavailable);
        } else {
            notes.add("native rows (C): the same struct at the same offsets in C (native/src/cpupri.c), threads pinned in C, "
                    + "each timing its own loop; after the same warm-up as JMH's (iterations x time, thrown away), as many "
                    + "samples of the same length as JMH's measurement iterations; median of the samples with its "
                    + "distribution-free 99.9% interval (params.statistic median). Java rows are JMH's mean of its iterations "
                    + "with the 99.9% Student-t interval (params.statistic mean). Ratios compare Java with Java and C with C; "
                    + "as many writers as the Java row (params.writers), on the same CPUs; a C row's set is the writers' mean");
        }
        return notes;
    }

    private static void contention(TextDoc d, List<CpupriModel.Measured> runs, List<Result> results) {
        CpupriModel.Measured first = runs.getFirst();
        List<Integer> cpus = first.cpus();
        StringBuilder writers = new StringBuilder();
        for (int i = 1; i < cpus.size(); i++) writers.append(i > 1 ? "," : "").append(cpus.get(i));
        String rt = first.rt() == null ? "" : ", rt=" + first.rt() + (first.rt().equals("all")
                ? " (the reader's CPU runs RT99: full scan while the writer is at RT99)"
                : " (the reader's CPU at CPUPRI_NORMAL: a find stops at index 0)");
        d.heading(3, "workload " + first.workload() + rt + ", " + first.writers() + " writer(s); reader on CPU " + cpus.getFirst()
                + ", writer(s) on CPU " + writers + " (" + placementWords(first.placement()) + ")");
        TextTable t = new TextTable(Column.key("variant"), Column.key("impl"), Column.text("stat"), Column.number("find (reader)", "ns/op"),
                Column.number("/packed"), Column.number("set (writer)", "ns/op"), Column.number("/packed")).named("cpupri");
        for (CpupriModel.Measured r : runs) {
            Result find = find(results, r, "find");
            Result set = find(results, r, "set");
            String base = r.variant().startsWith("heap_") ? "heap_packed" : "packed";
            CpupriModel.Measured baseRun = runs.stream()
                    .filter(x -> x.variant().equals(base) && x.implementation().equals(r.implementation())).findFirst().orElse(r);
            t.row(r.variant(), r.implementation(), r.implementation().equals("native") ? "median" : "mean",
                    score(find), ratio(find, find(results, baseRun, "find")),
                    score(set), ratio(set, find(results, baseRun, "set")));
        }
        d.table(t).blank();
    }

    private static Result find(List<Result> results, CpupriModel.Measured r, String metric) {
        return results.stream().filter(x -> x.variant().equals(r.variant()) && x.metric().equals(metric)
                        && x.implementation().equals(r.implementation())
                        && Objects.equals(x.params().get("workload"), r.workload())
                        && Objects.equals(x.params().get("rt"), r.rt())
                        && Objects.equals(x.params().get("writers"), r.writers())
                        && Objects.equals(x.params().get("placement"), r.placement()))
                .findFirst().orElse(null);
    }

    private static String score(Result r) {
        if (r == null) return "-";
        return Num.withInterval(r.score(), r.error());
    }

    private static String ratio(Result r, Result base) {
        if (r == null || base == null || base.score() <= 0) return "-";
        return Num.of(r.score() / base.score()) + "x";
    }

    private static String size(Layout l) {
        return l == null ? "-" : l.sizeBytes() + " B/" + l.cacheLines() + " lines";
    }

    /** JOL-style rows: offset, size, (cache lines), field; the offset is the row's key. */
    private static TextTable rows(Layout l, boolean withLine) {
        List<Column> cols = new ArrayList<>(List.of(Column.key("OFF"), Column.number("SZ")));
        if (withLine) cols.add(Column.number("LINE"));
        cols.add(Column.text("FIELD"));
        TextTable t = new TextTable(cols).named("cpupri");
        for (Layout.Row r : l.rows()) {
            if (withLine) t.row(r.offset(), r.size(), lineSpan(r, l.lineSize()), r.name());
            else t.row(r.offset(), r.size(), r.name());
        }
        return t;
    }

    /** The cache line(s) a row covers, counted from the start of the struct. */
    private static String lineSpan(Layout.Row r, int lineSize) {
        long first = r.offset() / lineSize;
        long last = (r.offset() + r.size() - 1) / lineSize;
        return first == last ? String.valueOf(first) : first + "-" + last;
    }

    // ---- the picture ------------------------------------------------------------------------

    private static final int COLUMNS = 32;
    private static final int CELL = 18;
    private static final String SAME_VEC = "#c0392b";
    private static final String MIXED = "#8e44ad";
    private static final String COUNTS = "#2e86c1";
    private static final String MASKS = "#e67e22";
    private static final String NEITHER = "#e8e8e8";

    /**
     * Each offstack layout as its cache lines, {@value #COLUMNS} to a row: a line is red where a
     * vec's count and its own mask share it (the writer's {@code count} beside the reader's
     * {@code mask}: the seed's false sharing), purple where counts and masks of different vecs
     * do, blue for counts only, orange for masks only, grey for padding and {@code cpu_to_pri};
     * outlined where {@code cpupri_set()} writes ({@code count[0]} and {@code count[99]}).
     * Hovering a line names the fields in it.
     */
    /** What a layout is, by its name ({@link CpupriLayouts.Kind}); a name this version does not know, as it is. */
    private static String what(Layout l) {
        return Stream.of(CpupriLayouts.Kind.values()).filter(k -> k.variant().equals(l.name())).findFirst()
                .map(CpupriLayouts.Kind::description).orElse(l.name());
    }

    /** The writers' placement in words: its {@link Placement}'s phrase, {@code any} as the first two usable CPUs. */
    private static String placementWords(String key) {
        return Placement.ofKey(key).map(Placement::words).orElse(key.equals("any") ? "any: the first two usable CPUs" : key);
    }

    static String svg(CpupriModel m) {
        int line = m.lineSize();
        int left = 40, top = 30;
        int width = left + COLUMNS * CELL + 20;
        StringBuilder body = new StringBuilder();
        int y = top;
        for (CpupriModel.Struct st : m.structs()) {
            Layout l = st.layout();
            int lines = (int) l.cacheLines();
            body.append(String.format(Locale.ROOT, "<text x=\"4\" y=\"%d\" font-weight=\"bold\">%s</text>"
                            + "<text x=\"%d\" y=\"%d\">%s: %d bytes, %d lines of %d bytes; count[99] and mask[99] %s</text>%n",
                    y + 12, Xml.escape(l.name()), 70, y + 12, Xml.escape(what(l)), l.sizeBytes(), lines, line,
                    st.rt99Shared() ? "share a line" : "are on different lines"));
            y += 20;
            for (int ln = 0; ln < lines; ln++) {
                List<Integer> counts = in(st.countOffsets(), st.countBytes(), ln, line);
                List<Integer> masks = in(st.maskOffsets(), st.maskBytes(), ln, line);
                boolean sameVec = counts.stream().anyMatch(masks::contains);
                String fill = sameVec ? SAME_VEC : !counts.isEmpty() && !masks.isEmpty() ? MIXED
                        : !counts.isEmpty() ? COUNTS : !masks.isEmpty() ? MASKS : NEITHER;
                boolean written = counts.contains(0) || counts.contains(CpupriLayouts.CPUPRI_RT99);
                int col = ln % COLUMNS;
                int row = ln / COLUMNS;
                if (col == 0) {
                    body.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" fill=\"#555\">%d</text>%n",
                            left - 4, y + row * CELL + 13, ln));
                }
                String tip = "line " + ln + ", bytes " + (long) ln * line + "-" + ((long) (ln + 1) * line - 1) + ": "
                        + (counts.isEmpty() && masks.isEmpty() ? "padding or cpu_to_pri"
                        : String.join("; ", Stream.of(
                                counts.isEmpty() ? null : "count" + ranges(counts),
                                masks.isEmpty() ? null : "mask" + ranges(masks)).filter(Objects::nonNull).toList()))
                        + (written ? " (cpupri_set() writes here)" : "");
                body.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" "
                                + "stroke=\"%s\" stroke-width=\"%s\"><title>%s</title></rect>%n",
                        left + col * CELL, y + row * CELL, CELL - 2, CELL - 2, fill, written ? "#000" : "none",
                        written ? "2" : "0", Xml.escape(tip)));
            }
            y += ((lines + COLUMNS - 1) / COLUMNS) * CELL + 16;
        }
        String[][] legend = {{SAME_VEC, "a vec's count and its own mask (false sharing)"}, {MIXED, "counts and masks of different vecs"},
                {COUNTS, "counts only"}, {MASKS, "masks only"}, {NEITHER, "padding, cpu_to_pri"}};
        int lx = 4;
        for (String[] e : legend) {
            body.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>"
                    + "<text x=\"%d\" y=\"%d\">%s</text>%n", lx, y, e[0], lx + 16, y + 10, Xml.escape(e[1])));
            lx += 22 + e[1].length() * 6;
            if (lx > width - 150) {
                lx = 4;
                y += 18;
            }
        }
        body.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"none\" stroke=\"#000\" "
                + "stroke-width=\"2\"/><text x=\"%d\" y=\"%d\">written by cpupri_set() (count[0], count[99])</text>%n", lx, y, lx + 16, y + 10));
        int height = y + 24;
        width = Math.max(width, 740);
        return String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"cpupri-lines\" width=\"%d\" height=\"%d\" "
                        + "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"11\">%n"
                        + "<title>struct cpupri's cache lines in each layout</title>%n"
                        + "<text x=\"4\" y=\"16\" font-size=\"13\" font-weight=\"bold\">struct cpupri, CONFIG_CPUMASK_OFFSTACK=y: "
                        + "what shares each %d-byte line</text>%n", width, height, width, height, line)
                + body + "</svg>\n";
    }

    /** The priority indices whose field ({@code bytes} long at {@code offsets[p]}) covers line {@code ln}. */
    private static List<Integer> in(long[] offsets, long bytes, int ln, int line) {
        List<Integer> out = new ArrayList<>();
        for (int p = 0; p < offsets.length; p++) {
            long first = offsets[p] / line;
            long last = (offsets[p] + Math.max(1, bytes) - 1) / line;
            if (first <= ln && ln <= last) out.add(p);
        }
        return out;
    }

    /** {@code [3]} or {@code [3..7, 9]}. */
    private static String ranges(List<Integer> ps) {
        List<String> parts = new ArrayList<>();
        int i = 0;
        while (i < ps.size()) {
            int j = i;
            while (j + 1 < ps.size() && ps.get(j + 1) == ps.get(j) + 1) j++;
            parts.add(i == j ? String.valueOf(ps.get(i)) : ps.get(i) + ".." + ps.get(j));
            i = j + 1;
        }
        return "[" + String.join(", ", parts) + "]";
    }

}
