package dev.corescope.bench.cpupri;

import dev.corescope.report.Layout;
import dev.corescope.report.Result;

import java.util.List;

/**
 * What one {@code bench cpupri} run measured, as saved in the results file
 * ({@code models.cpupri}), so that {@link CpupriView} renders a saved file as it rendered the
 * live run: the layouts of {@code struct cpupri}, the Java-heap analogue, the contention rows.
 *
 * @param lineSize  the cache line size the layouts were laid out with
 * @param structs   the {@code CONFIG_CPUMASK_OFFSTACK=y} layouts (the seed's), with where each vec's count and mask sit
 * @param inline    the {@code CONFIG_CPUMASK_OFFSTACK=n} layouts, one per layout and NR_CPUS
 * @param heap      the Java-heap analogue, one per heap variant
 * @param vmDetails JOL's description of the JVM that laid out the heap objects
 * @param runs      one entry per measured workload, variant, implementation, placement and writers
 * @param results   empty: the contention rows are in {@code results[]} only (files written before they were kept
 *                  once hold a copy here, which the view reads when the file's rows are missing)
 * @param notes     every note the run printed
 */
public record CpupriModel(int lineSize, List<Struct> structs, List<Layout> inline, List<Heap> heap, String vmDetails,
                          List<Run> runs,
                          @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_EMPTY)
                          List<Result> results, List<String> notes) {

    public CpupriModel {
        structs = List.copyOf(structs);
        inline = List.copyOf(inline);
        heap = List.copyOf(heap);
        runs = List.copyOf(runs);
        results = results == null ? List.of() : List.copyOf(results);
        notes = List.copyOf(notes);
    }

    /**
     * One offstack layout of {@code struct cpupri}.
     *
     * @param layout          its JOL-style rows
     * @param description     what it is (today's kernel, the patch, the alternative)
     * @param seedCacheLines  its size in 64-byte lines, as the seed counted them
     * @param rt99Shared      whether count[99] and mask[99] share a line
     * @param countOffsets    each vec's count offset, by priority index
     * @param maskOffsets     each vec's mask offset, by priority index
     * @param countBytes      the size of a count ({@code atomic_t})
     * @param maskBytes       the size of a mask ({@code cpumask_var_t}, a pointer)
     */
    public record Struct(Layout layout, String description, long seedCacheLines, boolean rt99Shared, long[] countOffsets,
                         long[] maskOffsets, long countBytes, long maskBytes) {
    }

    /** A heap variant: the class, JOL's rows, and where count and mask sit in one object. */
    public record Heap(String variant, String type, long countOffset, long maskOffset, long gap, long instanceSize,
                       boolean apart, Layout layout) {
    }

    /** One measurement; {@code rt} is null for the {@code mechanism} workload. */
    public record Run(String workload, String variant, String implementation, String placement, String placementDescription,
                      int writers, List<Integer> cpus, String rt) {
    }
}
