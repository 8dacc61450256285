package dev.corescope.bench.cpumask;

import dev.corescope.bench.Figure;
import dev.corescope.bench.SavedModel;
import dev.corescope.report.ResultsFile;
import dev.corescope.text.TextTable;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The one view of a {@link CpumaskModel}: the text report {@code bench cpumask} prints (seed-style
 * totals, per-call figures with their errors, the difference and whether it is significant, the
 * Java gap's split, the code sizes, the notes), the same from a live run or a saved file.
 */
final class CpumaskView {

    private CpumaskView() {
    }

    /** The model a results file holds, if any. */
    static Optional<CpumaskModel> model(ResultsFile file) {
        return SavedModel.read(file, "cpumask", CpumaskModel.class);
    }

    /** The report people read. */
    static String text(CpumaskModel m) {
        StringBuilder sb = new StringBuilder();
        sb.append("# bench cpumask: seed 000, cpumask_any_but() as a for_each_cpu loop (")
                .append(CpumaskFamily.BASELINE).append(") vs cpumask_first_but() (").append(CpumaskFamily.APPROACH).append(")\n");
        sb.append(String.format(Locale.ROOT, "# the seed: 100000 calls in a kernel module on a Ryzen 7 5700X3D: Total time: %d ns before, "
                        + "%d ns after (%+.2f%%), one run each\n",
                CpumaskFamily.SEED_BEFORE_NS, CpumaskFamily.SEED_AFTER_NS, CpumaskReport.SEED_EFFECT_PCT));
        sb.append("# here: allowed CPUs ").append(m.allowed()).append(", nr_cpu_ids ").append(m.nrCpuIds()).append("; ")
                .append(m.pinning()).append('\n');
        if (m.load() != null) sb.append("# at start: ").append(m.load()).append('\n');
        sb.append("# java: ").append(m.javaSettings()).append('\n');
        if (m.comparisons().stream().anyMatch(c -> c.implementation().equals("native"))) {
            sb.append("# native: the C loop of ").append(CpumaskFamily.SEED_CALLS)
                    .append(" calls timed with clock_gettime(CLOCK_MONOTONIC), one downcall per batch, ")
                    .append(m.nativeBatches()).append(" undisturbed batches wanted per variant and row\n");
        }
        sb.append('\n');

        sb.append("Seed-style, ").append(CpumaskFamily.SEED_CALLS)
                .append(" calls (java: the JMH mean x ").append(CpumaskFamily.SEED_CALLS).append("; native: the mean C batch)\n");
        TextTable totals = new TextTable("impl", ">nrCpus", "online", "mask", "layout", CpumaskFamily.BASELINE, CpumaskFamily.APPROACH);
        for (CpumaskModel.Row c : m.comparisons()) {
            totals.row(c.implementation(), c.nrCpus(), c.online(), mask(c.mask()), layout(c.layout()), total(c.baseline()),
                    total(c.approach()));
        }
        sb.append(totals.render("  ")).append('\n');

        sb.append("Per call, ns/op (± half-width of the 99.9% confidence interval)\n");
        TextTable perOp = new TextTable("impl", ">nrCpus", "online", "mask", "layout", ">" + CpumaskFamily.BASELINE,
                ">" + CpumaskFamily.APPROACH, ">difference", "significant");
        for (CpumaskModel.Row c : m.comparisons()) {
            perOp.row(c.implementation(), c.nrCpus(), c.online(), mask(c.mask()), layout(c.layout()), perOp(c.baseline()),
                    perOp(c.approach()), difference(c.baseline(), c.approach()), c.significant() ? "yes" : "no");
        }
        sb.append(perOp.render("  "));
        sb.append("  online=16 mask=online is the seed's experiment; high* is a synthetic worst case (CPUs at the top bits), not "
                + "the seed's; native rows at two code layouts (align64, align32): a difference counts where it holds at both.\n");
        if (m.comparisons().stream().anyMatch(c -> c.baseline().includesPreemptions() || c.approach().includesPreemptions())) {
            sb.append(Figure.PREEMPTIONS_NOTE);
        }
        sb.append('\n');

        if (!m.splits().isEmpty()) {
            sb.append("Where a Java gap comes from (").append(CpumaskFamily.LOOP_FIRST)
                    .append(": first_but's calls in any_but_loop's loop; ns/op ± 99.9% CI)\n");
            TextTable t = new TextTable(">nrCpus", "online", "mask", ">" + CpumaskFamily.LOOP_FIRST,
                    ">calls: next(-1) vs first()", "sig", ">shape: loop vs straight", "sig");
            for (CpumaskModel.SplitRow sp : m.splits()) {
                t.row(sp.nrCpus(), sp.online(), mask(sp.mask()), perOp(sp.loopFirst()),
                        difference(sp.loop(), sp.loopFirst()), sp.callsSignificant() ? "yes" : "no",
                        difference(sp.loopFirst(), sp.firstBut()), sp.shapeSignificant() ? "yes" : "no");
            }
            sb.append(t.render("  "));
            sb.append("  calls: ").append(CpumaskFamily.LOOP_FIRST).append(" minus any_but_loop, the same loop calling first() "
                    + "instead of next(-1) (find_first_bit instead of find_next_bit: the patch's change of calls); shape: "
                    + "first_but minus ").append(CpumaskFamily.LOOP_FIRST).append(", the same calls in straight-line code "
                    + "instead of a loop (how C2 compiles them; in C, GCC compiles the kernel's two shapes, see the native rows). "
                    + "Negative is faster. ").append(m.hsdis()).append("\n\n");
        }

        if (!m.callers().isEmpty()) {
            sb.append("Code size as bloat-o-meter measured it: kernel-like callers cpumask_any_but() is inlined into "
                    + "(native/kernel/cpumask_callers.c, ").append(m.callerFlags()).append("), st_size from their objects' "
                    + "symbol tables; old = ").append(CpumaskFamily.BASELINE).append(", new = ").append(CpumaskFamily.APPROACH)
                    .append('\n');
            for (int nrCpus : m.callers().stream().mapToInt(CpumaskModel.CallerSize::nrCpus).distinct().toArray()) {
                List<CpumaskModel.CallerSize> rows = m.callers().stream().filter(c -> c.nrCpus() == nrCpus)
                        .sorted(java.util.Comparator.comparingLong(CpumaskModel.CallerSize::delta).reversed()).toList();
                long up = rows.stream().mapToLong(CpumaskModel.CallerSize::delta).filter(d -> d > 0).sum();
                long down = rows.stream().mapToLong(CpumaskModel.CallerSize::delta).filter(d -> d < 0).sum();
                long grow = rows.stream().filter(c -> c.delta() > 0).count();
                long shrink = rows.stream().filter(c -> c.delta() < 0).count();
                long before = rows.stream().mapToLong(CpumaskModel.CallerSize::oldBytes).sum();
                long after = rows.stream().mapToLong(CpumaskModel.CallerSize::newBytes).sum();
                sb.append("  For NR_CPUS=").append(nrCpus).append(":\n");
                sb.append(String.format(Locale.ROOT, "  add/remove: 0/0 grow/shrink: %d/%d up/down: %d/%d (%d)%n",
                        grow, shrink, up, down, after - before));
                TextTable t = new TextTable("function", ">old", ">new", ">delta");
                for (CpumaskModel.CallerSize c : rows) {
                    t.row(c.function(), c.oldBytes(), c.newBytes(), String.format(Locale.ROOT, "%+d", c.delta()));
                }
                sb.append(t.render("  "));
                sb.append(String.format(Locale.ROOT, "  Total: Before=%d, After=%d, chg %+.2f%%%n", before, after,
                        before == 0 ? 0.0 : 100.0 * (after - before) / before));
            }
            sb.append("  The seed's totals are over all of vmlinux's callers (-78 B at NR_CPUS=64, -2 B at 4096); these are ")
                    .append(m.callers().stream().map(CpumaskModel.CallerSize::function).distinct().count())
                    .append(" of them, modelled, not the kernel's own code.\n\n");
        }

        sb.append("Notes\n");
        for (String n : m.notes()) sb.append("  - ").append(n).append('\n');
        return sb.toString();
    }

    /** {@code to} minus {@code from}, per call and as a share of {@code from}. */
    private static String difference(Figure from, Figure to) {
        double d = to.result().score() - from.result().score();
        return String.format(Locale.ROOT, "%+.3f (%+.2f%%)", d, 100.0 * d / from.result().score());
    }

    /** The mask's name, marked when it is the synthetic one. */
    private static String mask(String mask) {
        return "high".equals(mask) ? "high*" : mask;
    }

    private static String layout(String layout) {
        return layout == null ? "-" : layout;
    }

    private static String total(Figure s) {
        return String.format(Locale.ROOT, "Total time: %d ns", Math.round(s.result().score() * CpumaskFamily.SEED_CALLS));
    }

    private static String perOp(Figure s) {
        return s.cell();
    }
}
