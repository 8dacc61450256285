package dev.corescope.jitter;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code /proc/interrupts}, {@code /proc/softirqs} and {@code /proc/stat} under a root, read
 * together at one moment. A file that is missing or unreadable is null, with a note saying so.
 */
public record ProcSnapshot(CounterTable interrupts, CounterTable softirqs, CpuTimes times, List<String> notes) {

    public ProcSnapshot {
        notes = List.copyOf(notes);
    }

    public static ProcSnapshot read(Path root) {
        List<String> notes = new ArrayList<>();
        CounterTable irq = table(root.resolve("proc/interrupts"), notes);
        CounterTable soft = table(root.resolve("proc/softirqs"), notes);
        CpuTimes times = null;
        Path stat = root.resolve("proc/stat");
        try (Reader r = Files.newBufferedReader(stat, StandardCharsets.UTF_8)) {
            times = CpuTimes.parse(r);
        } catch (IOException | IllegalArgumentException e) {
            notes.add(stat + " not read (" + e.getMessage() + "): steal time unknown");
        }
        return new ProcSnapshot(irq, soft, times, notes);
    }

    private static CounterTable table(Path file, List<String> notes) {
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return CounterTable.parse(r);
        } catch (IOException | IllegalArgumentException e) {
            notes.add(file + " not read (" + e.getMessage() + "): its sources are not attributed");
            return null;
        }
    }

    /** The counts between {@code before} and this snapshot; null where either side is missing. */
    CounterTable interruptsSince(ProcSnapshot before) {
        return interrupts == null || before.interrupts == null ? null : interrupts.minus(before.interrupts);
    }

    CounterTable softirqsSince(ProcSnapshot before) {
        return softirqs == null || before.softirqs == null ? null : softirqs.minus(before.softirqs);
    }
}
