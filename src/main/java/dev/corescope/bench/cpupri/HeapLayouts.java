package dev.corescope.bench.cpupri;

import dev.corescope.report.Layout;
import org.openjdk.jol.info.ClassLayout;
import org.openjdk.jol.info.FieldLayout;
import org.openjdk.jol.vm.VM;
import org.openjdk.jol.vm.VirtualMachine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import static dev.corescope.bench.cpupri.CpupriLayouts.CPUPRI_NR_PRIORITIES;

/**
 * The Java-heap {@code cpupri_vec}s as this JVM really lays them out, read with JOL
 * ({@code org.openjdk.jol}) rather than assumed: header, fields and gaps per object, and the
 * distance from {@code count} to {@code mask}, the figure that decides whether a reader of the
 * mask and a writer of the count share a line.
 *
 * <p>JOL only needs {@code Unsafe.objectFieldOffset} for this; its attempts to attach an agent
 * and the Serviceability Agent (slow, and noisy on stdout) are switched off.
 */
public final class HeapLayouts {

    /** The three heap shapes, by variant name, in report order. */
    public static final List<String> VARIANTS = List.of("heap_packed", "heap_padded", "heap_contended");

    private static volatile String vmNote;

    /** The hand-written padding fields of {@link HeapVecs}: p01..p08, q01..q08. */
    private static final Pattern PADDING_FIELD = Pattern.compile("[pq]\\d\\d");

    private HeapLayouts() {
    }

    /**
     * What one heap shape looks like: JOL's rows plus the two fields that matter.
     *
     * @param gap bytes between the end of the first of count and mask and the start of the other
     */
    public record HeapLayout(String variant, Class<?> type, long countOffset, long maskOffset, long gap,
                             long instanceSize, Layout layout) {

        /**
         * Whether count and mask can never share a line of {@code lineSize}, wherever the JVM
         * places the object: only when the gap between them is at least a whole line.
         */
        public boolean apart(int lineSize) {
            return gap >= lineSize;
        }
    }

    /** The class behind a heap variant. */
    public static Class<?> type(String variant) {
        return switch (variant) {
            case "heap_packed" -> HeapVecs.Packed.class;
            case "heap_padded" -> HeapVecs.PaddedMask.class;
            case "heap_contended" -> ContendedVec.class;
            default -> throw new IllegalArgumentException("no heap variant " + variant);
        };
    }

    /** The layout of one heap variant, as JOL reads it from this JVM. */
    public static HeapLayout of(String variant, int lineSize) {
        Class<?> type = type(variant);
        ClassLayout cl = parse(type);
        FieldLayout count = null;
        FieldLayout mask = null;
        List<Layout.Row> rows = new ArrayList<>();
        long header = cl.headerSize();
        rows.add(new Layout.Row(0, header, "header", "(object header)"));
        long next = header;
        for (FieldLayout f : cl.fields()) {
            if (f.offset() > next) rows.add(new Layout.Row(next, f.offset() - next, "padding", "(gap)"));
            String name = f.classShortName() + "." + f.name();
            boolean pad = PADDING_FIELD.matcher(f.name()).matches();
            Layout.Row last = rows.getLast();
            if (pad && last.kind().equals("padding") && last.offset() + last.size() == f.offset()
                    && last.name().startsWith(f.classShortName() + ".")) {
                // one row per block of padding fields, as agrona's source reads: p01..p08
                rows.set(rows.size() - 1, new Layout.Row(last.offset(), last.size() + f.size(), "padding",
                        last.name().replaceFirst("\\.\\.\\w+$", "") + ".." + f.name()));
            } else {
                rows.add(new Layout.Row(f.offset(), f.size(), pad ? "padding" : "field", name));
            }
            if (f.name().equals("count")) count = f;
            if (f.name().equals("mask")) mask = f;
            next = f.offset() + f.size();
        }
        if (cl.instanceSize() > next) rows.add(new Layout.Row(next, cl.instanceSize() - next, "padding", "(object alignment gap)"));
        if (count == null || mask == null) throw new IllegalStateException(type.getName() + " has no count or mask field");

        long array = parseInstance(new Object[CPUPRI_NR_PRIORITIES]).instanceSize();
        long total = array + CPUPRI_NR_PRIORITIES * cl.instanceSize();
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("heap", true);
        params.put("objectBytes", cl.instanceSize());
        params.put("objects", CPUPRI_NR_PRIORITIES);
        FieldLayout first = count.offset() < mask.offset() ? count : mask;
        FieldLayout second = first == count ? mask : count;
        long gap = second.offset() - (first.offset() + first.size());
        params.put("countOffset", count.offset());
        params.put("maskOffset", mask.offset());
        Layout layout = new Layout(variant, total, CpupriLayouts.cacheLines(total, lineSize), lineSize, params, rows);
        return new HeapLayout(variant, type, count.offset(), mask.offset(), gap, cl.instanceSize(), layout);
    }

    /** JOL's own description of this JVM (compressed oops, alignment), once JOL has started. */
    public static String vmDetails() {
        vm();
        return vmNote;
    }

    private static ClassLayout parse(Class<?> type) {
        vm();
        return ClassLayout.parseClass(type);
    }

    private static ClassLayout parseInstance(Object o) {
        vm();
        return ClassLayout.parseInstance(o);
    }

    /**
     * Starts JOL once. It prints its probing warnings to {@code System.out}, which would corrupt
     * {@code --format json}; they are caught here and kept as a note.
     */
    private static synchronized VirtualMachine vm() {
        if (vmNote != null) return VM.current();
        System.setProperty("jol.skipDynamicAttach", System.getProperty("jol.skipDynamicAttach", "true"));
        System.setProperty("jol.skipHotspotSAAttach", System.getProperty("jol.skipHotspotSAAttach", "true"));
        PrintStream out = System.out;
        ByteArrayOutputStream caught = new ByteArrayOutputStream();
        VirtualMachine vm;
        try (PrintStream sink = new PrintStream(caught, true, StandardCharsets.UTF_8)) {
            System.setOut(sink);
            vm = VM.current();
        } finally {
            System.setOut(out);
        }
        vmNote = vm.details().lines().filter(l -> !l.isBlank()).map(String::strip).filter(l -> !l.contains("WARNING"))
                .reduce((a, b) -> a + "\n" + b).orElse("");
        return vm;
    }
}
