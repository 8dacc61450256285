package dev.corescope.bench.locks;

import dev.corescope.bench.SavedModel;
import dev.corescope.report.ResultsFile;
import dev.corescope.text.Num;
import dev.corescope.text.TextDoc;
import dev.corescope.text.TextTable;
import dev.corescope.text.TextTable.Column;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The one view of a {@link LocksModel}: the text {@code bench locks} prints, a list in the seed's
 * style ({@code 12.775 ns - "clean" spin_lock_unlock}) with Java, native and the seed side by
 * side, then what the figures say about the analogy, then the contended mode; the same from a
 * live run or a saved file.
 */
final class LocksView {

    private LocksView() {
    }

    /** The model a results file holds, if any. */
    static Optional<LocksModel> model(ResultsFile file) {
        return SavedModel.read(file, "locks", LocksModel.class);
    }

    /** The report as a document: the run, the list in the seed's style, where the analogy holds and breaks, contended mode, notes. */
    static TextDoc document(LocksModel model) {
        LocksRun run = model.run();
        TextDoc d = new TextDoc();
        TscRate tsc = run.tsc();
        d.title("bench locks: lock + unlock per element, time_bench style (seed 004: " + LocksReport.SEED + ")");
        d.paragraph("  ", "CPU " + run.cpu() + ", pinned (" + run.cpuChoice() + ")");
        d.paragraph("  ", "machine: " + run.load() + ", before the run");
        d.paragraph("  ", "java: JMH, " + run.javaSettings());
        d.paragraph("  ", "native: the C twin's loop of N inside libcorescope.so, one downcall per batch, " + run.nativeSettings());
        d.paragraph("  ", "TSC: " + tsc.describe());
        d.paragraph("  ", "TSC " + tsc.describeFlags());
        d.paragraph("  ", "cycles: native from rdtsc around the loop, as time_bench; java = ns x TSC rate (reading the TSC from Java"
                + " takes a downcall, which costs more than the read)");
        d.paragraph("  ", "[low, high] is the 99.9% confidence interval; the loop overhead is shown, not subtracted (as time_bench)");
        d.blank();

        d.heading("Per element, lock + unlock: java (JMH), native (C loop), the seed");
        TextTable list = new TextTable(Column.key("line"), Column.number("java", "ns"), Column.number("java", "cycles"),
                Column.number("native", "ns"), Column.number("native", "cycles"), Column.number("seed", "ns")).named("locks");
        List<String> lines = new ArrayList<>();
        for (Line line : Line.values()) {
            Optional<LockMeasurement> j = find(run, line, "java");
            Optional<LockMeasurement> n = find(run, line, "native");
            if (j.isEmpty() && n.isEmpty()) continue;
            Variant v = line.variant();
            String seed = line.showsSeed() && v.seedNs() != null
                    ? (v.seedFigureIsDerived() ? "~" : "") + published(v.seedNs()) : "";
            list.row(id(line), j.map(LocksView::ns).orElse("-"), j.map(m -> num(m.cycles())).orElse(""),
                    n.map(LocksView::ns).orElse("-"), n.map(m -> num(m.cycles())).orElse(""), seed);
            String prefix = v.contractName() + ": ";
            lines.add(id(line) + ": " + (line.label().startsWith(prefix) ? line.label().substring(prefix.length()) : line.label()));
        }
        d.table(list).notes(lines);
        d.paragraph("  ", "(seed: its figures as published, " + LocksReport.SEED + "; the function_call figure is a difference"
                + " of two of its rows, which it called \"approx the cost of an extra function call\")");

        Optional<LockMeasurement> loopJ = find(run, Line.FOR_LOOP, "java");
        Optional<LockMeasurement> loopN = find(run, Line.FOR_LOOP, "native");
        d.blank().paragraph("Loop overhead, in every row above: java " + loopJ.map(m -> fmt(m.ns(), 3) + " ns (JMH's loop around an empty method)").orElse("-")
                + ", native " + loopN.map(m -> fmt(m.ns(), 3) + " ns (for loop + compiler barrier)").orElse("-")
                + "; time_bench's was 0.360 ns on an E5-2695.");

        // Where the analogy holds, and where it breaks: from the figures, native where there is one.
        Optional<LockMeasurement> spinN = find(run, Line.SPIN_LOCK_UNLOCK, "native");
        Optional<LockMeasurement> spinJ = find(run, Line.SPIN_LOCK_UNLOCK, "java");
        Optional<LockMeasurement> spin = spinN.or(() -> spinJ);
        List<String> holds = new ArrayList<>();
        spin.ifPresent(x -> holds.add(String.format(Locale.ROOT,
                "The lock. SpinLock and its C twin take the word with one xchg and free it with one store, as the kernel's"
                        + " uncontended spin_lock does: %s ns in C, %s ns in Java, against the seed's 12.775 ns (another CPU, ten"
                        + " years older, and the kernel's lock also disables preemption: compare ratios, not ns).",
                spinN.map(m -> fmt(m.ns(), 3)).orElse("-"), spinJ.map(m -> fmt(m.ns(), 3)).orElse("-"))));
        Optional<LockMeasurement> callJ = find(run, Line.FUNCTION_CALL, "java");
        Optional<LockMeasurement> callN = find(run, Line.FUNCTION_CALL, "native");
        if (callJ.isPresent() || callN.isPresent()) {
            String call = String.format(Locale.ROOT, "A function call: %s ns in C (noinline), %s ns in Java (DONT_INLINE), the seed's ~1.709 ns.",
                    callN.map(m -> fmt(m.ns(), 3)).orElse("-"), callJ.map(m -> fmt(m.ns(), 3)).orElse("-"));
            call += find(run, Line.FUNCTION_CALL_DOWNCALL, "java").map(dc -> " A downcall into C costs " + fmt(dc.ns(), 3)
                    + " ns from Java" + find(run, Line.FUNCTION_CALL_CRITICAL, "java").map(c -> " (" + fmt(c.ns(), 3) + " ns critical)").orElse("")
                    + ": the extra a Java row pays per C function it calls.").orElse("");
            holds.add(call);
        }
        d.blank().heading("Where the analogy holds").notes(holds);

        List<String> breaks = new ArrayList<>();
        Optional<LockMeasurement> mask = find(run, Line.IRQ_SAVE_RESTORE, "native").or(() -> find(run, Line.IRQ_SAVE_RESTORE, "java"));
        if (mask.isPresent() && spin.isPresent()) {
            LockMeasurement m = mask.get();
            breaks.add(String.format(Locale.ROOT,
                    "irqsave. local_irq_save + restore is a few instructions (pushf; pop; cli, then popf): the seed paid 13.256 ns,"
                            + " 1.04x its lock. Userspace cannot mask interrupts; the stand-in, pthread_sigmask, is the rt_sigprocmask"
                            + " system call, so save + restore is two system calls: %s ns here (%s), %.0fx the lock.",
                    fmt(m.ns(), 3), m.implementation(), m.ns() / spin.get().ns()));
        }
        Optional<LockMeasurement> pushfN = find(run, Line.SPIN_LOCK_IRQSAVE_PUSHF, "native");
        Optional<LockMeasurement> pushfJ = find(run, Line.SPIN_LOCK_IRQSAVE_PUSHF, "java");
        if (pushfN.isPresent() || pushfJ.isPresent()) {
            breaks.add(String.format(Locale.ROOT,
                    "The second stand-in (standIn=pushf_popf) runs what local_irq_save/restore ran on the seed's kernel, pushfq; pop"
                            + " before the lock and push; popfq after the unlock, around the same xchg lock: %s ns in C, %s over the"
                            + " clean lock, against the seed's +8.324 ns. It omits cli and sti (they fault in ring 3; popfq there leaves"
                            + " IF alone), so interrupts stay on, and preempt_disable. Java cannot run those instructions: its row is the"
                            + " Java SpinLock between two critical downcalls that do (%s ns), so it adds two downcalls' cost%s.",
                    pushfN.map(m -> fmt(m.ns(), 3)).orElse("-"),
                    pushfN.flatMap(x -> spinN.map(sp -> signed(x.ns() - sp.ns()) + " ns")).orElse("-"),
                    pushfJ.map(m -> fmt(m.ns(), 3)).orElse("-"),
                    find(run, Line.FUNCTION_CALL_CRITICAL, "java").map(c -> " (one critical downcall: " + fmt(c.ns(), 3) + " ns)").orElse("")));
        }
        List<Line> irqLines = List.of(Line.SPIN_LOCK_UNLOCK, Line.IRQ_SAVE_RESTORE, Line.IRQ_DISABLE_SPIN_LOCK,
                Line.SPIN_LOCK_IRQSAVE, Line.IRQSAVE_MANUAL);
        String impl = find(run, Line.SPIN_LOCK_IRQSAVE, "native").isPresent() ? "native" : "java";
        List<LockMeasurement> irq = irqLines.stream().map(l -> find(run, l, impl)).flatMap(Optional::stream)
                .sorted(Comparator.comparingDouble(LockMeasurement::ns)).toList();
        if (irq.size() > 1) {
            StringBuilder order = new StringBuilder("So the order changes. The seed's: spin_lock_unlock 12.775 < irq_save_restore 13.256 < "
                    + "irq_disable_spin_lock 14.618 < spin_lock_irqsave 21.099 < irqsave_manual 22.808. Here (" + impl + "): ");
            for (int i = 0; i < irq.size(); i++) {
                LockMeasurement m = irq.get(i);
                if (i > 0) order.append(overlap(irq.get(i - 1), m) ? " ≈ " : " < ");
                order.append(m.variant().contractName()).append(' ').append(fmt(m.ns(), 1));
            }
            breaks.add(order.append(" (≈: the 99.9% intervals overlap).").toString());
        }
        Optional<LockMeasurement> save = find(run, Line.SPIN_LOCK_IRQSAVE, impl);
        Optional<LockMeasurement> noSave = find(run, Line.IRQ_DISABLE_SPIN_LOCK, impl);
        Optional<LockMeasurement> manual = find(run, Line.IRQSAVE_MANUAL, impl);
        if (save.isPresent() && noSave.isPresent() && manual.isPresent()) {
            double saving = save.get().ns() - noSave.get().ns();
            double helper = save.get().ns() - manual.get().ns();
            boolean savingResolved = Math.abs(saving) > sumErr(save.get(), noSave.get());
            boolean helperResolved = Math.abs(helper) > sumErr(save.get(), manual.get());
            breaks.add(String.format(Locale.ROOT,
                    "Why: the seed's gaps were a few instructions. Not saving the flags saved it 6.481 ns, and the"
                            + " irqsave helper beat the manual save by 1.709 ns. Here saving the mask costs %s ns (± %s, %s) against not"
                            + " saving, and the helper %s ns (± %s, %s) against the manual save; one function call costs %s ns."
                            + " In userspace the lock is the small part and the mask change, two system calls, is most of it.",
                    signed(saving), fmt(sumErr(save.get(), noSave.get()), 1), savingResolved ? "outside the errors" : "within the errors",
                    signed(helper), fmt(sumErr(save.get(), manual.get()), 1), helperResolved ? "outside the errors" : "within the errors",
                    callN.or(() -> callJ).map(m -> fmt(m.ns(), 3)).orElse("-")));
        }
        breaks.add("A userspace spinlock holder can be preempted (the kernel's cannot), and the JVM uses signals itself: the blocked"
                + " set leaves out SIGSEGV, SIGBUS, SIGFPE, SIGILL and SIGTRAP, as cli leaves exceptions on; HotSpot's null checks"
                + " and safepoint polls raise SIGSEGV, which a blocked mask would turn fatal.");
        d.blank().heading("Where it breaks").notes(breaks);

        List<String> well = new ArrayList<>();
        if (spinN.isPresent() && spinJ.isPresent()) {
            LockMeasurement j = spinJ.get();
            LockMeasurement n = spinN.get();
            double[] r = LocksReport.ratioInterval(j.ns(), j.nsError(), n.ns(), n.nsError());
            double ratio = r[0];
            LocksReport.RatioFinding finding = LocksReport.ratioFinding(r[1], r[2], LocksReport.TARGET_RATIO);
            String ratioLine = String.format(Locale.ROOT, "Java spin_lock_unlock / its C twin: %.2fx, between %.2fx and %s from the two"
                            + " intervals (target: within %.1fx either way, %.2fx..%.1fx): %s.", ratio, r[1],
                    Double.isInfinite(r[2]) ? "unbounded" : String.format(Locale.ROOT, "%.2fx", r[2]), LocksReport.TARGET_RATIO,
                    1 / LocksReport.TARGET_RATIO, LocksReport.TARGET_RATIO, finding.words);
            if (ratio > LocksReport.TARGET_RATIO) {
                ratioLine += " Where the rest goes: per access the JIT's code makes one bounds compare and one alignment test the C twin"
                        + " does not (README \"bench locks\" has the listing)";
                if (loopJ.isPresent() && loopN.isPresent() && loopJ.get().ns() > loopN.get().ns()) {
                    ratioLine += ", and JMH's loop costs " + fmt(loopJ.get().ns() - loopN.get().ns(), 3) + " ns more than C's";
                }
                if (zeroIfNaN(j.nsError()) > 0.1 * j.ns() || zeroIfNaN(n.nsError()) > 0.1 * n.ns()) {
                    ratioLine += "; and this run was noisy (an interval wider than 10% of its mean): measure again on a quiet machine";
                }
                ratioLine += ".";
            }
            well.add(ratioLine);
        }
        find(run, Line.SPIN_LOCK_UNLOCK_BOUNDED, "java").ifPresent(b -> spinJ.ifPresent(x -> well.add(String.format(Locale.ROOT,
                "The word through its own segment: %s ns, %.2fx SpinLock: the segment's bounds, alignment, read-only and liveness"
                        + " checks are loaded again after every xchg (a full fence); SpinLock reaches the word as (RawMemory.ALL, address).",
                fmt(b.ns(), 3), b.ns() / x.ns()))));
        well.add("JMH's perfasm would show where the cycles go, but it needs hardware counters: " + run.pmu() + ".");
        if (tsc.known() && !Double.isNaN(tsc.calibratedMhz()) && tsc.source() != TscRate.Source.CALIBRATED) {
            well.add("The TSC: the kernel's rate and this calibration differ by "
                    + Num.of(Math.abs(tsc.calibratedMhz() - tsc.mhz()) / tsc.mhz() * 100) + "%.");
        }
        int migrated = run.rows().stream().mapToInt(LockMeasurement::migrated).sum();
        if (migrated > 0) {
            well.add(migrated + " native batches ran on another CPU than they were pinned to (params.migrated of their rows): pinning failed?");
        }
        int rounds = run.contended().stream().mapToInt(ContendedMeasurement::migratedRounds).sum();
        if (rounds > 0) {
            well.add(rounds + " contended native rounds had a thread off its CPU (sched_getcpu() in C);"
                    + " they are left out of their rows' figures while clean rounds remain (params.migrated counts them)");
        }
        d.blank().heading("How well it measures").notes(well);

        d.blank().heading("Contended: one thread per CPU, all on one lock; ns per operation for all threads together; fairness = least"
                + " served thread's rate / most served thread's");
        if (run.contendedSkipped() != null) {
            d.paragraph("  ", run.contendedSkipped());
        } else {
            List<ThreadPlacement> placements = run.contended().stream().map(ContendedMeasurement::placement).distinct().toList();
            d.notes(placements.stream().map(p -> p.name() + ": " + p.description()).toList());
            TextTable t = new TextTable(Column.key("placement"), Column.key("impl"), Column.key("lock"), Column.number("all threads", "ns/op"),
                    Column.number("fairness"), Column.text("shares")).named("locks");
            for (ContendedMeasurement c : run.contended()) {
                double total = c.shares().stream().mapToDouble(ContendedMeasurement.Share::opsPerUs).sum();
                StringBuilder shares = new StringBuilder();
                for (ContendedMeasurement.Share x : c.shares()) {
                    if (!shares.isEmpty()) shares.append(", ");
                    shares.append("cpu").append(x.cpu()).append(' ').append(Num.of(x.opsPerUs() / total * 100)).append('%');
                }
                t.row(c.placement().name(), c.implementation(), c.label(), Num.withInterval(c.nsPerOp(), nullIfNaN(c.nsError())),
                        Num.of(c.fairness()), shares.toString());
            }
            d.table(t);
        }
        List<String> notes = LocksReport.notes(run);
        if (!notes.isEmpty()) d.blank().heading("Notes").notes(notes);
        return d;
    }

    /** The line's name in the list: the contract's variant, or the line's own name where two lines share a variant. */
    private static String id(Line line) {
        return line.name().toLowerCase(Locale.ROOT);
    }

    /** The seed's figure as its mail printed it ({@code 12.775}), not rounded to our significant figures. */
    private static String published(double ns) {
        return java.math.BigDecimal.valueOf(ns).stripTrailingZeros().toPlainString();
    }

    /** {@code 12.8 [12.5, 13.1]}, or {@code ?} when not measured. */
    private static String ns(LockMeasurement m) {
        return Double.isNaN(m.ns()) ? "?" : Num.withInterval(m.ns(), nullIfNaN(m.nsError()));
    }

    private static String num(double d) {
        return Double.isNaN(d) ? "?" : Num.of(d);
    }

    private static Double nullIfNaN(double d) {
        return Double.isNaN(d) ? null : d;
    }

    private static Optional<LockMeasurement> find(LocksRun run, Line line, String implementation) {
        return run.rows().stream().filter(m -> m.line() == line && m.implementation().equals(implementation)).findFirst();
    }

    private static boolean overlap(LockMeasurement a, LockMeasurement b) {
        return Math.abs(a.ns() - b.ns()) <= sumErr(a, b);
    }

    private static double sumErr(LockMeasurement a, LockMeasurement b) {
        return zeroIfNaN(a.nsError()) + zeroIfNaN(b.nsError());
    }

    private static double zeroIfNaN(double d) {
        return Double.isNaN(d) ? 0 : d;
    }

    private static String fmt(double d, int decimals) {
        return Double.isNaN(d) ? "?" : String.format(Locale.ROOT, "%." + decimals + "f", d);
    }

    private static String signed(double d) {
        return String.format(Locale.ROOT, "%+.1f", d);
    }

}
