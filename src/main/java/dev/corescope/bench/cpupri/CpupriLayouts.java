package dev.corescope.bench.cpupri;

import dev.corescope.report.Layout;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemoryLayout.PathElement;
import java.lang.foreign.PaddingLayout;
import java.lang.foreign.SequenceLayout;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code struct cpupri} from {@code kernel/sched/cpupri.h} (Linux 5.10 to 6.x) as FFM
 * {@link MemoryLayout}s, in the three layouts of seed 002:
 * <ul>
 *   <li>{@link Kind#PACKED}: today's kernel, {@code struct cpupri_vec { atomic_t count; cpumask_var_t mask; }}
 *       &times; {@value #CPUPRI_NR_PRIORITIES}, then {@code int *cpu_to_pri};</li>
 *   <li>{@link Kind#ALIGNED}: the patch, {@code cpumask_var_t mask ____cacheline_aligned};</li>
 *   <li>{@link Kind#SPLIT}: the alternative from the seed's follow-up (v2 of the series):
 *       {@code counts[]} and {@code masks[]} as two arrays, padding after {@code counts[0]}
 *       (updated most often) and padding between the arrays (read-write vs read-mostly).</li>
 * </ul>
 * The padding is written out as {@link PaddingLayout}s, since an FFM struct, unlike a C
 * compiler, inserts none: every gap a C compiler would leave is a visible row.
 *
 * <p>{@code cpumask_var_t} is a pointer with {@code CONFIG_CPUMASK_OFFSTACK=y} (the seed's
 * configuration, and distributions' with {@code MAXSMP}), else an inline
 * {@code struct cpumask} of {@code BITS_TO_LONGS(NR_CPUS)} longs.
 */
public final class CpupriLayouts {

    /** {@code MAX_RT_PRIO + 1}: CPUPRI_NORMAL (0), RT1..RT99, CPUPRI_HIGHER (100). */
    public static final int CPUPRI_NR_PRIORITIES = 101;

    /** The cpupri index of a task at RT priority 99 (the seed's transcoding threads): {@code convert_prio(0)}. */
    public static final int CPUPRI_RT99 = 99;

    /** CPUPRI_NORMAL: a CPU running no RT task. */
    public static final int CPUPRI_NORMAL = 0;

    /** The seed's figures, with 64-byte lines and OFFSTACK=y. */
    public static final int SEED_PACKED_LINES = 26;
    public static final int SEED_ALIGNED_LINES = 203;
    public static final int SEED_SPLIT_LINES = 21;

    private static final long POINTER_BYTES = 8;

    /** The three layouts, by CONTRACT variant name. */
    public enum Kind {
        PACKED("packed", "today's kernel"),
        ALIGNED("aligned", "the patch: mask ____cacheline_aligned"),
        SPLIT("split", "the alternative: counts[] and masks[] apart");

        private final String variant;
        private final String description;

        Kind(String variant, String description) {
            this.variant = variant;
            this.description = description;
        }

        public String variant() {
            return variant;
        }

        public String description() {
            return description;
        }

        public static Kind of(String variant) {
            for (Kind k : values()) if (k.variant.equals(variant)) return k;
            throw new IllegalArgumentException("no cpupri layout " + variant + " (packed, aligned or split)");
        }
    }

    /**
     * What the layout depends on.
     *
     * @param lineSize {@code L1_CACHE_BYTES}: what {@code ____cacheline_aligned} aligns to
     * @param offstack {@code CONFIG_CPUMASK_OFFSTACK}: mask is a pointer (y) or inline bits (n)
     * @param nrCpus   {@code NR_CPUS}, the inline mask's size; ignored when {@code offstack}
     */
    public record Config(int lineSize, boolean offstack, int nrCpus) {
        public Config {
            if (lineSize <= 0 || Integer.bitCount(lineSize) != 1) {
                throw new IllegalArgumentException("cache line size must be a power of two: " + lineSize);
            }
            if (!offstack && nrCpus <= 0) throw new IllegalArgumentException("NR_CPUS must be positive: " + nrCpus);
        }

        /** The seed's configuration with a given line size. */
        public static Config offstack(int lineSize) {
            return new Config(lineSize, true, 0);
        }

        public static Config inline(int lineSize, int nrCpus) {
            return new Config(lineSize, false, nrCpus);
        }

        /** Bytes of one {@code cpumask_var_t} inside the struct. */
        long maskBytes() {
            return offstack ? POINTER_BYTES : 8L * ((nrCpus + 63) / 64);
        }

        Map<String, Object> params() {
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("offstack", offstack);
            if (!offstack) p.put("nrCpus", nrCpus);
            return p;
        }
    }

    private CpupriLayouts() {
    }

    /** {@code struct cpupri} in layout {@code kind}. */
    public static StructLayout layout(Kind kind, Config c) {
        return switch (kind) {
            case PACKED -> packed(c);
            case ALIGNED -> aligned(c);
            case SPLIT -> split(c);
        };
    }

    /** Each priority's count offset ({@code [0]}) and mask offset ({@code [1]}) in the layout {@code kind} under {@code c}. */
    static long[][] offsets(Kind kind, Config c) {
        StructLayout l = layout(kind, c);
        long[][] at = new long[2][CPUPRI_NR_PRIORITIES];
        for (int p = 0; p < CPUPRI_NR_PRIORITIES; p++) {
            at[0][p] = countOffset(l, kind, p);
            at[1][p] = maskOffset(l, kind, p);
        }
        return at;
    }

    /** Offset of {@code pri_to_cpu[p].count} (or {@code counts[p]}) from the start of the struct. */
    public static long countOffset(StructLayout l, Kind kind, int p) {
        checkPriority(p);
        if (kind == Kind.SPLIT) {
            return p == 0 ? l.byteOffset(PathElement.groupElement("counts[0]"))
                    : l.byteOffset(PathElement.groupElement("counts[1..]"), PathElement.sequenceElement(p - 1));
        }
        return l.byteOffset(PathElement.groupElement("pri_to_cpu"), PathElement.sequenceElement(p),
                PathElement.groupElement("count"));
    }

    /** Offset of {@code pri_to_cpu[p].mask} (or {@code masks[p]}). */
    public static long maskOffset(StructLayout l, Kind kind, int p) {
        checkPriority(p);
        if (kind == Kind.SPLIT) {
            return l.byteOffset(PathElement.groupElement("masks"), PathElement.sequenceElement(p));
        }
        return l.byteOffset(PathElement.groupElement("pri_to_cpu"), PathElement.sequenceElement(p),
                PathElement.groupElement("mask"));
    }

    /** Offset of {@code cpu_to_pri}. */
    public static long cpuToPriOffset(StructLayout l) {
        return l.byteOffset(PathElement.groupElement("cpu_to_pri"));
    }

    /** Cache lines a struct of {@code bytes} covers when it starts on a line boundary. */
    public static long cacheLines(long bytes, int lineSize) {
        return (bytes + lineSize - 1) / lineSize;
    }

    /**
     * The layout as a report: JOL-style rows (offset, size, field; padding as its own rows),
     * with {@code pri_to_cpu[2..98]} folded into one row, since its elements repeat the shape
     * of {@code [0]} and {@code [1]}.
     */
    public static Layout report(Kind kind, Config c) {
        StructLayout l = layout(kind, c);
        List<Layout.Row> rows = new ArrayList<>();
        flatten(l, "", 0, rows);
        return new Layout(kind.variant(), l.byteSize(), cacheLines(l.byteSize(), c.lineSize()), c.lineSize(),
                c.params(), rows);
    }

    private static StructLayout packed(Config c) {
        StructLayout vec = vec(c, false);
        return cpupri(vec, c);
    }

    private static StructLayout aligned(Config c) {
        return cpupri(vec(c, true), c);
    }

    /** {@code struct cpupri_vec}; with {@code aligned} the mask starts a new line and the struct ends on one. */
    private static StructLayout vec(Config c, boolean aligned) {
        MemoryLayout mask = mask(c).withName("mask");
        List<MemoryLayout> m = new ArrayList<>();
        m.add(ValueLayout.JAVA_INT.withName("count"));
        long offset = 4;
        long maskAlign = aligned ? c.lineSize() : 8;
        offset = pad(m, offset, maskAlign);
        m.add(aligned ? mask.withByteAlignment(c.lineSize()) : mask);
        offset += mask.byteSize();
        pad(m, offset, aligned ? c.lineSize() : 8);
        return MemoryLayout.structLayout(m.toArray(MemoryLayout[]::new)).withName("cpupri_vec");
    }

    private static StructLayout cpupri(StructLayout vec, Config c) {
        List<MemoryLayout> m = new ArrayList<>();
        m.add(MemoryLayout.sequenceLayout(CPUPRI_NR_PRIORITIES, vec).withName("pri_to_cpu"));
        long offset = m.getFirst().byteSize();
        m.add(ValueLayout.ADDRESS.withTargetLayout(ValueLayout.JAVA_INT).withName("cpu_to_pri"));
        offset += POINTER_BYTES;
        pad(m, offset, vec.byteAlignment());
        return MemoryLayout.structLayout(m.toArray(MemoryLayout[]::new)).withName("cpupri");
    }

    /**
     * The split layout. {@code counts[0]} sits alone on the struct's first line; {@code counts[1..100]}
     * follow on the next line; {@code masks[]} start on a fresh line. The struct is line-aligned,
     * as the series places it in {@code root_domain} with {@code ____cacheline_aligned}.
     */
    private static StructLayout split(Config c) {
        int line = c.lineSize();
        List<MemoryLayout> m = new ArrayList<>();
        m.add(ValueLayout.JAVA_INT.withName("counts[0]").withByteAlignment(line));
        long offset = pad(m, 4, line);
        MemoryLayout rest = MemoryLayout.sequenceLayout(CPUPRI_NR_PRIORITIES - 1, ValueLayout.JAVA_INT).withName("counts[1..]");
        m.add(rest);
        offset = pad(m, offset + rest.byteSize(), line);
        MemoryLayout masks = MemoryLayout.sequenceLayout(CPUPRI_NR_PRIORITIES, mask(c)).withName("masks");
        m.add(masks);
        offset += masks.byteSize();
        m.add(ValueLayout.ADDRESS.withTargetLayout(ValueLayout.JAVA_INT).withName("cpu_to_pri"));
        offset += POINTER_BYTES;
        pad(m, offset, line);
        return MemoryLayout.structLayout(m.toArray(MemoryLayout[]::new)).withName("cpupri");
    }

    private static MemoryLayout mask(Config c) {
        if (c.offstack()) return ValueLayout.ADDRESS.withName("mask");
        return MemoryLayout.structLayout(
                MemoryLayout.sequenceLayout(c.maskBytes() / 8, ValueLayout.JAVA_LONG).withName("bits")).withName("cpumask");
    }

    /** Adds padding from {@code offset} up to the next multiple of {@code align}; returns the new offset. */
    private static long pad(List<MemoryLayout> members, long offset, long align) {
        long gap = (align - offset % align) % align;
        if (gap > 0) members.add(MemoryLayout.paddingLayout(gap));
        return offset + gap;
    }

    private static void checkPriority(int p) {
        if (p < 0 || p >= CPUPRI_NR_PRIORITIES) {
            throw new IllegalArgumentException("cpupri index " + p + " outside 0.." + (CPUPRI_NR_PRIORITIES - 1));
        }
    }

    // ---- rows ----

    /** Elements of pri_to_cpu shown one by one; the rest are folded into one row. */
    private static boolean expanded(long i, long count) {
        return i < 2 || i >= count - 2;
    }

    private static void flatten(GroupLayout g, String prefix, long base, List<Layout.Row> rows) {
        long offset = base;
        for (MemoryLayout m : g.memberLayouts()) {
            String name = prefix + m.name().orElse("");
            switch (m) {
                case PaddingLayout p -> rows.add(new Layout.Row(offset, p.byteSize(), "padding", "(padding)"));
                case SequenceLayout s when s.elementLayout() instanceof GroupLayout eg
                        && !(eg.memberLayouts().size() == 1 && eg.memberLayouts().getFirst() instanceof SequenceLayout) -> {
                    long n = s.elementCount();
                    long size = eg.byteSize();
                    long i = 0;
                    while (i < n) {
                        if (expanded(i, n)) {
                            flatten(eg, name + "[" + i + "].", offset + i * size, rows);
                            i++;
                        } else {
                            long j = i;
                            while (j < n && !expanded(j, n)) j++;
                            rows.add(new Layout.Row(offset + i * size, (j - i) * size, "field",
                                    name + "[" + i + ".." + (j - 1) + "]"));
                            i = j;
                        }
                    }
                }
                default -> rows.add(new Layout.Row(offset, m.byteSize(), "field", arrayName(name, m)));
            }
            offset += m.byteSize();
        }
    }

    /** {@code counts[1..]} becomes {@code counts[1..100]}; {@code masks} becomes {@code masks[0..100]}. */
    private static String arrayName(String name, MemoryLayout m) {
        if (!(m instanceof SequenceLayout s)) return name;
        if (name.endsWith("[1..]")) return name.substring(0, name.length() - 1) + s.elementCount() + "]";
        return name + "[0.." + (s.elementCount() - 1) + "]";
    }
}
