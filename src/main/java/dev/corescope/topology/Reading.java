package dev.corescope.topology;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.topology.proc.SysfsReader;

import java.util.ArrayList;
import java.util.List;

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

    Reading(SysfsReader r) {
        this.r = r;
    }

    /** Whether {@code s} from {@code from} on is one or more ASCII digits ({@code cpu12}, {@code index3}). */
    static boolean isDigits(String s, int from) {
        for (int i = from; i < s.length(); i++) if (s.charAt(i) < '0' || s.charAt(i) > '9') return false;
        return from < s.length();
    }
}
