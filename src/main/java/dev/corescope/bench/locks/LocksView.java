package dev.corescope.bench.locks;

import dev.corescope.bench.Jmh;
import dev.corescope.bench.MachineLoad;
import dev.corescope.text.Num;
import dev.corescope.text.TextDoc;
import dev.corescope.text.TextTable;
import dev.corescope.text.TextTable.Column;
import dev.corescope.topology.Placement;
import dev.corescope.topology.proc.EventSources;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The one view of a {@link LocksModel}: the text {@code bench locks} prints, a list in the seed's
 * style ({@code 12.775 ns - "clean" spin_lock_unlock}) with Java, native and the seed side by
 * side, then what the figures say about the analogy, then the contended mode; the same from a
 * live run or a saved file.
 */
final class LocksView {

    /** How much slower than its C twin the Java spinlock may be (issue 6). */
    static final double TARGET_RATIO = 1.3;

    /** A ratio's interval against the band [1/target, target]. */
    enum RatioFinding {
        /** the whole interval lies inside the band */
        MET("met"),
        /** the whole interval lies outside it, on one side */
        NOT_MET("not met"),
        /** the interval crosses an edge of the band, or is unbounded: this run cannot tell */
        NOT_RESOLVED("not resolved by this run");

        final String words;

        RatioFinding(String words) {
            this.words = words;
        }
    }

    /**
     * The ratio {@code a / b} of two figures with 99.9% half-widths and its interval, {@code (a - ea) / (b + eb)} ..
     * {@code (a + ea) / (b - eb)} (infinite when {@code b - eb <= 0}): {ratio, low, high}.
     */
    static double[] ratioInterval(double a, double ea, double b, double eb) {
        ea = Double.isNaN(ea) ? 0 : ea;
        eb = Double.isNaN(eb) ? 0 : eb;
        double low = Math.max(0, (a - ea) / (b + eb));
        double high = b - eb > 0 ? (a + ea) / (b - eb) : Double.POSITIVE_INFINITY;
        return new double[]{a / b, low, high};
    }

    /** [low, high] against the two-sided band [1/target, target]: "within 1.3x" is neither 1.3 times slower nor faster. */
    static RatioFinding ratioFinding(double low, double high, double target) {
        if (low >= 1 / target && high <= target) return RatioFinding.MET;
        if (high < 1 / target || low > target) return RatioFinding.NOT_MET;
        return RatioFinding.NOT_RESOLVED;
    }

    private LocksView() {
    }

    /** The report as a document, from the saved model's rows (no live types): the run, the list in the seed's style, where the analogy holds and breaks, contended mode, notes. */
    static TextDoc document(LocksModel run) {
        TextDoc d = new TextDoc();
        LocksModel.Tsc tsc = run.tsc();
        d.title("bench locks: lock + unlock per element, time_bench style (seed 004: " + LocksFamily.SEED + ")");
        d.paragraph("  ", "CPU " + run.cpu() + ", pinned" + (run.cpuChoice() == null ? "" : " (" + run.cpuChoice().words + ")"));
        Double load = run.facts() == null ? null : run.facts().loadOneMinute();
        d.paragraph("  ", "machine: " + (run.load() != null ? run.load() : load == null ? "load average unknown"
                : String.format(Locale.ROOT, "1-minute load average %.2f", load)) + ", before the run");
        d.paragraph("  ", "java: JMH, " + (run.jmh() == null ? run.javaSettings() : jmhWords(run.jmh())));
        d.paragraph("  ", "native: the C twin's loop of N inside libcorescope.so, one downcall per batch, "
                + (run.nativeRuns() != null ? nativeWords(run.nativeRuns()) : run.nativeSettings() != null ? run.nativeSettings() : "not run"));
        d.paragraph("  ", "TSC: " + tsc(tsc));
        d.paragraph("  ", "TSC " + tscFlags(tsc));
        d.paragraph("  ", "cycles: native from rdtsc around the loop, as time_bench; java = ns x TSC rate (reading the TSC from Java"
                + " takes a downcall, which costs more than the read)");
        d.paragraph("  ", "[low, high] is the 99.9% confidence interval; the loop overhead is shown, not subtracted (as time_bench)");
        d.blank();

        d.heading("Per element, lock + unlock: java (JMH), native (C loop), the seed");
        TextTable list = new TextTable(Column.key("line"), Column.number("java", "ns"), Column.number("java", "cycles"),
                Column.number("native", "ns"), Column.number("native", "cycles"), Column.number("calls"), Column.number("seed", "ns"))
                .named("locks");
        List<String> lines = new ArrayList<>();
        for (Line line : Line.values()) {
            Optional<LocksModel.Row> j = find(run, line, "java");
            Optional<LocksModel.Row> n = find(run, line, "native");
            if (j.isEmpty() && n.isEmpty()) continue;
            Variant v = line.variant();
            String seed = line.showsSeed() && v.seedNs() != null
                    ? (v.seedFigureIsDerived() ? "~" : "") + published(v.seedNs()) : "";
            list.row(id(line), j.map(LocksView::ns).orElse("-"), j.map(m -> num(d(m.cycles()))).orElse(""),
                    n.map(LocksView::ns).orElse("-"), n.map(m -> num(d(m.cycles()))).orElse(""),
                    n.map(LocksModel.Row::calls).map(Object::toString).orElse(""), seed);
            String prefix = v.contractName() + ": ";
            lines.add(id(line) + ": " + (line.label().startsWith(prefix) ? line.label().substring(prefix.length()) : line.label()));
        }
        for (String other : unknownLines(run)) {
            List<LocksModel.Row> rows = run.rows().stream().filter(r -> r.line().equals(other)).toList();
            Optional<LocksModel.Row> j = rows.stream().filter(r -> r.implementation().equals("java")).findFirst();
            Optional<LocksModel.Row> n = rows.stream().filter(r -> r.implementation().equals("native")).findFirst();
            list.row(other, j.map(LocksView::ns).orElse("-"), j.map(m -> num(d(m.cycles()))).orElse(""),
                    n.map(LocksView::ns).orElse("-"), n.map(m -> num(d(m.cycles()))).orElse(""), "", "");
            lines.add(other + ": variant " + rows.getFirst().variant() + " (a line this version does not describe)");
        }
        d.table(list).notes(lines);
        d.paragraph("  ", "(seed: its figures as published, " + LocksFamily.SEED + "; the function_call figure is a difference"
                + " of two of its rows, which it called \"approx the cost of an extra function call\")");
        boolean calls = run.rows().stream().anyMatch(r -> r.calls() != null); // files from before round three have none
        if (calls) d.paragraph("  ", "calls: the out-of-line calls the C loop makes per element (to a helper or the C library, checked in"
                + " libcorescope.so's machine code). spin_lock_irqsave makes one more than spin_lock_unlock, as on the seed's"
                + " kernel: there _raw_spin_lock and _raw_spin_lock_irqsave were out of line, spin_unlock inline and"
                + " spin_unlock_irqrestore out of line (kernel/Kconfig.locks, x86, PREEMPT=n).");

        Optional<LocksModel.Row> loopJ = find(run, Line.FOR_LOOP, "java");
        Optional<LocksModel.Row> loopN = find(run, Line.FOR_LOOP, "native");
        d.blank().paragraph("Loop overhead, in every row above: java " + loopJ.map(m -> fmt(d(m.ns()), 3) + " ns (JMH's loop around an empty method)").orElse("-")
                + ", native " + loopN.map(m -> fmt(d(m.ns()), 3) + " ns (for loop + compiler barrier)").orElse("-")
                + "; time_bench's was 0.360 ns on an E5-2695.");

        // Where the analogy holds, and where it breaks: from the figures, native where there is one.
        Optional<LocksModel.Row> spinN = find(run, Line.SPIN_LOCK_UNLOCK, "native");
        Optional<LocksModel.Row> spinJ = find(run, Line.SPIN_LOCK_UNLOCK, "java");
        Optional<LocksModel.Row> spin = spinN.or(() -> spinJ);
        List<String> holds = new ArrayList<>();
        spin.ifPresent(x -> holds.add(String.format(Locale.ROOT,
                "The lock. SpinLock and its C twin take the word with one xchg and free it with one store, as the kernel's"
                        + " uncontended spin_lock does: %s ns in C, %s ns in Java, against the seed's 12.775 ns (another CPU, ten"
                        + " years older, and the kernel's lock also disables preemption: compare ratios, not ns).",
                spinN.map(m -> fmt(d(m.ns()), 3)).orElse("-"), spinJ.map(m -> fmt(d(m.ns()), 3)).orElse("-"))));
        Optional<LocksModel.Row> callJ = find(run, Line.FUNCTION_CALL, "java");
        Optional<LocksModel.Row> callN = find(run, Line.FUNCTION_CALL, "native");
        if (callJ.isPresent() || callN.isPresent()) {
            String call = String.format(Locale.ROOT, "A function call: %s ns in C (noinline), %s ns in Java (DONT_INLINE), the seed's ~1.709 ns.",
                    callN.map(m -> fmt(d(m.ns()), 3)).orElse("-"), callJ.map(m -> fmt(d(m.ns()), 3)).orElse("-"));
            call += find(run, Line.FUNCTION_CALL_DOWNCALL, "java").map(dc -> " A downcall into C costs " + fmt(d(dc.ns()), 3)
                    + " ns from Java" + find(run, Line.FUNCTION_CALL_CRITICAL, "java").map(c -> " (" + fmt(d(c.ns()), 3) + " ns critical)").orElse("")
                    + ": the extra a Java row pays per C function it calls.").orElse("");
            holds.add(call);
        }
        d.blank().heading("Where the analogy holds").notes(holds);

        List<String> breaks = new ArrayList<>();
        Optional<LocksModel.Row> mask = find(run, Line.IRQ_SAVE_RESTORE, "native").or(() -> find(run, Line.IRQ_SAVE_RESTORE, "java"));
        if (mask.isPresent() && spin.isPresent()) {
            LocksModel.Row m = mask.get();
            breaks.add(String.format(Locale.ROOT,
                    "irqsave. local_irq_save + restore is a few instructions (pushf; pop; cli, then popf): the seed paid 13.256 ns,"
                            + " 1.04x its lock. Userspace cannot mask interrupts; the stand-in, pthread_sigmask, is the rt_sigprocmask"
                            + " system call, so save + restore is two system calls: %s ns here (%s), %.0fx the lock.",
                    fmt(d(m.ns()), 3), m.implementation(), d(m.ns()) / d(spin.get().ns())));
        }
        Optional<LocksModel.Row> pushfN = find(run, Line.SPIN_LOCK_IRQSAVE_PUSHF, "native");
        Optional<LocksModel.Row> pushfJ = find(run, Line.SPIN_LOCK_IRQSAVE_PUSHF, "java");
        if (pushfN.isPresent() || pushfJ.isPresent()) {
            breaks.add(String.format(Locale.ROOT,
                    "The second stand-in (standIn=pushf_popf) runs what local_irq_save/restore ran on the seed's kernel, pushfq; pop"
                            + " before the lock and push; popfq after the unlock, around the same xchg lock: %s ns in C, %s over the"
                            + " clean lock, against the seed's +8.324 ns. It omits cli and sti (they fault in ring 3; popfq there leaves"
                            + " IF alone), so interrupts stay on, and preempt_disable. Java cannot run those instructions: its row is the"
                            + " Java SpinLock between two critical downcalls that do (%s ns), so it adds two downcalls' cost%s.%s",
                    pushfN.map(m -> fmt(d(m.ns()), 3)).orElse("-"),
                    pushfN.flatMap(x -> spinN.map(sp -> signed(d(x.ns()) - d(sp.ns())) + " ns")).orElse("-"),
                    pushfJ.map(m -> fmt(d(m.ns()), 3)).orElse("-"),
                    find(run, Line.FUNCTION_CALL_CRITICAL, "java").map(c -> " (one critical downcall: " + fmt(d(c.ns()), 3) + " ns)").orElse(""),
                    pushfN.map(LocksModel.Row::calls).filter(c -> c == 1).map(c -> " The C loop has the seed's call structure: the lock"
                            + " and pushfq; pop inline, the unlock and popfq one out-of-line helper, one call per element more than"
                            + " the clean lock, as the seed's kernel had.").orElse("")));
        }
        List<Line> irqLines = List.of(Line.SPIN_LOCK_UNLOCK, Line.IRQ_SAVE_RESTORE, Line.IRQ_DISABLE_SPIN_LOCK,
                Line.SPIN_LOCK_IRQSAVE, Line.IRQSAVE_MANUAL);
        String impl = find(run, Line.SPIN_LOCK_IRQSAVE, "native").isPresent() ? "native" : "java";
        List<LocksModel.Row> irq = irqLines.stream().map(l -> find(run, l, impl)).flatMap(Optional::stream)
                .sorted(Comparator.comparingDouble(r -> d(r.ns()))).toList();
        if (irq.size() > 1) {
            StringBuilder order = new StringBuilder("So the order changes. The seed's: spin_lock_unlock 12.775 < irq_save_restore 13.256 < "
                    + "irq_disable_spin_lock 14.618 < spin_lock_irqsave 21.099 < irqsave_manual 22.808. Here (" + impl + "): ");
            for (int i = 0; i < irq.size(); i++) {
                LocksModel.Row m = irq.get(i);
                if (i > 0) order.append(overlap(irq.get(i - 1), m) ? " ≈ " : " < ");
                order.append(m.variant()).append(' ').append(fmt(d(m.ns()), 1));
            }
            breaks.add(order.append(" (≈: the 99.9% intervals overlap).").toString());
        }
        Optional<LocksModel.Row> save = find(run, Line.SPIN_LOCK_IRQSAVE, impl);
        Optional<LocksModel.Row> noSave = find(run, Line.IRQ_DISABLE_SPIN_LOCK, impl);
        Optional<LocksModel.Row> manual = find(run, Line.IRQSAVE_MANUAL, impl);
        if (save.isPresent() && noSave.isPresent() && manual.isPresent()) {
            double saving = d(save.get().ns()) - d(noSave.get().ns());
            double helper = d(save.get().ns()) - d(manual.get().ns());
            boolean savingResolved = Math.abs(saving) > sumErr(save.get(), noSave.get());
            boolean helperResolved = Math.abs(helper) > sumErr(save.get(), manual.get());
            breaks.add(String.format(Locale.ROOT,
                    "Why: the seed's gaps were a few instructions. Not saving the flags saved it 6.481 ns, and the"
                            + " irqsave helper beat the manual save by 1.709 ns. Here saving the mask costs %s ns (± %s, %s) against not"
                            + " saving, and the helper %s ns (± %s, %s) against the manual save; one function call costs %s ns."
                            + " In userspace the lock is the small part and the mask change, two system calls, is most of it.",
                    signed(saving), fmt(sumErr(save.get(), noSave.get()), 1), savingResolved ? "outside the errors" : "within the errors",
                    signed(helper), fmt(sumErr(save.get(), manual.get()), 1), helperResolved ? "outside the errors" : "within the errors",
                    callN.or(() -> callJ).map(m -> fmt(d(m.ns()), 3)).orElse("-")));
        }
        breaks.add("A userspace spinlock holder can be preempted (the kernel's cannot), and the JVM uses signals itself: the blocked"
                + " set leaves out SIGSEGV, SIGBUS, SIGFPE, SIGILL and SIGTRAP, as cli leaves exceptions on; HotSpot's null checks"
                + " and safepoint polls raise SIGSEGV, which a blocked mask would turn fatal.");
        d.blank().heading("Where it breaks").notes(breaks);

        List<String> well = new ArrayList<>();
        if (spinN.isPresent() && spinJ.isPresent()) {
            LocksModel.Row j = spinJ.get();
            LocksModel.Row n = spinN.get();
            double[] r = ratioInterval(d(j.ns()), d(j.nsError()), d(n.ns()), d(n.nsError()));
            double ratio = r[0];
            RatioFinding finding = ratioFinding(r[1], r[2], TARGET_RATIO);
            String ratioLine = String.format(Locale.ROOT, "Java spin_lock_unlock / its C twin: %.2fx, between %.2fx and %s from the two"
                            + " intervals (target: within %.1fx either way, %.2fx..%.1fx): %s.", ratio, r[1],
                    Double.isInfinite(r[2]) ? "unbounded" : String.format(Locale.ROOT, "%.2fx", r[2]), TARGET_RATIO,
                    1 / TARGET_RATIO, TARGET_RATIO, finding.words);
            if (ratio > TARGET_RATIO) {
                ratioLine += " Where the rest goes: per access the JIT's code makes one bounds compare and one alignment test the C twin"
                        + " does not (README \"bench locks\" has the listing)";
                if (loopJ.isPresent() && loopN.isPresent() && d(loopJ.get().ns()) > d(loopN.get().ns())) {
                    ratioLine += ", and JMH's loop costs " + fmt(d(loopJ.get().ns()) - d(loopN.get().ns()), 3) + " ns more than C's";
                }
                if (zeroIfNaN(d(j.nsError())) > 0.1 * d(j.ns()) || zeroIfNaN(d(n.nsError())) > 0.1 * d(n.ns())) {
                    ratioLine += "; and this run was noisy (an interval wider than 10% of its mean): measure again on a quiet machine";
                }
                ratioLine += ".";
            }
            well.add(ratioLine);
        }
        find(run, Line.SPIN_LOCK_UNLOCK_BOUNDED, "java").ifPresent(b -> spinJ.ifPresent(x -> well.add(String.format(Locale.ROOT,
                "The word through its own segment: %s ns, %.2fx SpinLock: the segment's bounds, alignment, read-only and liveness"
                        + " checks are loaded again after every xchg (a full fence); SpinLock reaches the word as (RawMemory.ALL, address).",
                fmt(d(b.ns()), 3), d(b.ns()) / d(x.ns())))));
        well.add("JMH's perfasm would show where the cycles go, but it needs hardware counters: " + pmu(run) + ".");
        if (tsc.mhz() != null && tsc.calibratedMhz() != null && source(tsc) != TscRate.Source.CALIBRATED) {
            well.add("The TSC: the kernel's rate and this calibration differ by "
                    + Num.of(Math.abs(tsc.calibratedMhz() - tsc.mhz()) / tsc.mhz() * 100) + "%.");
        }
        int migrated = run.rows().stream().mapToInt(LocksModel.Row::migrated).sum();
        if (migrated > 0) {
            well.add(migrated + " native batches ran on another CPU than they were pinned to (params.migrated of their rows): pinning failed?");
        }
        int rounds = run.contended().stream().mapToInt(LocksModel.Contended::migratedRounds).sum();
        if (rounds > 0) {
            well.add(rounds + " contended native rounds had a thread off its CPU (sched_getcpu() in C);"
                    + " they are left out of their rows' figures while clean rounds remain (params.migrated counts them)");
        }
        d.blank().heading("How well it measures").notes(well);

        d.blank().heading("Contended: one thread per CPU, all on one lock; ns per operation for all threads together; fairness = least"
                + " served thread's rate / most served thread's");
        Optional<String> skipped = skipped(run);
        if (skipped.isPresent()) {
            d.paragraph("  ", skipped.get());
        } else {
            d.notes(run.contended().stream().map(c -> c.placement() + ": " + placement(c)).distinct().toList());
            TextTable t = new TextTable(Column.key("placement"), Column.key("impl"), Column.key("lock"), Column.number("all threads", "ns/op"),
                    Column.number("fairness"), Column.text("shares")).named("locks");
            for (LocksModel.Contended c : run.contended()) {
                double total = c.shares().stream().mapToDouble(LocksModel.Share::opsPerUs).sum();
                StringBuilder shares = new StringBuilder();
                for (LocksModel.Share x : c.shares()) {
                    if (!shares.isEmpty()) shares.append(", ");
                    shares.append("cpu").append(x.cpu()).append(' ').append(Num.of(x.opsPerUs() / total * 100)).append('%');
                }
                t.row(c.placement(), c.implementation(), c.label(), Num.withInterval(d(c.nsPerOp()), c.nsError()),
                        Num.of(c.fairness()), shares.toString());
            }
            d.table(t);
        }
        List<String> notes = notes(run);
        if (!notes.isEmpty()) d.blank().heading("Notes").notes(notes);
        return d;
    }

    private static String jmhWords(Jmh.Settings s) {
        if (s.forks() == 0) {
            return String.format(Locale.ROOT, "in this JVM (smoke: numbers mean nothing), %d x %d ms", s.measurementIterations(), s.measurementMillis());
        }
        return String.format(Locale.ROOT, "%d fork%s x %d x %d ms after %d x %d ms warm-up, average time per call",
                s.forks(), s.forks() == 1 ? "" : "s", s.measurementIterations(), s.measurementMillis(), s.warmupIterations(), s.warmupMillis());
    }

    private static String nativeWords(LocksModel.NativeRuns n) {
        return String.format(Locale.ROOT, "%d runs per loop, interleaved loop by loop (ABAB), each %d batches of ~%d ms "
                + "after its own probe and warm-up batch", n.runs(), n.batches(), n.batchMillis());
    }

    /** The line's name in the list and in the saved rows. */
    private static String id(Line line) {
        return line.name().toLowerCase(Locale.ROOT);
    }

    /** The seed's figure as its mail printed it ({@code 12.775}), not rounded to our significant figures. */
    private static String published(double ns) {
        return BigDecimal.valueOf(ns).stripTrailingZeros().toPlainString();
    }

    /** {@code 12.8 [12.5, 13.1]}, or {@code ?} when not measured. */
    private static String ns(LocksModel.Row m) {
        return m.ns() == null ? "?" : Num.withInterval(m.ns(), m.nsError());
    }

    private static String num(double d) {
        return Double.isNaN(d) ? "?" : Num.of(d);
    }

    /** A saved figure: null (not known) as NaN. */
    private static double d(Double x) {
        return x == null ? Double.NaN : x;
    }

    private static Optional<LocksModel.Row> find(LocksModel model, Line line, String implementation) {
        return model.rows().stream().filter(m -> m.line().equals(id(line)) && m.implementation().equals(implementation)).findFirst();
    }

    /** What a reader of the JSON needs too: rows left out and why (worded from the facts; an older file's saved sentences). */
    static List<String> notes(LocksModel model) {
        List<String> notes = new ArrayList<>(model.facts() == null ? model.notes() : notes(model.facts()));
        skipped(model).ifPresent(notes::add);
        return notes;
    }

    /** Why contended mode did not run (an older file's saved sentence), or empty when it ran. */
    static Optional<String> skipped(LocksModel model) {
        return Optional.ofNullable(model.contendedSkipped()).or(() -> Optional.ofNullable(model.contendedSkip()).map(LocksModel.ContendedSkip::words));
    }

    /** A contended row's CPUs and what they share: its placement's phrase. */
    private static String placement(LocksModel.Contended c) {
        String cpus = c.cpus().stream().map(String::valueOf).collect(Collectors.joining(","));
        return switch (c.placement()) {
            case "cpus" -> "CPUs " + cpus + " from --cpus (one thread each, at most " + ContendedLockBenchmark.MAX_THREADS + ")";
            case "any" -> "CPUs " + cpus + ", the first two allowed";
            default -> "CPUs " + cpus + ", " + Placement.ofKey(c.placement()).map(Placement::words).orElse(c.placement());
        };
    }

    /** Whether perf had a hardware PMU (an older file's saved sentence). */
    private static String pmu(LocksModel model) {
        if (model.pmu() != null) return model.pmu();
        List<String> sources = model.eventSources();
        if (sources == null) return "no hardware PMU: /" + EventSources.DIR + " is not readable";
        return EventSources.hardware(sources) ? "hardware PMU present (" + String.join(", ", sources) + ")"
                : "no hardware PMU: /" + EventSources.DIR + " has only " + String.join(", ", sources);
    }

    /** The notes worded from the run's facts: a busy machine, the native rows missing, what --quick leaves out. */
    static List<String> notes(LocksModel.Facts f) {
        List<String> notes = new ArrayList<>();
        if (f.loadOneMinute() != null) MachineLoad.busyNote(f.loadOneMinute(), f.loadCpus()).ifPresent(notes::add);
        if (f.nativeUnavailable() != null) notes.add("native rows missing: " + f.nativeUnavailable());
        if (f.topologyError() != null) notes.add("contended mode ran on the first two allowed CPUs: the topology could not be read (" + f.topologyError() + ")");
        if (f.quick()) {
            notes.add("--quick leaves out: " + String.join(", ", Stream.of(Line.values())
                    .filter(l -> l.java() != null && !l.java().inQuick()).map(Line::label).toList())
                    + "; and in contended mode all but spin_lock_unlock");
        }
        return notes;
    }

    /** Rows of a line this version does not list (a file from another version): shown under their own names. */
    private static List<String> unknownLines(LocksModel model) {
        Set<String> known = Stream.of(Line.values()).map(LocksView::id).collect(Collectors.toSet());
        return model.rows().stream().map(LocksModel.Row::line).filter(l -> !known.contains(l)).distinct().toList();
    }

    private static boolean overlap(LocksModel.Row a, LocksModel.Row b) {
        return Math.abs(d(a.ns()) - d(b.ns())) <= sumErr(a, b);
    }

    private static double sumErr(LocksModel.Row a, LocksModel.Row b) {
        return zeroIfNaN(d(a.nsError())) + zeroIfNaN(d(b.nsError()));
    }

    /** The saved source of the TSC rate, or null when this version does not know it. */
    static TscRate.Source source(LocksModel.Tsc t) {
        for (TscRate.Source s : TscRate.Source.values()) if (s.name().equalsIgnoreCase(t.source())) return s;
        return null;
    }

    /** The TSC rate in one line for the header: the rate, where it came from, and the calibration here. */
    static String tsc(LocksModel.Tsc t) {
        TscRate.Source source = source(t);
        String from = source == null ? t.source() : source.text;
        StringBuilder b = new StringBuilder();
        if (t.mhz() != null) {
            b.append(String.format(Locale.ROOT, "%.3f MHz, from %s", t.mhz(), from));
            if (source != TscRate.Source.CALIBRATED) b.append(" (").append(t.evidence()).append(")");
        } else {
            b.append("rate unknown (").append(t.evidence()).append("): no cycle figures");
        }
        String err = t.calibratedErr() == null ? "" : String.format(Locale.ROOT, " ± %.3f", t.calibratedErr());
        if (t.calibratedMhz() != null && source != TscRate.Source.CALIBRATED) {
            b.append(String.format(Locale.ROOT, "; calibrated here against CLOCK_MONOTONIC: %.3f%s MHz (%+.3f%%)",
                    t.calibratedMhz(), err, (t.calibratedMhz() - d(t.mhz())) / d(t.mhz()) * 100));
        } else if (source == TscRate.Source.CALIBRATED) {
            b.append(String.format(Locale.ROOT, " %s over %d windows (%s)", err, t.calibrations(), t.evidence()));
        }
        return b.toString();
    }

    /** Whether the TSC can be trusted as a clock, from the saved flags and clocksource. */
    static String tscFlags(LocksModel.Tsc t) {
        List<String> flags = t.flags() == null ? List.of() : t.flags();
        String f = flags.isEmpty() ? "no TSC flags in /proc/cpuinfo" : "flags: " + String.join(" ", flags);
        String cs = t.clocksource() == null ? "" : "; clocksource: " + t.clocksource();
        String inv = TscRate.invariant(flags) ? " (invariant: one rate through frequency changes and idle)"
                : flags.isEmpty() ? "" : " (not invariant: cycles may drift with frequency)";
        return f + inv + cs;
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
