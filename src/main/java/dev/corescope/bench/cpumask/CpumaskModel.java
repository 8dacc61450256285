package dev.corescope.bench.cpumask;

import dev.corescope.bench.Figure;

import java.util.List;

/**
 * What one {@code bench cpumask} run measured, as saved in the results file
 * ({@code models.cpumask}): plain numbers, strings and lists, so that {@link CpumaskView} renders a
 * saved file as it rendered the live run.
 *
 * @param pinning        how the run was pinned, in words
 * @param allowed        the allowed CPUs as a list ({@code 0-1})
 * @param nrCpuIds       the kernel's nr_cpu_ids
 * @param javaSettings   the JMH settings, in words
 * @param nativeBatches  the undisturbed C batches wanted per variant and row
 * @param load           the machine's load at start, in words, or null
 * @param comparisons    one row per configuration and implementation
 * @param splits         the Java gaps split into calls and shape
 * @param sizes          the C functions' code sizes
 * @param hsdis          whether the measuring JVM could show C2's machine code, in words
 * @param notes          every note the run printed
 */
public record CpumaskModel(String pinning, String allowed, int nrCpuIds, String javaSettings, int nativeBatches, String load,
                           List<Row> comparisons, List<SplitRow> splits, List<Size> sizes, String hsdis, List<String> notes) {

    public CpumaskModel {
        comparisons = List.copyOf(comparisons);
        splits = List.copyOf(splits);
        sizes = List.copyOf(sizes);
        notes = List.copyOf(notes);
    }

    /** The two variants of one configuration and implementation, and whether they differ (Welch, 99.9%). */
    public record Row(String implementation, int nrCpus, String mask, String input, Figure baseline, Figure approach,
                      boolean significant) {
    }

    /** A Java gap split in two: calls (loop vs loop of first()) and shape (loop of first() vs first_but). */
    public record SplitRow(int nrCpus, String mask, String input, Figure loop, Figure loopFirst, Figure firstBut,
                           boolean callsSignificant, boolean shapeSignificant) {
    }

    /** bloat-o-meter's row: the old and new function of one NR_CPUS, from the symbol table {@code table}. */
    public record Size(int nrCpus, String oldSymbol, long oldBytes, String newSymbol, long newBytes, String table) {
    }
}
