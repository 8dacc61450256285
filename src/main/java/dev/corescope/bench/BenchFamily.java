package dev.corescope.bench;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.report.Claim;
import dev.corescope.report.MachineSummary;
import dev.corescope.report.NoiseAllowance;
import dev.corescope.report.ResultsFile;
import dev.corescope.text.TextDoc;
import dev.corescope.topology.Topology;

import java.util.List;
import java.util.Optional;

/**
 * One benchmark family ({@code cpumask}, {@code timerbase}, {@code cpupri}, {@code locks},
 * {@code c2c}): what {@code bench NAME} runs. Implementations measure and return the model;
 * they never print. The text a person reads is {@link #document}, built from that model as the results file holds it.
 */
public interface BenchFamily {

    /** The CONTRACT name, e.g. {@code cpumask}. */
    String name();

    /** One line for {@code --help} and the tour, e.g. the seed it reproduces. */
    String summary();

    /**
     * Runs the family. Native rows that cannot run (no C compiler at build time) are left out
     * and the model records why, for the view's notes.
     */
    FamilyRun run(BenchContext context) throws Exception;

    /** Whether {@link #picture} draws this family's runs ({@code bench NAME --format svg}). */
    default boolean draws() {
        return false;
    }

    /**
     * The family's full report as a document ({@link TextDoc}: headings, paragraphs, tables
     * with typed columns and a row key, figures, notes and findings as lists), built from the
     * model a results file holds (a live run's or a saved one); empty when the file holds no
     * model of it. {@code bench NAME}, {@code report --format text} and the HTML page all
     * render this one document: text lays it out at a width, the page as HTML.
     */
    default Optional<TextDoc> document(ResultsFile file) {
        return Optional.empty();
    }

    /**
     * The family's typed model as {@code file} holds it ({@code models.NAME}), with the rows, layouts
     * and histograms it points at taken from the file; empty when the file holds none.
     */
    default Optional<?> model(ResultsFile file) {
        return Optional.empty();
    }

    /**
     * What this family could not measure in {@code file}'s run, each with its reason in the words
     * of its notes (the tour lists them under its summary), decided on the saved model's data.
     * None by default.
     */
    default List<String> notMeasured(ResultsFile file) {
        return List.of();
    }

    /**
     * A short block for the tour, for a family whose rows no claim uses (the tour shows the others
     * by their claims): c2c's latency by relation. Empty by default and when the file holds no model.
     */
    default Optional<TextDoc> brief(ResultsFile file) {
        return Optional.empty();
    }

    /** {@link #document} as text at no width limit (the document laid out for {@code --wide}). */
    default Optional<String> text(ResultsFile file) {
        return document(file).map(d -> d.render(Integer.MAX_VALUE));
    }

    /** The family's picture (an SVG document) of the run in {@code file}, or empty. */
    default Optional<String> picture(ResultsFile file) {
        return Optional.empty();
    }

    /**
     * Every picture of the run in {@code file} for the page: {@link #picture} first, then any more
     * the family draws. A figure of the family's document without a picture of its own takes the
     * next of them; the page puts the rest after the document.
     */
    default List<String> pictures(ResultsFile file) {
        return picture(file).map(List::of).orElse(List.of());
    }

    /**
     * The functions whose machine code {@code bench} records after a run
     * ({@link MachineCodeReader}): each variant's C twin and Java method. None by default.
     */
    default List<MeasuredFunction> measuredFunctions() {
        return List.of();
    }

    /**
     * The short JMH run that makes C2 compile the Java methods of {@link #measuredFunctions()},
     * so their machine code can be printed where an hsdis plugin is found
     * ({@link JavaMachineCode}). None by default.
     */
    default Optional<JavaMachineCode.JmhSelection> javaCodeBenchmarks() {
        return Optional.empty();
    }

    /**
     * The claims of the seed this family re-runs, as data ({@code bench.<family>.<Family>Claims}):
     * what the patch's mail says, which rows measure it here and which do not count. The report
     * tests them with rules that name no seed ({@code report.SeedVerdicts}). None by default.
     */
    default List<Claim> claims() {
        return List.of();
    }

    /**
     * What this family's model in {@code file} says of the machine, summarised so that machines of
     * any size compare: one-way latency by how two CPUs relate ({@code report.MachineSummary}). None by default.
     */
    default List<MachineSummary.RelationLatency> relationLatencies(ResultsFile file) {
        return List.of();
    }

    /**
     * This family's own between-run allowance per implementation, where single runs of its
     * unchanged code spread wider than the figure over all benchmarks
     * ({@code report.BetweenRunNoise}); none by default.
     */
    default List<NoiseAllowance> allowances() {
        return List.of();
    }

    /**
     * {@code bench NAME --plan} and {@code --full}: what a run would measure, said before it
     * starts, and the run that measures everything; empty for a family that has neither.
     */
    default Optional<Plan> plan() {
        return Optional.empty();
    }

    /** A family's {@link #plan()}. */
    interface Plan {
        /** What a run on {@code cpus} of {@code topology} would measure and how long it would take, naming {@code source}. */
        String text(Topology topology, CpuMask cpus, RunSize size, boolean full, String source);

        /** The family measuring everything ({@code --full}). */
        BenchFamily full();
    }
}
