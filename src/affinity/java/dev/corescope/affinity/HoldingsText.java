package dev.corescope.affinity;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.text.TextDoc;
import dev.corescope.text.TextTable;
import dev.corescope.text.TextTable.Align;
import dev.corescope.text.TextTable.Column;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The holdings of a reservation directory as the table {@code corescope reservations} and
 * {@link Reservations#dump()} print: a heading naming the directory and the usable CPUs, then
 * a {@link TextTable} with one row per {@link Holding}, keyed by its CPU. The document holds the
 * strings as they came; rendering escapes them ({@code text}: control characters shown, one
 * line per row at no width limit; at a width the holder wraps, its later lines keyed too).
 */
final class HoldingsText {

    private HoldingsText() {
    }

    /** The table of {@code directory} at {@code width}, read without creating or locking anything (a missing directory: one line saying so). */
    static String of(Path directory, CpuMask usable, int width) {
        Path abs = directory.toAbsolutePath().normalize();
        boolean exists = Files.exists(abs, LinkOption.NOFOLLOW_LINKS);
        return document(abs, usable, exists ? LockView.holdings(abs, LockTable.existing(abs)) : List.of(), exists).render(width);
    }

    /** The holdings {@code hs} of {@code directory} as a document; {@code exists} false says the directory is missing. */
    static TextDoc document(Path directory, CpuMask usable, List<Holding> hs, boolean exists) {
        TextDoc doc = new TextDoc().paragraph("# reservations in " + directory + " (usable CPUs "
                + (usable.isEmpty() ? "none" : usable.toList()) + ")");
        if (!exists) return doc.paragraph("the directory does not exist: nothing has been reserved here");
        List<Holding> all = withFree(hs, usable);
        if (all.isEmpty()) return doc.paragraph("no CPU has been reserved here yet");
        return doc.table("", table(all));
    }

    /** The holdings of {@code directory} with {@link #withFree free rows}, when it exists; none when it does not. */
    static List<Holding> withFree(Path directory, CpuMask usable) {
        List<Holding> hs = LockView.holdings(directory, LockTable.existing(directory));
        return Files.exists(directory, LinkOption.NOFOLLOW_LINKS) ? withFree(hs, usable) : hs;
    }

    /** {@code hs} and a {@code free} row for each usable CPU that has no lock file yet (nobody has reserved it), in CPU order. */
    static List<Holding> withFree(List<Holding> hs, CpuMask usable) {
        Set<Integer> filed = new HashSet<>();
        for (Holding h : hs) filed.add(h.cpu());
        List<Holding> out = new ArrayList<>(hs);
        for (int cpu : usable.toArray()) {
            if (!filed.contains(cpu)) out.add(new Holding(cpu, "free", -1, false, "no lock file yet"));
        }
        out.sort(Comparator.comparingInt((Holding h) -> h.cpu() < 0 ? Integer.MAX_VALUE : h.cpu()));
        return out;
    }

    /** One row per holding: CPU (the key; {@code -} for a foreign file), state, pid ({@code -} for none), holder. */
    static TextTable table(List<Holding> hs) {
        TextTable t = new TextTable(new Column("CPU", "", Align.RIGHT, true, 0), Column.text("state"), Column.number("pid"),
                Column.text("holder")).named("reservations").wrappingLast();
        for (Holding h : hs) {
            t.statusRow(h.state(), h.cpu() < 0 ? "-" : String.valueOf(h.cpu()), h.state(), h.pid() < 0 ? "-" : String.valueOf(h.pid()),
                    h.thisProcess() ? h.holder() + " (this process)" : h.holder());
        }
        return t;
    }
}
