package dev.corescope.topology;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.topology.proc.SysfsReader;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the sub-readers of one {@link TopologyReader} pass share: the tree's reader, the width of
 * its masks, its online CPUs, the warnings in the order they arise, and the work count
 * (objects visited and candidates compared: a count, not a time, that a test compares across
 * tree sizes to keep reading linear, issue 28).
 */
final class Reading {

    final SysfsReader r;
    final List<String> warnings = new ArrayList<>();
    int nbits;
    CpuMask online;
    long work;

    /** {@code m}'s online CPUs as one shared instance per mask read (the reader shares those per text). */
    private final Map<CpuMask, CpuMask> onlineOf = new IdentityHashMap<>();

    Reading(SysfsReader r) {
        this.r = r;
    }

    /**
     * {@code m.and(online).with(cpu)} without a new mask where nothing changes: a mask read from
     * a file is the same instance for each CPU that lists the same text, and so is this, so a
     * package's CPUs share one mask (at 8192 CPUs each is 1 KiB, read ~8 times per CPU).
     */
    CpuMask onlineWith(CpuMask m, int cpu) {
        CpuMask on = onlineOf.get(m);
        if (on == null) {
            on = m.isSubsetOf(online) ? m : m.and(online);
            onlineOf.put(m, on);
        }
        return on.test(cpu) ? on : on.with(cpu);
    }

    /** Whether {@code s} from {@code from} on is one or more ASCII digits ({@code cpu12}, {@code index3}). */
    static boolean isDigits(String s, int from) {
        for (int i = from; i < s.length(); i++) if (s.charAt(i) < '0' || s.charAt(i) > '9') return false;
        return from < s.length();
    }
}
