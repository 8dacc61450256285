package dev.corescope.bench.locks;

import dev.corescope.bench.SavedModel;
import dev.corescope.report.ResultsFile;

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

    /** The text report. */
    static String text(LocksModel model) {
        LocksRun run = model.run();
        StringBuilder out = new StringBuilder();
        TscRate tsc = run.tsc();
        out.append("bench locks: lock + unlock per element, time_bench style (seed 004: ").append(LocksReport.SEED).append(")\n");
        out.append("# CPU ").append(run.cpu()).append(", pinned (").append(run.cpuChoice()).append(")\n");
        out.append("# machine: ").append(run.load()).append(", before the run\n");
        out.append("# java: JMH, ").append(run.javaSettings()).append("\n");
        out.append("# native: the C twin's loop of N inside libcorescope.so, one downcall per batch, ").append(run.nativeSettings()).append("\n");
        out.append("# TSC: ").append(tsc.describe()).append("\n");
        out.append("# TSC ").append(tsc.describeFlags()).append("\n");
        out.append("# cycles: native from rdtsc around the loop, as time_bench; java = ns x TSC rate (reading the TSC from Java"
                + " takes a downcall, which costs more than the read)\n");
        out.append("# ± is the half-width of the 99.9% confidence interval; the loop overhead is shown, not subtracted (as time_bench)\n\n");

        // The list: java | native | seed | label, column widths from the data.
        List<String[]> table = new ArrayList<>();
        table.add(new String[]{"ns", "±", "cycles", "ns", "±", "cycles", "ns", ""});
        for (Line line : Line.values()) {
            Optional<LockMeasurement> j = find(run, line, "java");
            Optional<LockMeasurement> n = find(run, line, "native");
            if (j.isEmpty() && n.isEmpty()) continue;
            Variant v = line.variant();
            String seed = line.showsSeed() && v.seedNs() != null
                    ? (v.seedFigureIsDerived() ? "~" : "") + fmt(v.seedNs(), 3) : "";
            table.add(new String[]{
                    j.map(m -> fmt(m.ns(), 3)).orElse("-"), j.map(m -> fmt(m.nsError(), 3)).orElse(""),
                    j.map(m -> fmt(m.cycles(), 1)).orElse(""),
                    n.map(m -> fmt(m.ns(), 3)).orElse("-"), n.map(m -> fmt(m.nsError(), 3)).orElse(""),
                    n.map(m -> fmt(m.cycles(), 1)).orElse(""),
                    seed, "- " + line.label()});
        }
        int[] width = new int[8];
        for (String[] row : table) for (int c = 0; c < 7; c++) width[c] = Math.max(width[c], row[c].length());
        int javaGroup = width[0] + width[1] + width[2] + 4;
        int nativeGroup = width[3] + width[4] + width[5] + 4;
        out.append(String.format(Locale.ROOT, "  %-" + javaGroup + "s    %-" + nativeGroup + "s    %" + width[6] + "s%n",
                "java (JMH)", "native (C loop)", "seed"));
        for (String[] row : table) {
            out.append(String.format(Locale.ROOT, "  %" + width[0] + "s  %" + width[1] + "s  %" + width[2] + "s    %"
                            + width[3] + "s  %" + width[4] + "s  %" + width[5] + "s    %" + width[6] + "s  %s",
                    row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7]).stripTrailing()).append('\n');
        }
        out.append("  (seed: its figures as published, ").append(LocksReport.SEED).append("; the function_call figure is a difference"
                + " of two of its rows, which it called \"approx the cost of an extra function call\")\n");

        Optional<LockMeasurement> loopJ = find(run, Line.FOR_LOOP, "java");
        Optional<LockMeasurement> loopN = find(run, Line.FOR_LOOP, "native");
        out.append("\nLoop overhead, in every row above: java ").append(loopJ.map(m -> fmt(m.ns(), 3) + " ns (JMH's loop around an empty method)").orElse("-"))
                .append(", native ").append(loopN.map(m -> fmt(m.ns(), 3) + " ns (for loop + compiler barrier)").orElse("-"))
                .append("; time_bench's was 0.360 ns on an E5-2695.\n");

        // Where the analogy holds, and where it breaks: from the figures, native where there is one.
        Optional<LockMeasurement> spinN = find(run, Line.SPIN_LOCK_UNLOCK, "native");
        Optional<LockMeasurement> spinJ = find(run, Line.SPIN_LOCK_UNLOCK, "java");
        Optional<LockMeasurement> spin = spinN.or(() -> spinJ);
        out.append("\nWhere the analogy holds\n");
        spin.ifPresent(s -> out.append(String.format(Locale.ROOT,
                "  - The lock. SpinLock and its C twin take the word with one xchg and free it with one store, as the kernel's"
                        + " uncontended spin_lock does: %s ns in C, %s ns in Java, against the seed's 12.775 ns (another CPU, ten"
                        + " years older, and the kernel's lock also disables preemption: compare ratios, not ns).%n",
                spinN.map(m -> fmt(m.ns(), 3)).orElse("-"), spinJ.map(m -> fmt(m.ns(), 3)).orElse("-"))));
        Optional<LockMeasurement> callJ = find(run, Line.FUNCTION_CALL, "java");
        Optional<LockMeasurement> callN = find(run, Line.FUNCTION_CALL, "native");
        if (callJ.isPresent() || callN.isPresent()) {
            out.append(String.format(Locale.ROOT, "  - A function call: %s ns in C (noinline), %s ns in Java (DONT_INLINE), the seed's ~1.709 ns.",
                    callN.map(m -> fmt(m.ns(), 3)).orElse("-"), callJ.map(m -> fmt(m.ns(), 3)).orElse("-")));
            find(run, Line.FUNCTION_CALL_DOWNCALL, "java").ifPresent(d -> out.append(" A downcall into C costs ").append(fmt(d.ns(), 3))
                    .append(" ns from Java").append(find(run, Line.FUNCTION_CALL_CRITICAL, "java").map(c -> " (" + fmt(c.ns(), 3) + " ns critical)").orElse(""))
                    .append(": the extra a Java row pays per C function it calls."));
            out.append('\n');
        }

        out.append("\nWhere it breaks\n");
        Optional<LockMeasurement> mask = find(run, Line.IRQ_SAVE_RESTORE, "native").or(() -> find(run, Line.IRQ_SAVE_RESTORE, "java"));
        if (mask.isPresent() && spin.isPresent()) {
            LockMeasurement m = mask.get();
            out.append(String.format(Locale.ROOT,
                    "  - irqsave. local_irq_save + restore is a few instructions (pushf; pop; cli, then popf): the seed paid 13.256 ns,"
                            + " 1.04x its lock. Userspace cannot mask interrupts; the stand-in, pthread_sigmask, is the rt_sigprocmask"
                            + " system call, so save + restore is two system calls: %s ns here (%s), %.0fx the lock.%n",
                    fmt(m.ns(), 3), m.implementation(), m.ns() / spin.get().ns()));
        }
        Optional<LockMeasurement> pushfN = find(run, Line.SPIN_LOCK_IRQSAVE_PUSHF, "native");
        Optional<LockMeasurement> pushfJ = find(run, Line.SPIN_LOCK_IRQSAVE_PUSHF, "java");
        if (pushfN.isPresent() || pushfJ.isPresent()) {
            out.append(String.format(Locale.ROOT,
                    "  - The second stand-in (standIn=pushf_popf) runs what local_irq_save/restore ran on the seed's kernel, pushfq; pop"
                            + " before the lock and push; popfq after the unlock, around the same xchg lock: %s ns in C, %s over the"
                            + " clean lock, against the seed's +8.324 ns. It omits cli and sti (they fault in ring 3; popfq there leaves"
                            + " IF alone), so interrupts stay on, and preempt_disable. Java cannot run those instructions: its row is the"
                            + " Java SpinLock between two critical downcalls that do (%s ns), so it adds two downcalls' cost%s.%n",
                    pushfN.map(m -> fmt(m.ns(), 3)).orElse("-"),
                    pushfN.flatMap(p -> spinN.map(sp -> signed(p.ns() - sp.ns()) + " ns")).orElse("-"),
                    pushfJ.map(m -> fmt(m.ns(), 3)).orElse("-"),
                    find(run, Line.FUNCTION_CALL_CRITICAL, "java").map(c -> " (one critical downcall: " + fmt(c.ns(), 3) + " ns)").orElse("")));
        }
        List<Line> irqLines = List.of(Line.SPIN_LOCK_UNLOCK, Line.IRQ_SAVE_RESTORE, Line.IRQ_DISABLE_SPIN_LOCK,
                Line.SPIN_LOCK_IRQSAVE, Line.IRQSAVE_MANUAL);
        String impl = find(run, Line.SPIN_LOCK_IRQSAVE, "native").isPresent() ? "native" : "java";
        List<LockMeasurement> irq = irqLines.stream().map(l -> find(run, l, impl)).flatMap(Optional::stream)
                .sorted(Comparator.comparingDouble(LockMeasurement::ns)).toList();
        if (irq.size() > 1) {
            out.append("  - So the order changes. The seed's: spin_lock_unlock 12.775 < irq_save_restore 13.256 < irq_disable_spin_lock 14.618"
                    + " < spin_lock_irqsave 21.099 < irqsave_manual 22.808.\n    Here (").append(impl).append("): ");
            for (int i = 0; i < irq.size(); i++) {
                LockMeasurement m = irq.get(i);
                if (i > 0) out.append(overlap(irq.get(i - 1), m) ? " ≈ " : " < ");
                out.append(m.variant().contractName()).append(' ').append(fmt(m.ns(), 1));
            }
            out.append(" (≈: the 99.9% intervals overlap).\n");
        }
        Optional<LockMeasurement> save = find(run, Line.SPIN_LOCK_IRQSAVE, impl);
        Optional<LockMeasurement> noSave = find(run, Line.IRQ_DISABLE_SPIN_LOCK, impl);
        Optional<LockMeasurement> manual = find(run, Line.IRQSAVE_MANUAL, impl);
        if (save.isPresent() && noSave.isPresent() && manual.isPresent()) {
            double saving = save.get().ns() - noSave.get().ns();
            double helper = save.get().ns() - manual.get().ns();
            boolean savingResolved = Math.abs(saving) > sumErr(save.get(), noSave.get());
            boolean helperResolved = Math.abs(helper) > sumErr(save.get(), manual.get());
            out.append(String.format(Locale.ROOT,
                    "  - Why: the seed's gaps were a few instructions. Not saving the flags saved it 6.481 ns, and the"
                            + " irqsave helper beat the manual save by 1.709 ns. Here saving the mask costs %s ns (± %s, %s) against not"
                            + " saving, and the helper %s ns (± %s, %s) against the manual save; one function call costs %s ns."
                            + " In userspace the lock is the small part and the mask change, two system calls, is most of it.%n",
                    signed(saving), fmt(sumErr(save.get(), noSave.get()), 1), savingResolved ? "outside the errors" : "within the errors",
                    signed(helper), fmt(sumErr(save.get(), manual.get()), 1), helperResolved ? "outside the errors" : "within the errors",
                    callN.or(() -> callJ).map(m -> fmt(m.ns(), 3)).orElse("-")));
        }
        out.append("  - A userspace spinlock holder can be preempted (the kernel's cannot), and the JVM uses signals itself: the blocked"
                + " set leaves out SIGSEGV, SIGBUS, SIGFPE, SIGILL and SIGTRAP, as cli leaves exceptions on; HotSpot's null checks"
                + " and safepoint polls raise SIGSEGV, which a blocked mask would turn fatal.\n");

        out.append("\nHow well it measures\n");
        if (spinN.isPresent() && spinJ.isPresent()) {
            LockMeasurement j = spinJ.get();
            LockMeasurement n = spinN.get();
            double[] r = LocksReport.ratioInterval(j.ns(), j.nsError(), n.ns(), n.nsError());
            double ratio = r[0];
            LocksReport.RatioFinding finding = LocksReport.ratioFinding(r[1], r[2], LocksReport.TARGET_RATIO);
            out.append(String.format(Locale.ROOT, "  - Java spin_lock_unlock / its C twin: %.2fx, between %.2fx and %s from the two"
                            + " intervals (target: within %.1fx either way, %.2fx..%.1fx): %s.%n", ratio, r[1],
                    Double.isInfinite(r[2]) ? "unbounded" : String.format(Locale.ROOT, "%.2fx", r[2]), LocksReport.TARGET_RATIO,
                    1 / LocksReport.TARGET_RATIO, LocksReport.TARGET_RATIO, finding.words));
            if (ratio > LocksReport.TARGET_RATIO) {
                out.append("    Where the rest goes: per access the JIT's code makes one bounds compare and one alignment test the C twin"
                        + " does not (README \"bench locks\" has the listing)");
                if (loopJ.isPresent() && loopN.isPresent() && loopJ.get().ns() > loopN.get().ns()) {
                    out.append(String.format(Locale.ROOT, ", and JMH's loop costs %s ns more than C's",
                            fmt(loopJ.get().ns() - loopN.get().ns(), 3)));
                }
                if (zeroIfNaN(j.nsError()) > 0.1 * j.ns() || zeroIfNaN(n.nsError()) > 0.1 * n.ns()) {
                    out.append("; and this run was noisy (an interval wider than 10% of its mean): measure again on a quiet machine");
                }
                out.append(".\n");
            }
        }
        find(run, Line.SPIN_LOCK_UNLOCK_BOUNDED, "java").ifPresent(b -> spinJ.ifPresent(s -> out.append(String.format(Locale.ROOT,
                "  - The word through its own segment: %s ns, %.2fx SpinLock: the segment's bounds, alignment, read-only and liveness"
                        + " checks are loaded again after every xchg (a full fence); SpinLock reaches the word as (RawMemory.ALL, address).%n",
                fmt(b.ns(), 3), b.ns() / s.ns()))));
        out.append("  - JMH's perfasm would show where the cycles go, but it needs hardware counters: ").append(run.pmu()).append(".\n");
        if (tsc.known() && !Double.isNaN(tsc.calibratedMhz()) && tsc.source() != TscRate.Source.CALIBRATED) {
            out.append(String.format(Locale.ROOT, "  - The TSC: the kernel's rate and this calibration differ by %.3f%%.%n",
                    Math.abs(tsc.calibratedMhz() - tsc.mhz()) / tsc.mhz() * 100));
        }
        int migrated = run.rows().stream().mapToInt(LockMeasurement::migrated).sum();
        if (migrated > 0) {
            out.append("  - ").append(migrated).append(" native batches ran on another CPU than they were pinned to (params.migrated"
                    + " of their rows): pinning failed?\n");
        }
        int rounds = run.contended().stream().mapToInt(ContendedMeasurement::migratedRounds).sum();
        if (rounds > 0) {
            out.append("  - ").append(rounds).append(" contended native rounds had a thread off its CPU (sched_getcpu() in C);"
                    + " they are left out of their rows' figures while clean rounds remain (params.migrated counts them)\n");
        }

        out.append("\nContended: one thread per CPU, all on one lock; ns per operation for all threads together; fairness = least"
                + " served thread's rate / most served thread's\n");
        if (run.contendedSkipped() != null) {
            out.append("  ").append(run.contendedSkipped()).append('\n');
        } else {
            List<ThreadPlacement> placements = run.contended().stream().map(ContendedMeasurement::placement).distinct().toList();
            for (ThreadPlacement p : placements) {
                out.append("  ").append(p.name()).append(": ").append(p.description()).append('\n');
                List<String[]> rows = new ArrayList<>();
                rows.add(new String[]{"ns/op", "±", "fairness", "shares", ""});
                for (ContendedMeasurement c : run.contended()) {
                    if (!c.placement().equals(p)) continue;
                    double total = c.shares().stream().mapToDouble(ContendedMeasurement.Share::opsPerUs).sum();
                    StringBuilder shares = new StringBuilder();
                    for (ContendedMeasurement.Share s : c.shares()) {
                        if (!shares.isEmpty()) shares.append("  ");
                        shares.append("cpu").append(s.cpu()).append(' ').append(fmt(s.opsPerUs() / total * 100, 1)).append('%');
                    }
                    rows.add(new String[]{fmt(c.nsPerOp(), 3), fmt(c.nsError(), 3), fmt(c.fairness(), 2), shares.toString(),
                            "- " + c.implementation() + " " + c.label()});
                }
                int[] w = new int[4];
                for (String[] r : rows) for (int i = 0; i < 4; i++) w[i] = Math.max(w[i], r[i].length());
                for (String[] r : rows) {
                    out.append(String.format(Locale.ROOT, "    %" + w[0] + "s  %" + w[1] + "s  %" + w[2] + "s  %-" + w[3] + "s  %s",
                            r[0], r[1], r[2], r[3], r[4]).stripTrailing()).append('\n');
                }
            }
        }
        List<String> notes = LocksReport.notes(run);
        if (!notes.isEmpty()) {
            out.append("\nNotes\n");
            for (String n : notes) out.append("  - ").append(n).append('\n');
        }
        return out.toString();
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
