package dev.corescope.affinity;

import dev.corescope.topology.Topology;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Another process for the cross-process tests: {@code DIR TREE cpu N} reserves CPU N,
 * {@code DIR TREE cores K} reserves K whole cores one after another; prints
 * {@code held <cpulist>} per reservation (or {@code failed <reason>}), then {@code ready}, and
 * holds everything until its stdin closes. With {@code DIR TREE cpu N NAME}, it first names
 * itself NAME ({@code /proc/self/comm}, what other users see as its command).
 */
public final class ReservingChild {

    public static void main(String[] args) throws Exception {
        if (args.length > 4) Files.writeString(Path.of("/proc/self/comm"), args[4]);
        Topology t = Topology.read(Path.of(args[1]));
        Reservations r = Reservations.of(Path.of(args[0]), t, t.online());
        List<Reservation> held = new ArrayList<>();
        try {
            if (args[2].equals("cpu")) {
                held.add(r.reserveCpu(Integer.parseInt(args[3])));
            } else {
                for (int i = 0; i < Integer.parseInt(args[3]); i++) held.add(r.reserveWholeCore());
            }
        } catch (ReservationException e) {
            System.out.println("failed " + e.getMessage());
        }
        for (Reservation h : held) System.out.println("held " + h.cpus().toList());
        System.out.println("ready");
        System.out.flush();
        while (System.in.read() >= 0) {
            // hold until the parent closes our stdin (or kills us)
        }
    }
}
