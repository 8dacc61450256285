package dev.corescope.bench.cpumask;

import dev.corescope.bench.Figure;
import dev.corescope.cpumask.CpuMask;
import dev.corescope.report.Claim;
import dev.corescope.report.Result;
import dev.corescope.text.Num;
import dev.corescope.text.TextDoc;
import dev.corescope.text.TextTable;
import dev.corescope.text.TextTable.Column;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.ToLongFunction;
import java.util.stream.Stream;

/**
 * The one view of a {@link CpumaskModel}: the text report {@code bench cpumask} prints (seed-style
 * totals, per-call figures with their errors, the difference and whether it is significant, the
 * Java gap's split, the code sizes, the notes), the same from a live run or a saved file.
 */
final class CpumaskView {

    private CpumaskView() {
    }

    /**
     * The report people read, as a document: the run, the seed-style totals, per-call figures, the
     * split, code size (from the {@code code-size} rows of {@code results}; a file from round two
     * has its four callers in the model), notes.
     */
    static TextDoc document(CpumaskModel m, List<Result> results) {
        TextDoc d = new TextDoc();
        d.title("bench cpumask: seed 000, cpumask_any_but() as a for_each_cpu loop (" + CpumaskFamily.BASELINE
                + ") vs cpumask_first_but() (" + CpumaskFamily.APPROACH + ")");
        d.paragraph("  ", "the seed: 100000 calls in a kernel module on a Ryzen 7 5700X3D: Total time: " + CpumaskFamily.SEED_BEFORE_NS
                + " ns before, " + CpumaskFamily.SEED_AFTER_NS + " ns after (" + Num.signed(CpumaskFamily.SEED_EFFECT_PCT)
                + "%), one run each");
        d.paragraph("  ", "here: allowed CPUs " + m.allowed() + ", nr_cpu_ids " + m.nrCpuIds() + "; " + m.pinning());
        if (m.load() != null) d.paragraph("  ", "at start: " + m.load());
        d.paragraph("  ", "java: " + m.javaSettings());
        if (m.comparisons().stream().anyMatch(c -> c.implementation().equals("native"))) {
            d.paragraph("  ", "native: the C loop of " + CpumaskFamily.SEED_CALLS + " calls timed with clock_gettime(CLOCK_MONOTONIC), "
                    + "one downcall per batch, " + m.nativeBatches() + " undisturbed batches wanted per variant and row");
        }
        d.blank();

        d.heading("Seed-style, " + CpumaskFamily.SEED_CALLS + " calls (java: the JMH mean x " + CpumaskFamily.SEED_CALLS
                + "; native: the mean C batch), total time");
        TextTable totals = new TextTable(keyColumns(Column.number(CpumaskFamily.BASELINE, "ns"), Column.number(CpumaskFamily.APPROACH, "ns")))
                .named("cpumask");
        for (CpumaskModel.Row c : m.comparisons()) {
            totals.row(c.implementation(), c.nrCpus(), c.online(), mask(c.mask()), layout(c.layout()), total(c.baseline()),
                    total(c.approach()));
        }
        d.table(totals).blank();

        d.heading("Per call, ns/op [99.9% confidence interval]");
        TextTable perOp = new TextTable(keyColumns(Column.number(CpumaskFamily.BASELINE, "ns/op"), Column.number(CpumaskFamily.APPROACH, "ns/op"),
                Column.number("difference", "ns/op"), Column.text("significant"))).named("cpumask");
        for (CpumaskModel.Row c : m.comparisons()) {
            perOp.row(c.implementation(), c.nrCpus(), c.online(), mask(c.mask()), layout(c.layout()), c.baseline().cell(),
                    c.approach().cell(), Figure.change(c.baseline(), c.approach()), c.significant() ? "yes" : "no");
        }
        d.table(perOp);
        List<String> legend = new ArrayList<>();
        legend.add("online=16 mask=online is the seed's experiment; high* is a synthetic worst case (CPUs at the top bits), not "
                + "the seed's; native rows at two code layouts (align64, align32): a difference counts where it holds at both.");
        legend.add("significant: the two variants differ by Welch's t-test at 99.9% (JMH iterations; C batches).");
        if (Figure.anyPreempted(m.comparisons().stream().flatMap(c -> Stream.of(c.baseline(), c.approach())))) {
            legend.add(Figure.PREEMPTIONS_NOTE);
        }
        d.notes("  ", "", legend).blank();

        if (!m.splits().isEmpty()) {
            d.heading("Where a Java gap comes from (" + CpumaskFamily.LOOP_FIRST + ": first_but's calls in any_but_loop's loop; "
                    + "ns/op [99.9% CI])");
            TextTable t = new TextTable(Column.key("nrCpus"), Column.key("online"), Column.key("mask"),
                    Column.number(CpumaskFamily.LOOP_FIRST, "ns/op"), Column.number("calls: next(-1) vs first()"), Column.text("sig"),
                    Column.number("shape: loop vs straight"), Column.text("sig")).named("cpumask");
            for (CpumaskModel.SplitRow sp : m.splits()) {
                t.row(sp.nrCpus(), sp.online(), mask(sp.mask()), sp.loopFirst().cell(),
                        Figure.change(sp.loop(), sp.loopFirst()), sp.callsSignificant() ? "yes" : "no",
                        Figure.change(sp.loopFirst(), sp.firstBut()), sp.shapeSignificant() ? "yes" : "no");
            }
            d.table(t);
            d.paragraph("  ", "calls: " + CpumaskFamily.LOOP_FIRST + " minus any_but_loop, the same loop calling first() "
                    + "instead of next(-1) (find_first_bit instead of find_next_bit: the patch's change of calls); shape: "
                    + "first_but minus " + CpumaskFamily.LOOP_FIRST + ", the same calls in straight-line code "
                    + "instead of a loop (how C2 compiles them; in C, GCC compiles the kernel's two shapes, see the native rows). "
                    + "Negative is faster. " + m.hsdis());
            d.blank();
        }

        codeSize(d, m, sizes(m, results));

        d.heading("Notes").notes(notes(m));
        return d;
    }

    /** The code sizes: the results' code-size rows, or a round-two file's callers (one unnamed build). */
    static List<CpumaskModel.CallerSize> sizes(CpumaskModel m, List<Result> results) {
        Map<String, long[]> byKey = new LinkedHashMap<>();
        for (Result r : results) {
            if (!r.benchmark().equals("cpumask") || !r.metric().equals(CpumaskFamily.CODE_SIZE)) continue;
            String key = r.params().get("nrCpus") + "\u0000" + r.params().get("function") + "\u0000" + r.params().get("build");
            long[] v = byKey.computeIfAbsent(key, k -> new long[]{-1, -1});
            v[r.variant().equals(CpumaskFamily.BASELINE) ? 0 : 1] = Math.round(r.score());
        }
        List<CpumaskModel.CallerSize> out = new ArrayList<>();
        byKey.forEach((k, v) -> {
            String[] p = k.split("\u0000", -1);
            if (v[0] >= 0 && v[1] >= 0) out.add(new CpumaskModel.CallerSize(Integer.parseInt(p[0]), p[1], p[2], v[0], v[1]));
        });
        return out.isEmpty() ? m.callers() : out;
    }

    /**
     * bloat-o-meter's table beside the seed's: per NR_CPUS and function the seed's old/new/delta and
     * the model's (a range over the builds), whether the signs agree; then per build the totals,
     * bloat-o-meter's summary line and how many functions' signs agree with the seed's.
     */
    private static void codeSize(TextDoc d, CpumaskModel m, List<CpumaskModel.CallerSize> sizes) {
        if (sizes.isEmpty()) return;
        List<String> builds = sizes.stream().map(CpumaskView::buildName).distinct().toList();
        CpumaskModel.CodeSizeBuilds matrix = m.codeSizeBuilds();
        d.heading("Code size as bloat-o-meter measures it: the seed's functions, modelled (native/kernel/cpumask_callers.c), "
                + "st_size from each build's objects; old = " + CpumaskFamily.BASELINE + ", new = " + CpumaskFamily.APPROACH
                + (builds.size() == 1 ? "; one build" : "; model figures are ranges over " + builds.size() + " builds")
                + (matrix != null && matrix.compiler() != null ? " (" + matrix.compiler() + ")" : ""));
        TextTable t = new TextTable(Column.key("NR_CPUS"), Column.key("function"), Column.number("seed old", "B"),
                Column.number("seed new", "B"), Column.number("seed delta", "B"), Column.text("model old"), Column.text("model new"),
                Column.text("model delta"), Column.text("sign agrees")).named("cpumask");
        List<String> lines = new ArrayList<>();
        for (int nrCpus : sizes.stream().mapToInt(CpumaskModel.CallerSize::nrCpus).distinct().toArray()) {
            List<String> functions = sizes.stream().filter(c -> c.nrCpus() == nrCpus).map(CpumaskModel.CallerSize::function).distinct().toList();
            List<CpumaskClaims.SeedSize> seed = CpumaskClaims.SEED_SIZES.stream().filter(x -> x.nrCpus() == nrCpus).toList();
            List<String> order = new ArrayList<>(seed.stream().map(CpumaskClaims.SeedSize::function).filter(functions::contains).toList());
            functions.stream().filter(f -> !order.contains(f)).forEach(order::add);
            for (String f : order) {
                List<CpumaskModel.CallerSize> rows = sizes.stream().filter(c -> c.nrCpus() == nrCpus && c.function().equals(f)).toList();
                Optional<CpumaskClaims.SeedSize> s = seed.stream().filter(x -> x.function().equals(f)).findFirst();
                long agree = s.map(x -> rows.stream().filter(c -> Long.signum(c.delta()) == Long.signum(x.delta())).count()).orElse(0L);
                t.row(nrCpus, f, s.map(CpumaskClaims.SeedSize::oldBytes).orElse(null), s.map(CpumaskClaims.SeedSize::newBytes).orElse(null),
                        s.map(x -> signed(x.delta())).orElse("-"), range(rows, CpumaskModel.CallerSize::oldBytes, false),
                        range(rows, CpumaskModel.CallerSize::newBytes, false), range(rows, CpumaskModel.CallerSize::delta, true),
                        s.isEmpty() ? "-" : agree == rows.size() ? "yes" : agree == 0 ? "no" : agree + " of " + rows.size() + " builds");
            }
            long seedOld = seed.stream().mapToLong(CpumaskClaims.SeedSize::oldBytes).sum();
            long seedNew = seed.stream().mapToLong(CpumaskClaims.SeedSize::newBytes).sum();
            List<long[]> totals = new ArrayList<>(); // per build: old, new, up, down, agreeing signs, functions
            for (String b : builds) {
                List<CpumaskModel.CallerSize> rows = sizes.stream().filter(c -> c.nrCpus() == nrCpus && buildName(c).equals(b)).toList();
                if (rows.isEmpty()) continue;
                long agree = rows.stream().filter(c -> seed.stream().anyMatch(x -> x.function().equals(c.function())
                        && Long.signum(x.delta()) == Long.signum(c.delta()))).count();
                long[] v = {rows.stream().mapToLong(CpumaskModel.CallerSize::oldBytes).sum(), rows.stream().mapToLong(CpumaskModel.CallerSize::newBytes).sum(),
                        rows.stream().mapToLong(CpumaskModel.CallerSize::delta).filter(x -> x > 0).sum(),
                        rows.stream().mapToLong(CpumaskModel.CallerSize::delta).filter(x -> x < 0).sum(), agree, rows.size()};
                totals.add(v);
                lines.add(String.format(Locale.ROOT, "NR_CPUS=%d %s: grow/shrink: %d/%d up/down: %d/%d (%s); %d of %d functions' "
                                + "signs agree with the seed's", nrCpus, b, rows.stream().filter(c -> c.delta() > 0).count(),
                        rows.stream().filter(c -> c.delta() < 0).count(), v[2], v[3], signed(v[1] - v[0]), agree, rows.size()));
            }
            long lo = totals.stream().mapToLong(v -> v[1] - v[0]).min().orElse(0), hi = totals.stream().mapToLong(v -> v[1] - v[0]).max().orElse(0);
            long seedDelta = seedNew - seedOld;
            long totalAgree = totals.stream().filter(v -> Long.signum(v[1] - v[0]) == Long.signum(seedDelta)).count();
            t.row(nrCpus, "Total", seedOld, seedNew, signed(seedDelta), span(totals, 0, false), span(totals, 1, false),
                    lo == hi ? signed(lo) : signed(lo) + ".." + signed(hi),
                    totalAgree == totals.size() ? "yes" : totalAgree == 0 ? "no" : totalAgree + " of " + totals.size() + " builds");
            lines.add(String.format(Locale.ROOT, "NR_CPUS=%d: the model's total is %s B over the builds (seed: %s B); "
                            + "functions whose sign agrees with the seed's: %s of %d", nrCpus, lo == hi ? signed(lo) : signed(lo) + ".." + signed(hi),
                    signed(seedDelta), span(totals, 4, false), totals.stream().mapToLong(v -> v[5]).max().orElse(0)));
        }
        d.table(t);
        d.notes("  ", "", lines);
        List<String> about = new ArrayList<>();
        about.add("The seed's totals are over all of vmlinux (-78 B at NR_CPUS=64, -2 B at 4096, the net of +136/-138); the model's "
                + "are over its " + sizes.stream().map(CpumaskModel.CallerSize::function).distinct().count() + " functions, "
                + "each reduced to the code around its cpumask_any_but() call, so its old/new sizes are smaller than the kernel's: "
                + "compare the deltas and their signs, not the sizes. A figure that moves with the build is a range, never exact.");
        if (matrix != null) {
            for (CpumaskModel.BuildFlags b : matrix.builds()) about.add("build " + b.name() + ": " + b.flags());
        } else if (m.callerFlags() != null) {
            about.add("one build (a file from before the build matrix): " + m.callerFlags());
        }
        d.notes("  ", "", about);
        d.blank();
    }

    private static String buildName(CpumaskModel.CallerSize c) {
        return c.build() == null ? "one build" : c.build();
    }

    /** The smallest and largest of {@code f} over {@code rows}, as {@code a..b} (one figure when equal), signed for deltas. */
    private static String range(List<CpumaskModel.CallerSize> rows, ToLongFunction<CpumaskModel.CallerSize> f, boolean sign) {
        long lo = rows.stream().mapToLong(f).min().orElse(0), hi = rows.stream().mapToLong(f).max().orElse(0);
        String a = sign ? signed(lo) : Long.toString(lo), b = sign ? signed(hi) : Long.toString(hi);
        return lo == hi ? a : a + ".." + b;
    }

    /** The smallest and largest of the builds' figure {@code i}, as {@code a..b} (one figure when equal). */
    private static String span(List<long[]> totals, int i, boolean sign) {
        long lo = totals.stream().mapToLong(v -> v[i]).min().orElse(0), hi = totals.stream().mapToLong(v -> v[i]).max().orElse(0);
        String a = sign ? signed(lo) : Long.toString(lo), b = sign ? signed(hi) : Long.toString(hi);
        return lo == hi ? a : a + ".." + b;
    }

    /**
     * The notes, worded from the model's fields; a file written before they were fields carries
     * them as sentences, shown as saved.
     */
    static List<String> notes(CpumaskModel m) {
        if (m.notesAsSentences()) return m.notes();
        List<String> notes = new ArrayList<>();
        masksNote(m).ifPresent(notes::add);
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
        notes.add(resolutionNote(m));
        notes.add("native nrCpus=4096 rows bound the out-of-line searches at nr_cpu_ids, the online CPUs' count (all 4096 bits "
                + "for mask=high), as a kernel built with NR_CPUS=4096 does; Java has no NR_CPUS and bounds them at the mask's size.");
        if (m.quick()) {
            notes.add("--quick: Java measures " + m.comparisons().stream().filter(c -> c.implementation().equals("java")).count()
                    + " of " + CpumaskConfig.all().size() + " configurations; run without --quick for all, with smaller errors.");
        }
        notes.add("java iterations: " + m.javaIterations().words("runs", "iteration", "") + ".");
        if (m.nativeLeftOut() != null) notes.add("native batches: " + m.nativeLeftOut().words("rows", "batch", " per variant") + ".");
        notes.addAll(m.codeSizeGaps());
        if (m.nativeUnavailable() != null) notes.add("native rows left out: " + m.nativeUnavailable());
        return notes;
    }

    /** Each configuration's mask and how its CPU is drawn, from the saved allowed CPUs and nr_cpu_ids. */
    private static Optional<String> masksNote(CpumaskModel m) {
        CpuMask allowed;
        try {
            allowed = CpuMask.parseList(m.allowed(), Math.max(m.nrCpuIds(), 1));
        } catch (RuntimeException e) {
            return Optional.empty(); // a saved list this version cannot read: the note is left out, the tables stand
        }
        Set<String> masks = new LinkedHashSet<>();
        for (String online : CpumaskConfig.ONLINE) {
            for (CpumaskInputs.MaskKind kind : CpumaskInputs.MaskKind.values()) {
                for (int nrCpus : KernelCallers.NR_CPUS) {
                    CpumaskInputs in = CpumaskInputs.of(nrCpus, kind, online, allowed, m.nrCpuIds());
                    masks.add("online=" + online + " mask=" + kind.param() + " nrCpus=" + nrCpus + ": " + in.describeMask()
                            + ", CPU drawn as " + (in.offset() == 0 ? "" : in.offset() + " + ") + "random % " + in.range());
                }
            }
        }
        return Optional.of("Masks (online=16: the seed's machine, CPUs 0-15; online=host: this machine's allowed CPUs " + m.allowed()
                + ", nr_cpu_ids " + m.nrCpuIds() + "): " + String.join("; ", masks) + ".");
    }

    /**
     * Which of the rows the time claim counts could resolve the seed's 0.6%: both errors (each a
     * row's iterations, within its runs) together under that share of the score.
     */
    private static String resolutionNote(CpumaskModel m) {
        double effect = Math.abs(CpumaskFamily.SEED_EFFECT_PCT);
        List<CpumaskModel.Row> counted = m.comparisons().stream().filter(c -> Claim.counts(CpumaskClaims.all(),
                "cpumask", c.baseline().result().variant(), c.baseline().result().implementation(), "op", c.baseline().result().params())).toList();
        long resolving = counted.stream().filter(c -> resolutionPct(c) < effect).count();
        long wide = m.comparisons().stream().filter(c -> worstErrorPct(c) > CpumaskFamily.TARGET_ERROR_PCT).count();
        String s = String.format(Locale.ROOT, "The seed's effect is %.2f%% of its total. A row can resolve an effect that small only "
                        + "when its two errors add up to less than that share of the score: %d of the %d rows the time claim counts "
                        + "do (of %d rows here); %s",
                CpumaskFamily.SEED_EFFECT_PCT, resolving, counted.size(), m.comparisons().size(),
                resolving == counted.size() ? "each of them could have shown it."
                        : "the others can neither confirm nor refute a 0.6% change; the claim's verdict above takes each "
                        + "row's runs as its unit and says what it could see.");
        if (wide > 0) {
            s += String.format(Locale.ROOT, " %d row%s an error above %.0f%% of the score (%s).",
                    wide, wide == 1 ? " has" : "s have", CpumaskFamily.TARGET_ERROR_PCT,
                    m.quick() ? "--quick runs fewer iterations" : "other work on the machine: see the load average above");
        }
        return s;
    }

    /** The sum of both errors as a share of the baseline: differences below it are not resolved. */
    private static double resolutionPct(CpumaskModel.Row c) {
        return 100.0 * (err(c.baseline()) + err(c.approach())) / c.baseline().result().score();
    }

    private static double worstErrorPct(CpumaskModel.Row c) {
        return Math.max(100.0 * err(c.baseline()) / c.baseline().result().score(),
                100.0 * err(c.approach()) / c.approach().result().score());
    }

    private static double err(Figure f) {
        return f.result().error() == null ? Double.POSITIVE_INFINITY : f.result().error();
    }

    /** The row key of the comparison tables (implementation and params), then {@code values}. */
    private static List<Column> keyColumns(Column... values) {
        List<Column> cs = new ArrayList<>(List.of(Column.key("impl"), Column.key("nrCpus"), Column.key("online"), Column.key("mask"),
                Column.key("layout")));
        cs.addAll(List.of(values));
        return cs;
    }

    private static String signed(long v) {
        return v > 0 ? "+" + v : Long.toString(v);
    }

    /** The mask's name, marked when it is the synthetic one. */
    private static String mask(String mask) {
        return "high".equals(mask) ? "high*" : mask;
    }

    private static String layout(String layout) {
        return layout == null ? "-" : layout;
    }

    private static long total(Figure s) {
        return Math.round(s.result().score() * CpumaskFamily.SEED_CALLS);
    }
}
