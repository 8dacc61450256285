package dev.corescope.bench.cpumask;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.corescope.bench.Figure;
import dev.corescope.bench.RunSetup;
import dev.corescope.bench.Undisturbed;

import java.util.List;

/**
 * What one {@code bench cpumask} run measured, as saved in the results file
 * ({@code models.cpumask}): plain numbers, strings and lists, so that {@link CpumaskView} renders a
 * saved file as it rendered the live run. docs/formats.md describes each field. Files written before
 * {@code setup} hold {@code pinning}, {@code javaSettings} and {@code load} as sentences; files from
 * round two hold {@code callers} and {@code callerFlags} (newer ones hold {@code code-size} rows); files
 * written before the notes were data hold them in {@code notes}, and no {@code javaIterations}.
 *
 * @param nativeBatches  the undisturbed C batches wanted per variant and row
 * @param javaIterations the JMH iterations left out because the thread was descheduled
 * @param nativeLeftOut  the C batches left out, over all native rows; null when C did not run
 * @param codeSizeBuilds the compiler and the builds the {@code code-size} rows were measured at; null
 *                       when none were (no compiler, or a file from before the build matrix)
 */
public record CpumaskModel(@JsonInclude(JsonInclude.Include.NON_NULL) String pinning, String allowed, int nrCpuIds, @JsonInclude(JsonInclude.Include.NON_NULL) String javaSettings, int nativeBatches,
                           @JsonInclude(JsonInclude.Include.NON_NULL) String load,
                           List<Row> comparisons, List<SplitRow> splits, List<CallerSize> callers, String callerFlags, String hsdis,
                           @JsonInclude(JsonInclude.Include.NON_EMPTY)
                           List<String> notes,
                           boolean quick, Undisturbed javaIterations, Undisturbed nativeLeftOut, String nativeUnavailable,
                           List<String> codeSizeGaps, CodeSizeBuilds codeSizeBuilds, RunSetup setup) {

    public CpumaskModel {
        comparisons = List.copyOf(comparisons);
        splits = List.copyOf(splits);
        callers = callers == null ? List.of() : List.copyOf(callers); // absent in files from before round two
        notes = notes == null ? List.of() : List.copyOf(notes);
        codeSizeGaps = codeSizeGaps == null ? List.of() : List.copyOf(codeSizeGaps);
    }

    /** Whether this model is from a file written before the notes were data: it has its notes as sentences. */
    boolean notesAsSentences() {
        return javaIterations == null;
    }

    /**
     * The two variants of one configuration and implementation, and whether they differ (Welch, 99.9%).
     *
     * @param online {@code 16} (the seed's machine) or {@code host}
     * @param mask   {@code online} or {@code high} (a synthetic worst case)
     * @param layout the C code layout ({@code align64}, {@code align32}); null for Java
     */
    // Files from before the round-two models carry input=precomputed|random and no online/layout:
    // the row still reads (input is ignored, online and layout are absent), so old files render.
    public record Row(String implementation, int nrCpus, String online, String mask, String layout, Figure baseline,
                      Figure approach, boolean significant) {

        /** The seed's experiment: its 16 CPUs online, the mask as the kernel has it. */
        public boolean seedCondition() {
            return "online".equals(mask) && Integer.toString(CpumaskInputs.SEED_ONLINE).equals(online);
        }
    }

    /** A Java gap split in two: calls (loop vs loop of first()) and shape (loop of first() vs first_but). */
    public record SplitRow(int nrCpus, String online, String mask, Figure loop, Figure loopFirst, Figure firstBut,
                           boolean callsSignificant, boolean shapeSignificant) {
    }

    /**
     * bloat-o-meter's row: one caller's size before ({@code cpumask_any_but} loop) and after
     * ({@code cpumask_first_but}) at one build; {@code build} null in files from round two.
     */
    public record CallerSize(int nrCpus, String function, String build, long oldBytes, long newBytes) {

        public long delta() {
            return newBytes - oldBytes;
        }
    }

    /** The compiler (its {@code --version} line) and the builds of the code-size matrix, in order. */
    public record CodeSizeBuilds(String compiler, List<BuildFlags> builds) {
        public CodeSizeBuilds {
            builds = List.copyOf(builds);
        }
    }

    /** One build of the matrix: its name ({@code kernel-O2}) and the flags it was compiled with. */
    public record BuildFlags(String name, String flags) {
    }
}
