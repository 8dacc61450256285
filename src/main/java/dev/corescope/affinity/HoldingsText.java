package dev.corescope.affinity;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.text.Terminal;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;

/**
 * The holdings of a reservation directory as the table {@code corescope reservations} and
 * {@link Reservations#dump()} print: a heading naming the directory and the usable CPUs, then
 * one line per {@link Holding}, every string from outside escaped.
 */
final class HoldingsText {

    private HoldingsText() {
    }

    /** The table of {@code directory} read without creating or locking anything (a missing directory: one line saying so). */
    static String of(Path directory, CpuMask usable) {
        Path abs = directory.toAbsolutePath().normalize();
        boolean exists = Files.exists(abs, LinkOption.NOFOLLOW_LINKS);
        return text(abs, usable, exists ? LockView.holdings(abs, LockTable.existing(abs)) : List.of(), exists);
    }

    /** The table of {@code hs}, read from {@code directory}; {@code exists} false says the directory is missing. */
    static String text(Path directory, CpuMask usable, List<Holding> hs, boolean exists) {
        StringBuilder sb = new StringBuilder();
        sb.append("# reservations in ").append(Terminal.escape(directory.toString())).append(" (usable CPUs ")
                .append(usable.isEmpty() ? "none" : usable.toList()).append(")\n");
        if (!exists) return sb.append("the directory does not exist: nothing has been reserved here\n").toString();
        if (hs.isEmpty()) return sb.append("no CPU has been reserved here yet\n").toString();
        int w = 3;
        for (Holding h : hs) w = Math.max(w, String.valueOf(h.cpu()).length());
        sb.append(String.format("%" + w + "s  %-8s %-8s %s%n", "CPU", "state", "pid", "holder"));
        for (Holding h : hs) {
            String who = Terminal.escape(h.holder());
            if (h.thisProcess()) who += " (this process)";
            sb.append(String.format("%" + w + "s  %-8s %-8s %s", h.cpu() < 0 ? "-" : String.valueOf(h.cpu()), h.state(),
                    h.pid() < 0 ? "-" : String.valueOf(h.pid()), who).stripTrailing()).append('\n');
        }
        return sb.toString();
    }
}
