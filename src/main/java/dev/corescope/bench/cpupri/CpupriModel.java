package dev.corescope.bench.cpupri;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import dev.corescope.bench.FileSections;
import dev.corescope.report.Layout;
import dev.corescope.report.Pointers;
import dev.corescope.report.Result;

import java.util.ArrayList;
import java.util.List;

/**
 * What one {@code bench cpupri} run measured, as saved in the results file
 * ({@code models.cpupri}), so that {@link CpupriView} renders a saved file as it rendered the
 * live run: the layouts of {@code struct cpupri}, the Java-heap analogue, the contention rows. The
 * layouts are the file's {@code layouts[]}: the model points at them by name and params ({@link Pointers}).
 *
 * docs/formats.md describes each field. Files written before the notes were data hold them as sentences in
 * {@code notes}, and no {@code usable}; files written before the contention rows were kept once hold a copy in
 * {@code results}, which the view reads when the file's rows are missing (read, never written).
 *
 * @param structs  the {@code CONFIG_CPUMASK_OFFSTACK=y} layouts (the seed's), with where each vec's count and mask sit
 * @param inline   the {@code CONFIG_CPUMASK_OFFSTACK=n} layouts, one per layout and NR_CPUS
 * @param heap     the Java-heap analogue, one per heap variant
 * @param runs     one entry per measured workload, variant, implementation, placement and writers
 * @param contendedIgnored whether the JVM ignored {@code @Contended} (the contended heap object was no bigger)
 */
public record CpupriModel(int lineSize, List<Struct> structs,
                          @JsonSerialize(contentUsing = Pointers.LayoutOut.class) @JsonDeserialize(contentUsing = Pointers.LayoutIn.class)
                          List<Layout> inline,
                          List<Heap> heap, String vmDetails,
                          List<Measured> runs,
                          @JsonProperty(access = JsonProperty.Access.WRITE_ONLY) List<Result> results,
                          @JsonInclude(JsonInclude.Include.NON_EMPTY)
                          List<String> notes,
                          String usable, int usableCount, List<String> lineWarnings, boolean contendedIgnored,
                          String nativeUnavailable, Double loadOneMinute, int onlineCpus) implements FileSections {

    public CpupriModel {
        structs = List.copyOf(structs);
        inline = List.copyOf(inline);
        heap = List.copyOf(heap);
        runs = List.copyOf(runs);
        results = results == null ? List.of() : List.copyOf(results);
        notes = notes == null ? List.of() : List.copyOf(notes);
        lineWarnings = lineWarnings == null ? List.of() : List.copyOf(lineWarnings);
    }

    /** {@code layouts[]}: the offstack layouts, the inline ones, the heap analogue's. */
    @Override
    public List<Layout> layouts() {
        List<Layout> out = new ArrayList<>();
        structs.forEach(s -> out.add(s.layout()));
        out.addAll(inline);
        heap.forEach(h -> out.add(h.layout()));
        return out;
    }

    /** Whether this model is from a file written before the notes were data: it has its notes as sentences. */
    boolean notesAsSentences() {
        return usable == null;
    }

    /**
     * One offstack layout of {@code struct cpupri}.
     *
     * @param layout          its JOL-style rows (its name is a {@link CpupriLayouts.Kind}'s variant, which says what it is)
     * @param seedCacheLines  its size in 64-byte lines, as the seed counted them
     * @param rt99Shared      whether count[99] and mask[99] share a line
     * @param countOffsets    each vec's count offset, by priority index
     * @param maskOffsets     each vec's mask offset, by priority index
     * @param countBytes      the size of a count ({@code atomic_t})
     * @param maskBytes       the size of a mask ({@code cpumask_var_t}, a pointer)
     */
    public record Struct(@JsonSerialize(using = Pointers.LayoutOut.class) @JsonDeserialize(using = Pointers.LayoutIn.class) Layout layout,
                         long seedCacheLines, boolean rt99Shared, long[] countOffsets,
                         long[] maskOffsets, long countBytes, long maskBytes) {
    }

    /** A heap variant: the class, JOL's rows, and where count and mask sit in one object. */
    public record Heap(String variant, String type, long countOffset, long maskOffset, long gap, long instanceSize,
                       boolean apart,
                       @JsonSerialize(using = Pointers.LayoutOut.class) @JsonDeserialize(using = Pointers.LayoutIn.class) Layout layout) {
    }

    /**
     * One measurement; {@code placement} is a placement key ({@code other-l3}) or {@code any}, which the view words;
     * {@code rt} is null for the {@code mechanism} workload. {@code countsPerFind}:
     * a C row of the cpupri workload, how many counts a find read (median of the samples; 1 = it
     * stopped at index 0, 99 = the full scan); null otherwise and in files from before. {@code concurrent}: a C row, the
     * share of its samples in which every thread stayed on its CPU (the others timed a thread alone and are left out of
     * the row, {@code CpupriTwins.Samples#concurrent}); null for Java and in files from before.
     */
    public record Measured(String workload, String variant, String implementation, String placement, int writers,
                           List<Integer> cpus, String rt, Double countsPerFind, Double concurrent) {
    }
}
