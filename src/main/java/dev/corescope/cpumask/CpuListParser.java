package dev.corescope.cpumask;

/**
 * The kernel's two text forms of a CPU set, read as {@code lib/bitmap-str.c} (v6.16)
 * reads them.
 *
 * <p><b>cpulist</b> ({@code bitmap_parselist()}): regions separated by commas or white
 * space, empty ones ignored; a region is {@code a}, {@code a-b}, {@code a-b:used/group}
 * or {@code all[:used/group]}, where a number may be {@code N}, the last bit. A line ends
 * at {@code \n}. Errors, with the kernel's codes: syntax ({@code EINVAL}), an inverted
 * range, a zero group, used &gt; group ({@code EINVAL}), a bit at or beyond nbits
 * ({@code ERANGE}), a number over 32 bits ({@code EOVERFLOW}).
 *
 * <p><b>hex cpumap</b> ({@code bitmap_parse()}): 32-bit chunks of up to 8 hex digits,
 * most significant first, separated by commas (or white space); as in
 * {@code /sys/devices/system/cpu/.../cpus} and {@code Cpus_allowed} in
 * {@code /proc/self/status}.
 */
public final class CpuListParser {

    private CpuListParser() {
    }

    public static CpuMask parseList(String text, int nbits) {
        return new ListReader(text, nbits).read();
    }

    public static CpuMask parseHex(String text, int nbits) {
        CpuMask.Builder b = CpuMask.builder(nbits);
        int nl = text.indexOf('\n');
        String s = nl >= 0 ? text.substring(0, nl) : text;
        int maxChunks = (nbits + 31) / 32;
        int end = s.length() - 1;
        int chunk = 0;
        while (true) {
            while (end >= 0 && isRegionEnd(s.charAt(end))) end--;
            if (end < 0) break;
            if (chunk == maxChunks) {
                throw new CpuMaskFormatException(text, CpuMaskFormatException.Code.EOVERFLOW,
                        "more than " + maxChunks + " 32-bit chunks for " + nbits + " bits");
            }
            long val = 0;
            int digits = 0;
            while (end >= 0 && !isRegionEnd(s.charAt(end))) {
                int d = Character.digit(s.charAt(end), 16);
                if (d < 0) {
                    throw new CpuMaskFormatException(text, CpuMaskFormatException.Code.EINVAL,
                            "'" + s.charAt(end) + "' is not a hex digit");
                }
                if (digits == 8) {
                    throw new CpuMaskFormatException(text, CpuMaskFormatException.Code.EOVERFLOW,
                            "a chunk has more than 8 hex digits (32 bits)");
                }
                val |= (long) d << (4 * digits++);
                end--;
            }
            for (int bit = 0; bit < 32; bit++) {
                if ((val & (1L << bit)) == 0) continue;
                int cpu = chunk * 32 + bit;
                if (cpu >= nbits) {
                    throw new CpuMaskFormatException(text, CpuMaskFormatException.Code.EOVERFLOW,
                            "CPU " + cpu + " is beyond the last bit " + (nbits - 1) + " (nbits " + nbits + ")");
                }
                b.set(cpu);
            }
            chunk++;
        }
        return b.build();
    }

    /** White space or a comma: what ends a region ({@code __end_of_region()}). */
    static boolean isRegionEnd(char c) {
        return c == ',' || Character.isWhitespace(c);
    }

    /** One pass over a cpulist, {@code bitmap_parselist()}'s loop. */
    private static final class ListReader {
        private final String text;
        private final String s;
        private final int nbits;
        private int pos;

        ListReader(String text, int nbits) {
            this.text = text;
            int nl = text.indexOf('\n');
            this.s = nl >= 0 ? text.substring(0, nl) : text;
            this.nbits = nbits;
        }

        CpuMask read() {
            CpuMask.Builder b = CpuMask.builder(nbits);
            while (true) {
                while (pos < s.length() && isRegionEnd(s.charAt(pos))) pos++;
                if (pos == s.length()) return b.build();
                String region = regionText();
                long start, end, off, group;
                if (s.regionMatches(true, pos, "all", 0, 3)) {
                    start = 0;
                    end = nbits - 1;
                    pos += 3;
                } else {
                    start = number(region);
                    if (atRegionEnd()) {
                        end = start;
                    } else {
                        expect('-', region);
                        end = number(region);
                    }
                }
                if (atRegionEnd()) {
                    off = end + 1;
                    group = end + 1;
                } else {
                    expect(':', region);
                    off = number(region);
                    expect('/', region);
                    group = number(region);
                }
                if (start > end) fail(region, CpuMaskFormatException.Code.EINVAL, "range start " + start + " is after its end " + end);
                if (group == 0) fail(region, CpuMaskFormatException.Code.EINVAL, "group size 0");
                if (off > group) fail(region, CpuMaskFormatException.Code.EINVAL, "used " + off + " is more than the group size " + group);
                if (end >= nbits) {
                    fail(region, CpuMaskFormatException.Code.ERANGE,
                            "CPU " + end + " is beyond the last bit " + (nbits - 1) + " (nbits " + nbits + ")");
                }
                for (long g = start; g <= end; g += group) {
                    long last = Math.min(end, g + off - 1);
                    if (last >= g) b.setRange((int) g, (int) last);
                }
            }
        }

        private String regionText() {
            int e = pos;
            while (e < s.length() && !isRegionEnd(s.charAt(e))) e++;
            return s.substring(pos, e);
        }

        private boolean atRegionEnd() {
            return pos == s.length() || isRegionEnd(s.charAt(pos));
        }

        private void expect(char c, String region) {
            if (pos < s.length() && s.charAt(pos) == c) {
                pos++;
                return;
            }
            String found = pos < s.length() ? "'" + s.charAt(pos) + "'" : "the end";
            fail(region, CpuMaskFormatException.Code.EINVAL, "expected '" + c + "' but found " + found);
        }

        /** {@code bitmap_getnum()}: {@code N} is the last bit; otherwise decimal, at most 32 bits. */
        private long number(String region) {
            if (pos < s.length() && s.charAt(pos) == 'N') {
                pos++;
                return nbits - 1;
            }
            int begin = pos;
            long n = 0;
            boolean overflow = false;
            while (pos < s.length() && s.charAt(pos) >= '0' && s.charAt(pos) <= '9') {
                n = n * 10 + (s.charAt(pos) - '0');
                if (n > 0xFFFF_FFFFL) overflow = true;
                if (overflow) n = 0x1_0000_0000L;
                pos++;
            }
            if (pos == begin) {
                String found = pos < s.length() ? "'" + s.charAt(pos) + "'" : "the end";
                fail(region, CpuMaskFormatException.Code.EINVAL, "expected a number but found " + found);
            }
            if (overflow) fail(region, CpuMaskFormatException.Code.EOVERFLOW, "the number " + s.substring(begin, pos) + " does not fit in 32 bits");
            return n;
        }

        private void fail(String region, CpuMaskFormatException.Code code, String why) {
            String where = region.equals(text.strip()) ? "" : "in '" + region + "': ";
            throw new CpuMaskFormatException(text, code, where + why);
        }
    }
}
