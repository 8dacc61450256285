package dev.corescope.bench.locks;

import dev.corescope.bench.Jmh;
import dev.corescope.testing.SavedRuns;
import dev.corescope.report.Json;
import dev.corescope.report.Result;
import dev.corescope.report.ResultsFile;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The text list and the JSON rows, both from one {@link LocksModel} built here (test data with
 * round numbers, not a measurement), against approved files; on a difference the received text is
 * written to {@code target/approved-received/locks/} for a diff.
 */
class LocksViewTest {

    private static final TscRate TSC = new TscRate(2600.0, TscRate.Source.KERNEL_LOG, "\"tsc: Detected 2600.000 MHz processor\"",
            2599.0, 1.0, 5, List.of("tsc", "rdtscp", "constant_tsc", "nonstop_tsc"), "tsc");

    static LocksModel model() {
        List<LocksModel.Row> rows = new ArrayList<>();
        rows.add(nat(Line.FOR_LOOP, 0.3));
        rows.add(nat(Line.SPIN_LOCK_UNLOCK, 2.0));
        rows.add(nat(Line.SPIN_LOCK_IRQSAVE_PUSHF, 12.0));
        rows.add(nat(Line.SPIN_LOCK_IRQSAVE, 420.0));
        rows.add(nat(Line.IRQSAVE_MANUAL, 410.0));
        rows.add(nat(Line.IRQ_DISABLE_SPIN_LOCK, 405.0));
        rows.add(nat(Line.IRQ_SAVE_RESTORE, 400.0));
        rows.add(nat(Line.PTHREAD_SPIN_LOCK, 6.0));
        rows.add(nat(Line.FUNCTION_CALL, 1.5));
        rows.add(nat(Line.SYNCHRONIZED, 4.0));
        rows.add(nat(Line.REENTRANT_LOCK, 5.0));
        rows.add(nat(Line.STAMPED_LOCK_OPTIMISTIC, 0.4));
        rows.add(nat(Line.ATOMIC_LONG_INCREMENT, 2.0));
        rows.add(java(Line.FOR_LOOP, 0.4));
        rows.add(java(Line.SPIN_LOCK_UNLOCK, 3.0));
        rows.add(java(Line.SPIN_LOCK_UNLOCK_BOUNDED, 6.0));
        rows.add(java(Line.SPIN_LOCK_IRQSAVE_PUSHF, 20.0));
        rows.add(java(Line.SPIN_LOCK_IRQSAVE, 480.0));
        rows.add(java(Line.IRQSAVE_MANUAL, 470.0));
        rows.add(java(Line.IRQ_DISABLE_SPIN_LOCK, 460.0));
        rows.add(java(Line.IRQ_SAVE_RESTORE, 450.0));
        rows.add(java(Line.PTHREAD_SPIN_LOCK, 30.0));
        rows.add(java(Line.FUNCTION_CALL, 1.6));
        rows.add(java(Line.FUNCTION_CALL_DOWNCALL, 10.0));
        rows.add(java(Line.FUNCTION_CALL_CRITICAL, 3.0));
        rows.add(java(Line.SYNCHRONIZED, 8.0));
        rows.add(java(Line.REENTRANT_LOCK, 9.0));
        rows.add(java(Line.STAMPED_LOCK_OPTIMISTIC, 0.8));
        rows.add(java(Line.ATOMIC_LONG_INCREMENT, 2.5));
        ThreadPlacement pair = new ThreadPlacement("same-l3", List.of(0, 1), null);
        List<LocksModel.Contended> contended = List.of(
                LocksModel.contended(Variant.SPIN_LOCK_UNLOCK, "java", "spin_lock_unlock", pair, 40.0, 2.0, 5,
                        List.of(new LocksModel.Share(0, 0, 15.0), new LocksModel.Share(1, 1, 10.0)), 0),
                LocksModel.contended(Variant.SPIN_LOCK_UNLOCK, "native", "spin_lock_unlock", pair, 30.0, 1.0, 3,
                        List.of(new LocksModel.Share(0, 0, 16.0), new LocksModel.Share(1, 1, 17.0)), 0));
        return new LocksModel(1, LocksModel.CpuChoice.LAST_ALLOWED, LocksModel.of(TSC), new Jmh.Settings(1, 3, 40, 5, 40),
                new LocksModel.NativeRuns(1, 5, 10), rows, contended, null, List.of("software", "tracepoint"),
                new LocksModel.Facts(false, null, 0.5, 2, null));
    }

    private static LocksModel.Row nat(Line line, double ns) {
        return LocksModel.row(line, "native", ns, ns / 100, 5, ns * 2.6, ns * 2.6 / 100, LocksModel.CyclesFrom.RDTSC, 0);
    }

    private static LocksModel.Row java(Line line, double ns) {
        return LocksModel.row(line, "java", ns, ns / 50, 5, TSC.cycles(ns), TSC.cycles(ns / 50), LocksModel.CyclesFrom.TSC_RATE, 0);
    }

    @Test
    void theTextListMatchesTheApprovedFile() {
        assertApproved("locks/report.txt", LocksView.document(model()).render(dev.corescope.text.Width.NONE));
    }

    @Test
    void theJsonRowsMatchTheApprovedFile() {
        ResultsFile file = ResultsFile.builder().results(model().results()).build();
        assertApproved("locks/results.json", Json.write(file));
    }

    @Test
    void everyFigureHasAnNsRowAndACyclesRowWithTheContractsNames() {
        List<Result> results = model().results();
        for (Result r : results) {
            assertEquals("locks", r.benchmark());
            assertTrue(List.of("java", "native").contains(r.implementation()), r.toString());
        }
        long ns = results.stream().filter(r -> r.metric().equals("op")).count();
        long cycles = results.stream().filter(r -> r.metric().equals("op_cycles")).count();
        assertEquals(model().rows().size(), ns);
        assertEquals(ns, cycles);
        List<String> variants = results.stream().map(Result::variant).distinct().toList();
        for (String v : List.of("spin_lock_unlock", "spin_lock_irqsave", "irqsave_manual", "irq_disable_spin_lock",
                "irq_save_restore", "function_call", "synchronized", "reentrant_lock")) {
            assertTrue(variants.contains(v), v + " missing from " + variants);
        }
    }

    @Test
    void aSkippedContendedModeSaysWhyInTextAndNotes() throws IOException {
        LocksModel m = model();
        LocksModel skipped = new LocksModel(m.cpu(), m.cpuChoice(), m.tsc(), m.jmh(), m.nativeRuns(), m.rows(), List.of(),
                new LocksModel.ContendedSkip(LocksModel.ContendedSkip.Why.ONE_CPU_ALLOWED, "0"), m.eventSources(), m.facts());
        assertTrue(LocksView.document(skipped).render(dev.corescope.text.Width.NONE).contains("\n  contended mode skipped: only CPU 0 is allowed, and it needs two\n"));
        assertEquals(List.of("contended mode skipped: only CPU 0 is allowed, and it needs two"), LocksView.notes(skipped));
        String json = Json.write(skipped);
        assertTrue(json.contains("\"why\" : \"ONE_CPU_ALLOWED\""), json);
        assertEquals(skipped, Json.MAPPER.readValue(json, LocksModel.class));
    }

    /** "Within 1.3x" bounds the ratio's interval both ways: an unbounded or one-sided interval is not "met". */
    @Test
    void theRatioTargetIsTestedOnTheWholeIntervalInBothDirections() {
        double t = LocksView.TARGET_RATIO;
        assertEquals(LocksView.RatioFinding.NOT_RESOLVED, LocksView.ratioFinding(0.20, Double.POSITIVE_INFINITY, t),
                "0.71x between 0.20x and unbounded was called met");
        assertEquals(LocksView.RatioFinding.MET, LocksView.ratioFinding(0.9, 1.2, t));
        assertEquals(LocksView.RatioFinding.NOT_MET, LocksView.ratioFinding(0.4, 0.7, t), "1.4x faster is not within 1.3x");
        assertEquals(LocksView.RatioFinding.NOT_MET, LocksView.ratioFinding(1.4, 2.0, t));
        assertEquals(LocksView.RatioFinding.NOT_RESOLVED, LocksView.ratioFinding(1.1, 1.4, t));
        assertEquals(LocksView.RatioFinding.NOT_RESOLVED, LocksView.ratioFinding(0.6, 0.9, t));
        double[] r = LocksView.ratioInterval(2.0, 0.5, 2.0, 2.5);
        assertTrue(Double.isInfinite(r[2]), "a C interval reaching zero leaves the ratio unbounded");
        r = LocksView.ratioInterval(3.0, 0.3, 2.0, 0.2);
        assertEquals(1.5, r[0], 1e-9);
        assertEquals(2.7 / 2.2, r[1], 1e-9);
        assertEquals(3.3 / 1.8, r[2], 1e-9);
    }

    /** The pushf/popf stand-in is a line of the seed's spin_lock_irqsave, told apart by standIn on both sides. */
    @Test
    void thePushfStandInIsALabelledSpinLockIrqsaveRow() {
        assertEquals(Variant.SPIN_LOCK_IRQSAVE, Line.SPIN_LOCK_IRQSAVE_PUSHF.variant());
        assertEquals(java.util.Map.of("standIn", "pushf_popf"), Line.SPIN_LOCK_IRQSAVE_PUSHF.params("java"));
        assertEquals(java.util.Map.of("standIn", "pushf_popf"), Line.SPIN_LOCK_IRQSAVE_PUSHF.params("native"));
        assertEquals(LocksTwins.Loop.SPIN_LOCK_IRQSAVE_PUSHF, Line.SPIN_LOCK_IRQSAVE_PUSHF.loop());
        assertTrue(Line.SPIN_LOCK_IRQSAVE.params("native").isEmpty(), "pthread_sigmask stays the second stand-in");
        String text = LocksView.document(model()).render(dev.corescope.text.Width.NONE);
        assertTrue(text.contains("standIn=pushf_popf"), text);
    }

    /**
     * The view reads the saved rows themselves: a file whose model holds a line this version does
     * not list (another version's), or a TSC source it does not know, still renders, with that
     * line under its own name. (The old view rebuilt the live run with {@code Line.valueOf} and
     * failed on the whole family.)
     */
    @Test
    void aSavedLineThisVersionDoesNotKnowStillRendersUnderItsName() {
        LocksModel m = model();
        List<LocksModel.Row> rows = new ArrayList<>(m.rows());
        rows.add(new LocksModel.Row("ticket_lock", "ticket_lock", "native", 7.0, 0.5, 5, 18.2, 1.3, "rdtsc", 0, null));
        LocksModel.Tsc t = m.tsc();
        LocksModel other = new LocksModel(m.cpu(), m.cpuChoice(), new LocksModel.Tsc(t.mhz(), "hypervisor_leaf", "cpuid 0x40000010",
                t.calibratedMhz(), t.calibratedErr(), t.calibrations(), t.flags(), t.clocksource()), m.jmh(), m.nativeRuns(),
                rows, m.contended(), null, m.eventSources(), m.facts());
        String text = LocksView.document(other).render(dev.corescope.text.Width.NONE);
        assertTrue(text.lines().anyMatch(l -> l.startsWith("  ticket_lock ") && l.contains("7.00 [")), text);
        assertTrue(text.contains("ticket_lock: variant ticket_lock"), text);
        assertTrue(text.contains("from hypervisor_leaf (cpuid 0x40000010)"), text);
        assertTrue(other.results().stream().anyMatch(r -> r.variant().equals("ticket_lock") && r.metric().equals("op_cycles")
                && "rdtsc".equals(r.params().get("cycles"))));
    }

    /** The committed real run's saved model gives the same rows as that run saved: the rows and the text read one model. */
    @Test
    void theSavedModelOfARealRunGivesTheRowsItSaved() throws IOException {
        ResultsFile file = SavedRuns.lenient(Path.of("src/test/resources/results/locks-quick.json"));
        LocksModel m = new LocksFamily().model(file).orElseThrow();
        List<String> saved = file.results().stream().map(r -> r.key().label() + " " + r.score() + " " + r.error() + " " + r.cpus()).toList();
        List<String> fromModel = m.results().stream().map(r -> r.key().label() + " " + r.score() + " " + r.error() + " " + r.cpus()).toList();
        assertEquals(saved, fromModel);
    }

    /** The notes are worded from the saved facts (a busy machine, native rows missing, --quick); an older file shows its sentences. */
    @Test
    void theNotesAreWordedFromTheSavedFactsAndAnOlderFileShowsItsSentences() throws IOException {
        LocksModel m = model();
        LocksModel busy = new LocksModel(m.cpu(), m.cpuChoice(), m.tsc(), m.jmh(), m.nativeRuns(), m.rows(),
                m.contended(), null, m.eventSources(), new LocksModel.Facts(true, "libcorescope.so is not loaded", 18.9, 2, null));
        List<String> notes = LocksView.notes(busy);
        assertEquals(3, notes.size(), notes.toString());
        assertTrue(notes.get(0).startsWith("the machine was busy before this run (1-minute load average 18.9 for 2 CPUs)"), notes.toString());
        assertEquals("native rows missing: libcorescope.so is not loaded", notes.get(1));
        assertTrue(notes.get(2).startsWith("--quick leaves out: spin_lock_unlock, the word through its own segment"), notes.toString());
        ResultsFile old = SavedRuns.lenient(Path.of("src/test/resources/results/locks-quick.json"));
        LocksModel saved = new LocksFamily().model(old).orElseThrow();
        assertTrue(saved.facts() == null && !saved.notes().isEmpty(), "the committed run is from before the facts");
        String text = LocksView.document(saved).render(dev.corescope.text.Width.NONE);
        for (String n : saved.notes()) assertTrue(text.contains("  - " + n + "\n"), n);
        // the wording from facts is the sentence that run saved
        assertEquals(saved.notes().get(1), LocksView.notes(new LocksModel.Facts(true, null, null, 2, null)).getFirst());
    }

    static void assertApproved(String name, String actual) {
        dev.corescope.testing.Approved.verify(name, actual);
    }

    /** The model saves the JMH settings and the C loops' plan as numbers; the view words them, and an older file's sentences still show. */
    @Test
    void theSettingsAreSavedAsNumbersAndWordedByTheView() throws IOException {
        String json = Json.write(model());
        assertTrue(!json.contains("javaSettings") && !json.contains("nativeSettings") && json.contains("\"batchMillis\" : 10"), json);
        String text = LocksView.document(model()).render(dev.corescope.text.Width.NONE);
        assertTrue(text.contains("java: JMH, 1 fork x 5 x 40 ms after 3 x 40 ms warm-up, average time per call"), text);
        assertTrue(text.contains("1 runs per loop, interleaved loop by loop (ABAB), each 5 batches of ~10 ms"), text);
        LocksModel old = new LocksFamily().model(SavedRuns.lenient(Path.of("src/test/resources/results/locks-quick.json"))).orElseThrow();
        assertTrue(old.jmh() == null && old.javaSettings() != null, "the committed run saved the sentences");
        String oldText = LocksView.document(old).render(dev.corescope.text.Width.NONE);
        assertTrue(oldText.contains("java: JMH, " + old.javaSettings()) && oldText.contains(old.nativeSettings()), oldText);
    }

    /**
     * The model saves data, not sentences: the CPU choice as a key, the load as a number, the PMU as perf's event sources,
     * a skipped contended mode as a reason and its CPUs, a contended row's placement as its key; the view words them.
     * The committed files that saved the sentences still render them as saved.
     */
    @Test
    void theModelSavesDataAndOlderFilesShowTheirSentences() throws IOException {
        String json = Json.write(model());
        for (String sentence : List.of("cpuChoice\" : \"the", "\"load\"", "\"pmu\"", "contendedSkipped", "placementDescription", "CPU 0 and"))
            assertTrue(!json.contains(sentence), sentence + " in " + json);
        assertTrue(json.contains("\"cpuChoice\" : \"LAST_ALLOWED\"") && json.contains("\"eventSources\" : [ \"software\", \"tracepoint\" ]"), json);
        assertEquals(model(), Json.MAPPER.readValue(json, LocksModel.class), "the data reads back as written");
        String text = LocksView.document(model()).render(dev.corescope.text.Width.NONE);
        assertTrue(text.contains("CPU 1, pinned (the last allowed CPU, often the quietest; --cpus picks another)"), text);
        assertTrue(text.contains("machine: 1-minute load average 0.50, before the run"), text);
        assertTrue(text.contains("needs hardware counters: no hardware PMU: /sys/bus/event_source/devices has only software, tracepoint."), text);
        assertTrue(text.contains("  - same-l3: CPUs 0,1, same L3\n"), text);

        ResultsFile oldFile = SavedRuns.lenient(Path.of("src/test/resources/results/locks-quick.json"));
        LocksModel old = new LocksFamily().model(oldFile).orElseThrow();
        assertEquals(LocksModel.CpuChoice.LAST_ALLOWED, old.cpuChoice(), "the saved words read as the key");
        String oldText = LocksView.document(old).render(dev.corescope.text.Width.NONE);
        assertTrue(oldText.contains("CPU 1, pinned (the last allowed CPU, often the quietest; --cpus picks another)"), oldText);
        assertTrue(oldText.contains("machine: " + old.load() + ", before the run") && oldText.contains(old.pmu()), oldText);
        assertTrue(oldText.contains("  - same-l3: CPUs 0,1, same L3\n"), oldText);
        assertTrue(!Json.write(old).contains("placementDescription"), "a saved sentence the view no longer needs is not kept");
    }
}
