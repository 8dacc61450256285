package dev.corescope.topology;

import dev.corescope.cpumask.CpuMask;
import java.util.ArrayList;
import java.util.List;

/** Byte sizes in the two spellings the reports use: the kernel's ({@code 32K}) and lstopo's ({@code 32 MiB}). */
final class Sizes {

    private Sizes() {
    }

    /** The white-space separated words of {@code s}, without a regex. */
    static List<String> words(String s) {
        List<String> out = new ArrayList<>();
        int i = 0;
        int n = s.length();
        while (i < n) {
            while (i < n && Character.isWhitespace(s.charAt(i))) i++;
            int start = i;
            while (i < n && !Character.isWhitespace(s.charAt(i))) i++;
            if (i > start) out.add(s.substring(start, i));
        }
        return out;
    }

    /**
     * {@code 32K}, {@code 1M}, {@code 24M}, as {@code cache/indexN/size} writes it, but in M or G
     * when exact; {@code size unknown} when the size could not be read.
     */
    static String kernelStyle(long bytes) {
        if (bytes < 0) return "size unknown";
        if (bytes >= 1L << 30 && bytes % (1L << 30) == 0) return (bytes >> 30) + "G";
        if (bytes >= 1L << 20 && bytes % (1L << 20) == 0) return (bytes >> 20) + "M";
        if (bytes >= 1L << 10 && bytes % (1L << 10) == 0) return (bytes >> 10) + "K";
        return bytes + "B";
    }

    /** {@code 32 MiB}, {@code 1.5 GiB}, for people. */
    static String binary(long bytes) {
        if (bytes < 0) return "unknown";
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
        double v = bytes;
        int u = 0;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        // by hand rather than String.format: Formatter costs milliseconds at start-up, and this is on every report
        if (v == Math.rint(v) || v >= 100) return Math.round(v) + " " + units[u];
        long tenths = Math.round(v * 10);
        return tenths / 10 + "." + tenths % 10 + " " + units[u];
    }

    /** Parses {@code 32K}, {@code 24576K}, {@code 1M}, {@code 512}; -1 when it is none of these. */
    static long parseKernelSize(String s) {
        String t = s.strip();
        if (t.isEmpty()) return -1;
        long mult = 1;
        char last = Character.toUpperCase(t.charAt(t.length() - 1));
        switch (last) {
            case 'K' -> mult = 1L << 10;
            case 'M' -> mult = 1L << 20;
            case 'G' -> mult = 1L << 30;
            default -> { }
        }
        String digits = mult == 1 ? t : t.substring(0, t.length() - 1).strip();
        try {
            return Long.parseLong(digits) * mult;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** {@code CPU 3} or {@code CPUs 0-1,4}: the noun agrees with the set. */
    static String cpus(CpuMask m) {
        return (m.weight() == 1 ? "CPU " : "CPUs ") + m.toList();
    }
}
