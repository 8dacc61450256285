package dev.corescope.bench.timerbase;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import dev.corescope.bench.Figure;
import dev.corescope.bench.FileSections;
import dev.corescope.bench.RunSetup;
import dev.corescope.bench.Undisturbed;
import dev.corescope.report.Histogram;
import dev.corescope.report.Pointers;
import org.HdrHistogram.AbstractHistogram;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one {@code bench timerbase} run measured, as saved in the results file
 * ({@code models.timerbase}), so that {@link TimerbaseView} renders a saved file as it rendered
 * the live run. docs/formats.md describes each field. Files written before {@code setup} hold
 * {@code pinning}, {@code javaSettings} and {@code load} as sentences; files written before the notes
 * were data hold them in {@code notes}, and no {@code javaIterations}.
 *
 * @param firstTouchedOn  for each CPU holding timer bases, the CPU {@code sched_getcpu()} said first touched its area
 * @param paths           instructions per pass of the retry loop up to the lock call, per variant and path,
 *                        counted on the C twins' machine code ({@link DeferrablePath})
 * @param nativeMain      the C batches left out, before and after
 * @param nativeTwoLoads  the C batches left out, before_two_loads and after
 * @param clockValues     per implementation, the most common values of its empty histogram column
 *                        (two clock reads, nothing between)
 */
public record TimerbaseModel(@JsonInclude(JsonInclude.Include.NON_NULL) String pinning, String cpusWithBases, Map<Integer, Integer> firstTouchedOn,
                             @JsonInclude(JsonInclude.Include.NON_NULL) String javaSettings, int samplesPerKind, int nativeBatches, @JsonInclude(JsonInclude.Include.NON_NULL) String load, List<PerOp> perOp, List<Column> columns,
                             List<PathRow> paths,
                             @JsonInclude(JsonInclude.Include.NON_EMPTY)
                             List<String> notes,
                             Undisturbed javaIterations, Undisturbed nativeMain, Undisturbed nativeTwoLoads, String nativeUnavailable,
                             String codeSizeMissing, Map<String, List<ClockValue>> clockValues, RunSetup setup) implements FileSections {

    public TimerbaseModel {
        firstTouchedOn = Map.copyOf(firstTouchedOn);
        perOp = List.copyOf(perOp);
        columns = List.copyOf(columns);
        paths = paths == null ? List.of() : List.copyOf(paths);
        notes = notes == null ? List.of() : List.copyOf(notes);
        clockValues = clockValues == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(clockValues));
    }

    /** {@code histograms[]}: each column's histogram. */
    @Override
    public List<Histogram> histograms() {
        return columns.stream().map(Column::histogram).toList();
    }

    /** Whether this model is from a file written before the notes were data: it has its notes as sentences. */
    boolean notesAsSentences() {
        return javaIterations == null;
    }

    /** A value an empty sample took and its share of the samples, in percent. */
    public record ClockValue(long ns, double percent) {
    }

    /** before (as compiled), before with both table loads kept, and after, of one implementation, and the changes. */
    public record PerOp(String implementation, Figure before, Figure twoLoads, Figure after, List<Change> changes) {
    }

    /** {@code to} minus {@code from} per call, as a share of {@code from}, and Welch's test at 99.9%. */
    public record Change(String label, double difference, double percent, boolean significant) {
    }

    /**
     * One variant's instructions on one path ({@code deferrable}, {@code global}) from the loop's
     * header to the lock call, or why it could not be counted ({@code instructions} null).
     */
    public record PathRow(String variant, String path, String flags, Integer instructions, String reason) {
    }

    /**
     * One histogram column (the results file's {@code histograms[]} entry, which the model points at) and the mean of its
     * samples below the table's end (null when none fell there).
     */
    public record Column(@JsonSerialize(using = Pointers.HistogramOut.class) @JsonDeserialize(using = Pointers.HistogramIn.class)
                         Histogram histogram,
                         Double meanBelowTable) {

        /**
         * A live histogram's column: the CONTRACT's histogram, 20 ns buckets {@code [0-19]} .. {@code [300-319]}, the last
         * holding everything above, and the mean below the table's end.
         */
        static Column of(String implementation, TimerbaseSampler.Kind kind, AbstractHistogram h) {
            int buckets = TimerbaseSampler.BUCKETS, width = TimerbaseSampler.BUCKET_NS;
            long[] counts = new long[buckets];
            for (int i = 0; i < buckets - 1; i++) counts[i] = h.getCountBetweenValues(i * width, (i + 1) * width - 1L);
            long total = h.getTotalCount();
            counts[buckets - 1] = total - h.getCountBetweenValues(0, (buckets - 1) * width - 1L);
            long overflow = total - h.getCountBetweenValues(0, TimerbaseSampler.TABLE_END_NS - 1);
            double mean = TimerbaseSampler.meanInTable(h);
            return new Column(new Histogram("timerbase", kind.variant(), implementation, width, counts, total, overflow,
                    (double) h.getValueAtPercentile(50), (double) h.getValueAtPercentile(99), (double) h.getMaxValue()),
                    Double.isNaN(mean) ? null : mean);
        }
    }
}
