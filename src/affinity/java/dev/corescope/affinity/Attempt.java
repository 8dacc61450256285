package dev.corescope.affinity;

import dev.corescope.cpumask.CpuMask;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One search of {@link Reservations}: the candidates of each strategy locked all or nothing, in
 * preference order; and, when nothing could be taken, the message: what was tried, who holds
 * the CPUs, why the others are unusable. One per call (not thread-safe; the table is).
 */
final class Attempt {

    private final LockTable table;
    private final CpuChoice choice;
    private final List<String> tried = new ArrayList<>();
    private final Map<Integer, String> unusable = new TreeMap<>();
    private int held;

    Attempt(LockTable table, CpuChoice choice) {
        this.table = table;
        this.choice = choice;
    }

    /** Whether a fitting CPU was held by someone: waiting may help. */
    boolean sawHeld() {
        return held > 0;
    }

    /** A free CPU (or whole core) fitting the first strategy that has one, relative to {@code anchor} (negative: none); null when none does. */
    Reservation first(int anchor, boolean wholeCore, CpuStrategy... strategies) {
        for (CpuStrategy s : strategies.length == 0 ? new CpuStrategy[]{CpuStrategy.ANY} : strategies) {
            List<CpuMask> candidates = wholeCore ? choice.cores(anchor, s) : choice.cpus(anchor, s);
            int unusableBefore = unusable.size();
            int heldBefore = held;
            for (CpuMask c : candidates) {
                Reservation r = lock(table, c, wholeCore, this);
                if (r != null) return r;
            }
            boolean sawHeld = held > heldBefore;
            boolean unusableToo = unusable.size() > unusableBefore;
            tried.add(s.describe(anchor) + (candidates.isEmpty() || !sawHeld && unusableToo ? " (none usable)"
                    : unusableToo ? " (all held or unusable)" : " (all held)"));
        }
        return null;
    }

    /** {@code n} CPUs, each after the first relating to it as {@code strategy} says, first CPUs in preference order; null when no group is free. */
    List<Reservation> group(int n, CpuStrategy strategy) {
        for (int i = 0; i < choice.order.length; i++) {
            Reservation a = lock(table, choice.single[i], false, this);
            if (a == null) continue;
            List<Reservation> group = new ArrayList<>(List.of(a));
            for (CpuMask c : choice.cpus(choice.order[i], strategy)) {
                if (group.size() == n) break;
                Reservation r = lock(table, c, false, this);
                if (r != null) group.add(r);
            }
            if (group.size() == n) return List.copyOf(group);
            group.forEach(Reservation::close);
        }
        return null;
    }

    /**
     * Locks every CPU of {@code cpus}, or none: null when any is held or (with {@code at})
     * unusable, which {@code at} records; without {@code at} an unusable CPU throws.
     */
    static Reservation lock(LockTable table, CpuMask cpus, boolean wholeCore, Attempt at) {
        int[] list = cpus.toArray();
        for (int i = 0; i < list.length; i++) {
            boolean locked;
            try {
                locked = table.tryLock(list[i]);
                if (!locked && at != null) at.held++;
            } catch (ReservationException e) {
                for (int j = 0; j < i; j++) table.release(list[j]);
                if (at == null) throw e;
                at.unusable.put(list[i], e.getMessage());
                return null;
            }
            if (!locked) {
                for (int j = 0; j < i; j++) table.release(list[j]);
                return null;
            }
        }
        return new Reservation(table, cpus, list, wholeCore);
    }

    /** {@code head} (e.g. {@code no free CPU}) among the usable CPUs, then what was tried, who holds them, why the others are unusable. */
    ReservationException failure(String head, boolean wholeCore) {
        CpuMask usable = choice.usable;
        StringBuilder why = new StringBuilder(head).append(" among the usable CPUs ").append(usable.isEmpty() ? "(none)" : usable.toList());
        if (!tried.isEmpty()) why.append(": tried ").append(String.join(", then ", tried));
        CpuMask heldNow = LockView.heldAmong(table, usable);
        if (!heldNow.isEmpty()) why.append("; held: ").append(LockView.heldList(table, heldNow));
        if (!unusable.isEmpty()) {
            List<String> parts = new ArrayList<>();
            unusable.forEach((cpu, reason) -> parts.add("CPU " + cpu + ": " + reason));
            why.append("; unusable: ").append(String.join("; ", parts));
        }
        CpuMask partial = wholeCore ? choice.partialCores() : CpuMask.empty(1);
        if (!partial.isEmpty()) why.append("; cores with CPUs outside the usable set cannot be reserved whole: ").append(partial.toList());
        return new ReservationException(why.toString());
    }
}
