package dev.corescope.cpumask;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The kernel's two text forms of a CPU set, read as {@code lib/bitmap-str.c} (v6.16) reads
 * them, error codes included, and printed as {@code lib/vsprintf.c} prints them
 * ({@link CpuMask#toList}, {@link CpuMask#toHex}); and the machine's size, which
 * {@link CpuMask#parse} and {@link CpuMask#ofCpus} give their masks.
 *
 * <p><b>cpulist</b> ({@code bitmap_parselist()}): regions separated by commas or white space,
 * empty ones ignored; a region is {@code a}, {@code a-b}, {@code a-b:used/group} or
 * {@code all[:used/group]} ({@code all} in any case), where a number is decimal or {@code N},
 * the last bit ({@code nbits - 1}). Errors: anything else, an inverted range, a group size of
 * 0, used &gt; group size ({@code EINVAL}); a bit at or beyond nbits ({@code ERANGE}); a number
 * that does not fit in 32 bits ({@code EOVERFLOW}). Two kernel details are kept on purpose:
 * a newline ends the list only where it ends a region without a {@code :used/group} part and
 * elsewhere is white space ({@code "0 \n2"} is {@code 0,2}, {@code "0\n2"} is {@code 0}); and
 * the end {@code 4294967295} is {@code EINVAL}, because the kernel's implied group size
 * {@code end + 1} wraps to 0 in its {@code unsigned int}.
 *
 * <p><b>hex cpumap</b> ({@code bitmap_parse()}): chunks of up to 8 hex digits, 32 bits each,
 * most significant first, separated by commas or white space (runs of them count once, so
 * {@code "1,,5"} is two chunks); a newline ends the text. As in
 * {@code /sys/devices/system/cpu/.../cpus} and {@code Cpus_allowed} in {@code /proc/self/status}.
 * Errors: a character that is not a hex digit ({@code EINVAL}); a chunk of more than 8 digits,
 * more chunks than {@code nbits} needs, or a set bit at or beyond nbits ({@code EOVERFLOW}).
 * One deviation: the kernel silently skips a single stray character right before a full
 * 8-digit chunk ({@code "x12345678"} parses as {@code 12345678}); this parser rejects it with
 * {@code EINVAL}.
 *
 * <p>White space is C's {@code isspace()} in ASCII: space, {@code \t \n \v \f \r}.
 */
public final class CpuListParser {

    private CpuListParser() {
    }

    /** {@code bitmap_parselist(text, mask, nbits)}: {@link CpuMask#parseList}. */
    static CpuMask parseList(String text, int nbits) {
        return new ListReader(text, nbits).read();
    }

    /** {@code bitmap_parse(text, UINT_MAX, mask, nbits)}: {@link CpuMask#parseHex}. */
    static CpuMask parseHex(String text, int nbits) {
        CpuMask.Builder b = CpuMask.builder(nbits);
        String s = firstLine(text);
        int maxChunks = (nbits + 31) / 32;
        int end = s.length() - 1;
        int chunk = 0;
        while (true) {
            while (end >= 0 && isRegionEnd(s.charAt(end))) end--;
            if (end < 0) break;
            if (chunk == maxChunks) {
                throw new CpuMaskFormatException(text, CpuMaskFormatException.Code.EOVERFLOW,
                        "more than " + maxChunks + " 32-bit chunk" + (maxChunks == 1 ? "" : "s") + " for " + nbits + " bits");
            }
            long val = 0;
            int digits = 0;
            while (end >= 0 && !isRegionEnd(s.charAt(end))) {
                char c = s.charAt(end);
                int d = hexDigit(c);
                if (d < 0) {
                    throw new CpuMaskFormatException(text, CpuMaskFormatException.Code.EINVAL,
                            "'" + c + "' is not a hex digit");
                }
                if (digits == 8) {
                    throw new CpuMaskFormatException(text, CpuMaskFormatException.Code.EOVERFLOW,
                            "a chunk has more than 8 hex digits (32 bits)");
                }
                val |= (long) d << (4 * digits++);
                end--;
            }
            long lo = 32L * chunk;
            if (val != 0 && lo + 63 - Long.numberOfLeadingZeros(val) >= nbits) {
                long cpu = lo + 63 - Long.numberOfLeadingZeros(val);
                throw new CpuMaskFormatException(text, CpuMaskFormatException.Code.EOVERFLOW,
                        "CPU " + cpu + " is beyond the last bit " + (nbits - 1) + " (nbits " + nbits + ")");
            }
            for (long w = val; w != 0; w &= w - 1) b.set((int) (lo + Long.numberOfTrailingZeros(w)));
            chunk++;
        }
        return b.build();
    }

    /**
     * How many 32-bit chunks a hex cpumap holds, as {@code bitmap_parse()} counts them
     * (runs of commas and white space separate, a newline ends the text): a caller that sizes
     * a mask to what was typed uses {@code 32 * hexChunks(text)} bits.
     *
     * @param text a hex cpumap, not null (not checked: see {@link #parseHex})
     * @return the number of chunks, 0 for blank text
     */
    public static int hexChunks(String text) {
        String s = firstLine(text);
        int chunks = 0;
        boolean inChunk = false;
        for (int i = 0; i < s.length(); i++) {
            boolean sep = isRegionEnd(s.charAt(i));
            if (!sep && !inChunk) chunks++;
            inChunk = !sep;
        }
        return chunks;
    }

    /**
     * The largest CPU that a cpulist names as the end of a region ({@code 7} in {@code 0-7},
     * {@code 9} in {@code 9}, {@code 100} in {@code 0-100:1/4}) below {@code limit}, or -1 when
     * it names none: one pass over the text, read as {@link #parseList} reads it (a newline
     * after a region without a {@code :used/group} part ends the list). {@code N}, {@code all}
     * and ends of {@code limit} or more do not count. A caller that sizes a mask to what the
     * list names parses it once at {@code widestEnd(text, max) + 1} bits instead of widening
     * and parsing again at each CPU beyond the width (once per 32 CPUs of an ascending list).
     * Text that is not a cpulist gives some value; {@link #parseList} then says what is wrong.
     *
     * @param text a cpulist, not null
     * @param limit ends at or above this are ignored
     * @return the largest end below {@code limit}, or -1
     */
    public static long widestEnd(String text, long limit) {
        long widest = -1;
        int n = text.length();
        int pos = 0;
        while (true) {
            while (pos < n && isRegionEnd(text.charAt(pos))) pos++;
            if (pos == n) return widest;
            long last = -1;
            boolean inNumber = false, grouped = false;
            long value = 0;
            for (; pos < n && !isRegionEnd(text.charAt(pos)); pos++) {
                char c = text.charAt(pos);
                if (grouped) continue;
                if (c >= '0' && c <= '9') {
                    value = inNumber ? Math.min(value * 10 + (c - '0'), Long.MAX_VALUE / 16) : c - '0';
                    inNumber = true;
                } else {
                    if (inNumber) last = value;
                    inNumber = false;
                    if (c == ':') grouped = true;
                    else last = -1; // 'N', '-' or anything else: only the number after the last '-' is the end
                }
            }
            if (inNumber) last = value;
            if (last >= 0 && last < limit) widest = Math.max(widest, last);
            if (!grouped && pos < n && text.charAt(pos) == '\n') return widest;
        }
    }

    /**
     * Reads a cpulist file such as {@code /sys/devices/system/cpu/online} (one line, ending
     * in a newline) into a mask of {@code nbits} bits.
     *
     * @param file the file, read whole (use it on sysfs-sized files only)
     * @param nbits the bit count of the mask, at least 1
     * @return the mask
     * @throws UncheckedIOException when the file cannot be read
     * @throws CpuMaskFormatException when its text is not a cpulist
     */
    public static CpuMask readList(Path file, int nbits) {
        try {
            return parseList(Files.readString(file), nbits);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    // ---- sized for this machine --------------------------------------------------------

    /** The largest mask {@link #parseSized} makes for a list naming CPUs beyond the machine (the OS seam's limit). */
    private static final int PARSE_LIMIT = 1 << 20;

    /** {@link CpuMask#parse}: the machine's size, or one past the list's last CPU when it is larger. */
    static CpuMask parseSized(String cpulist) {
        int nbits = MachineSize.NBITS;
        try {
            return parseList(cpulist, nbits);
        } catch (CpuMaskFormatException e) {
            // a CPU beyond this machine's count: size the mask by the list (N stays this machine's)
            if (cpulist.indexOf('N') >= 0) throw e;
            CpuMask wide;
            try {
                wide = parseList(cpulist, PARSE_LIMIT);
            } catch (CpuMaskFormatException again) {
                throw e;
            }
            return wide.resize(Math.max(nbits, wide.isEmpty() ? 0 : wide.last() + 1));
        }
    }

    /** {@link CpuMask#machineSize()}: read once, on first use. */
    static final class MachineSize {
        static final int NBITS = read();

        private static int read() {
            try {
                CpuMask m = readList(Path.of("/sys/devices/system/cpu/possible"), PARSE_LIMIT);
                if (!m.isEmpty()) return m.last() + 1;
            } catch (RuntimeException e) {
                // no /sys (a container without it, another OS): the JVM's count
            }
            return Math.max(1, Runtime.getRuntime().availableProcessors());
        }
    }

    // ---- printing ------------------------------------------------------------------------

    /** {@code bitmap_list_string()} ({@code %*pbl}): {@link CpuMask#toList}. */
    static String list(CpuMask m) {
        StringBuilder sb = new StringBuilder();
        for (int start = m.first(); start < m.nbits(); ) {
            int end = m.nextZero(start) - 1;
            if (!sb.isEmpty()) sb.append(',');
            sb.append(start);
            if (end > start) sb.append('-').append(end);
            start = m.next(end);
        }
        return sb.toString();
    }

    /** {@code bitmap_string()} ({@code %*pb}): {@link CpuMask#toHex}. */
    static String hex(CpuMask m) {
        StringBuilder sb = new StringBuilder();
        int nbits = m.nbits();
        int chunkBits = nbits % 32 == 0 ? 32 : nbits % 32;
        for (int lo = ((nbits + 31) / 32 - 1) * 32; lo >= 0; lo -= 32) {
            long val = (m.word(lo >>> 6) >>> (lo & 63)) & ((1L << chunkBits) - 1);
            if (!sb.isEmpty()) sb.append(',');
            String hex = Long.toHexString(val);
            sb.append("0".repeat(Math.max(0, (chunkBits + 3) / 4 - hex.length()))).append(hex);
            chunkBits = 32;
        }
        return sb.toString();
    }

    /** White space or a comma: what ends a region ({@code __end_of_region()}). */
    static boolean isRegionEnd(char c) {
        return c == ',' || isSpace(c);
    }

    /** C's {@code isspace()} in the ASCII range, which is what the kernel's ctype table has there. */
    static boolean isSpace(char c) {
        return c == ' ' || (c >= '\t' && c <= '\r');
    }

    private static int hexDigit(char c) {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        return -1;
    }

    private static String firstLine(String text) {
        int nl = text.indexOf('\n');
        return nl >= 0 ? text.substring(0, nl) : text;
    }

    /** One pass over a cpulist: {@code bitmap_parselist()}'s loop, region by region. */
    private static final class ListReader {
        private static final long UINT_MASK = 0xFFFF_FFFFL;

        private final String text;
        private final int nbits;
        private int pos;

        ListReader(String text, int nbits) {
            this.text = text;
            this.nbits = nbits;
        }

        CpuMask read() {
            CpuMask.Builder b = CpuMask.builder(nbits);
            while (true) {
                // bitmap_find_region(): a '\n' is white space here, only the end of the text stops
                while (pos < text.length() && isRegionEnd(text.charAt(pos))) pos++;
                if (pos == text.length()) return b.build();
                String region = regionText();
                long start, end, off, group;
                boolean last = false;
                if (text.regionMatches(true, pos, "all", 0, 3)) {
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
                    // unsigned int arithmetic, as in bitmap_parse_region(): end + 1 may wrap to 0
                    off = (end + 1) & UINT_MASK;
                    group = off;
                    last = atEndOfString();
                } else {
                    expect(':', region);
                    off = number(region);
                    expect('/', region);
                    group = number(region);
                }
                check(region, start, end, off, group);
                for (long g = start; g <= end; g += group) {
                    long top = Math.min(end, g + off - 1);
                    if (top >= g) b.setRange((int) g, (int) top);
                }
                if (last) return b.build();
            }
        }

        /** {@code bitmap_check_region()}. */
        private void check(String region, long start, long end, long off, long group) {
            if (start > end) fail(region, CpuMaskFormatException.Code.EINVAL, "range start " + start + " is after its end " + end);
            if (group == 0) {
                fail(region, CpuMaskFormatException.Code.EINVAL, end == UINT_MASK
                        ? "the end " + end + " makes the implied group size end+1 wrap to 0"
                        : "group size 0");
            }
            if (off > group) fail(region, CpuMaskFormatException.Code.EINVAL, "used " + off + " is more than the group size " + group);
            if (end >= nbits) {
                throw new CpuMaskFormatException(text, CpuMaskFormatException.Code.ERANGE,
                        where(region) + "CPU " + end + " is beyond the last bit " + (nbits - 1) + " (nbits " + nbits + ")", end);
            }
        }

        private String regionText() {
            int e = pos;
            while (e < text.length() && !isRegionEnd(text.charAt(e))) e++;
            return text.substring(pos, e);
        }

        /** {@code end_of_region()}: a region ends at a comma, white space or the end of the text. */
        private boolean atRegionEnd() {
            return pos == text.length() || isRegionEnd(text.charAt(pos));
        }

        /** {@code end_of_str()}: the end of the text or a newline. */
        private boolean atEndOfString() {
            return pos == text.length() || text.charAt(pos) == '\n';
        }

        private void expect(char c, String region) {
            if (pos < text.length() && text.charAt(pos) == c) {
                pos++;
                return;
            }
            fail(region, CpuMaskFormatException.Code.EINVAL, "expected '" + c + "' but found " + found());
        }

        /** {@code bitmap_getnum()}: {@code N} is the last bit; otherwise decimal, at most 32 bits. */
        private long number(String region) {
            if (pos < text.length() && text.charAt(pos) == 'N') {
                pos++;
                return nbits - 1;
            }
            int begin = pos;
            long n = 0;
            while (pos < text.length() && text.charAt(pos) >= '0' && text.charAt(pos) <= '9') {
                n = Math.min(n * 10 + (text.charAt(pos) - '0'), UINT_MASK + 1);
                pos++;
            }
            if (pos == begin) fail(region, CpuMaskFormatException.Code.EINVAL, "expected a number but found " + found());
            if (n > UINT_MASK) {
                fail(region, CpuMaskFormatException.Code.EOVERFLOW, "the number " + text.substring(begin, pos) + " does not fit in 32 bits");
            }
            return n;
        }

        private String found() {
            if (pos == text.length()) return "the end";
            char c = text.charAt(pos);
            return c == '\n' ? "a newline" : "'" + c + "'";
        }

        private String where(String region) {
            return region.equals(text.strip()) ? "" : "in '" + region + "': ";
        }

        private void fail(String region, CpuMaskFormatException.Code code, String why) {
            throw new CpuMaskFormatException(text, code, where(region) + why);
        }
    }
}
