package dev.corescope.topology;

import dev.corescope.cpumask.CpuMask;

import java.util.Collection;

/**
 * hwloc's bitmap text, both ways ({@link HwlocXmlWriter}, {@link HwlocXmlReader}): 32-bit words
 * as {@code 0x%08x}, most significant first, comma-separated; {@code 0x0} when empty; an empty
 * word between others ({@code 0xff,,0x0}) is zero; {@code 0xf...f} leads an infinite set.
 */
final class HwlocBitmap {

    private static final String INFINITE = "0xf...f";

    private HwlocBitmap() {
    }

    static String format(CpuMask m) {
        if (m.isEmpty()) return "0x0";
        int words = m.last() / 32 + 1;
        StringBuilder sb = new StringBuilder(words * 11);
        for (int w = words - 1; w >= 0; w--) {
            long bits = (m.word(w / 2) >>> ((w % 2) * 32)) & 0xffffffffL;
            if (!sb.isEmpty()) sb.append(',');
            sb.append("0x").append(String.format("%08x", bits));
        }
        return sb.toString();
    }

    /** The bitmap of the numbers {@code ids} (NUMA node sets). */
    static String of(Collection<Integer> ids) {
        CpuMask.Builder b = CpuMask.builder(ids.stream().mapToInt(Integer::intValue).max().orElse(0) + 1);
        ids.forEach(b::set);
        return format(b.build());
    }

    static boolean infinite(String text) {
        return text.strip().startsWith(INFINITE);
    }

    /**
     * The set {@code text} writes, cut to {@code bits}.
     *
     * @throws IllegalArgumentException {@code not an hwloc bitmap}, or more words than
     *                                  {@link TopologyReader#MAX_CPUS} bits need
     */
    static CpuMask parse(String text, int bits) {
        String s = text.strip();
        CpuMask.Builder b = CpuMask.builder(bits);
        if (s.isEmpty() || s.equals("0x0")) return b.build();
        boolean infinite = infinite(s);
        if (infinite) s = s.substring(INFINITE.length()).replaceFirst("^,", "");
        String[] words = s.isEmpty() ? new String[0] : s.split(",");
        if (words.length > (TopologyReader.MAX_CPUS / 32) + 2) throw new IllegalArgumentException("more than " + TopologyReader.MAX_CPUS + " bits");
        for (int w = 0; w < words.length; w++) {
            String word = words[w].strip();
            if (word.isEmpty()) continue;
            if (word.startsWith("0x") || word.startsWith("0X")) word = word.substring(2);
            long v;
            try {
                if (word.isEmpty() || word.length() > 8) throw new NumberFormatException();
                v = Long.parseLong(word, 16);
            } catch (NumberFormatException ex) {
                throw new IllegalArgumentException("not an hwloc bitmap");
            }
            int base = (words.length - 1 - w) * 32;
            for (int bit = 0; bit < 32; bit++) {
                if ((v >>> bit & 1) != 0 && base + bit < bits) b.set(base + bit);
            }
        }
        if (infinite) {
            for (int i = words.length * 32; i < bits; i++) b.set(i);
        }
        return b.build();
    }

    /** The highest bit {@code text} sets, an infinite set counted by its written words; -1 when none. */
    static int lastBit(String text) {
        String finite = infinite(text) ? text.strip().substring(INFINITE.length()).replaceFirst("^,", "") : text;
        return finite.isEmpty() ? -1 : parse(finite, TopologyReader.MAX_CPUS + 1).last();
    }
}
