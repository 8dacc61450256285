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
 * together at one moment. A file that is missing or unreadable is null, and listed in {@code unread} with why.
 */
public record ProcSnapshot(CounterTable interrupts, CounterTable softirqs, CpuTimes times, List<JitterReport.Unread> unread) {

    public ProcSnapshot {
        unread = List.copyOf(unread);
    }

    public static ProcSnapshot read(Path root) {
        return read(new SysfsReader(root));
    }

    public static ProcSnapshot read(SysfsReader r) {
        List<JitterReport.Unread> unread = new ArrayList<>();
        CounterTable irq = table(r, CounterTable.INTERRUPTS, unread);
        CounterTable soft = table(r, CounterTable.SOFTIRQS, unread);
        int before = r.problems().size();
        CpuTimes times = CpuTimes.read(r).orElse(null);
        if (times == null) unread.add(new JitterReport.Unread(r.root().resolve(CpuTimes.FILE).toString(), why(r, before)));
        return new ProcSnapshot(irq, soft, times, unread);
    }

    private static CounterTable table(SysfsReader r, String rel, List<JitterReport.Unread> unread) {
        int before = r.problems().size();
        String why;
        try {
            Optional<CounterTable> t = CounterTable.read(r, rel);
            if (t.isPresent()) return t.get();
            why = why(r, before);
        } catch (IllegalArgumentException e) {
            why = e.getMessage();
        }
        unread.add(new JitterReport.Unread(r.root().resolve(rel).toString(), why));
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
