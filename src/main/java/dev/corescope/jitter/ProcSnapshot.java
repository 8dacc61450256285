package dev.corescope.jitter;

import dev.corescope.topology.proc.CounterTable;
import dev.corescope.topology.proc.CpuTimes;
import dev.corescope.topology.proc.SysfsReader;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code /proc/interrupts}, {@code /proc/softirqs} and {@code /proc/stat} under a root, read
 * together at one moment. A file that is missing or unreadable is null, with a note saying so.
 */
public record ProcSnapshot(CounterTable interrupts, CounterTable softirqs, CpuTimes times, List<String> notes) {

    public ProcSnapshot {
        notes = List.copyOf(notes);
    }

    public static ProcSnapshot read(Path root) {
        return read(new SysfsReader(root));
    }

    public static ProcSnapshot read(SysfsReader r) {
        List<String> notes = new ArrayList<>();
        CounterTable irq = table(r, CounterTable.INTERRUPTS, notes);
        CounterTable soft = table(r, CounterTable.SOFTIRQS, notes);
        int before = r.problems().size();
        CpuTimes times = CpuTimes.read(r).orElse(null);
        if (times == null) notes.add(r.root().resolve(CpuTimes.FILE) + " not read (" + why(r, before) + "): steal time unknown");
        return new ProcSnapshot(irq, soft, times, notes);
    }

    private static CounterTable table(SysfsReader r, String rel, List<String> notes) {
        int before = r.problems().size();
        try {
            Optional<CounterTable> t = CounterTable.read(r, rel);
            if (t.isPresent()) return t.get();
            notes.add(r.root().resolve(rel) + " not read (" + why(r, before) + "): its sources are not attributed");
        } catch (IllegalArgumentException e) {
            notes.add(r.root().resolve(rel) + " not read (" + e.getMessage() + "): its sources are not attributed");
        }
        return null;
    }

    /** The reader's newest problem since {@code before}, or "missing". */
    private static String why(SysfsReader r, int before) {
        List<String> p = r.problems();
        return p.size() > before ? p.getLast() : "missing";
    }

    /** The counts between {@code before} and this snapshot; null where either side is missing. */
    CounterTable interruptsSince(ProcSnapshot before) {
        return interrupts == null || before.interrupts == null ? null : interrupts.minus(before.interrupts);
    }

    CounterTable softirqsSince(ProcSnapshot before) {
        return softirqs == null || before.softirqs == null ? null : softirqs.minus(before.softirqs);
    }
}
