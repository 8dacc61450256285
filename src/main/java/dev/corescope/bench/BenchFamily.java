package dev.corescope.bench;

/**
 * One benchmark family ({@code cpumask}, {@code timerbase}, {@code cpupri}, {@code locks},
 * {@code c2c}): what {@code bench NAME} runs. Implementations measure and return the model;
 * they never print. The text a person reads is {@link FamilyRun#text()}, built from that model.
 */
public interface BenchFamily {

    /** The CONTRACT name, e.g. {@code cpumask}. */
    String name();

    /** One line for {@code --help} and the tour, e.g. the seed it reproduces. */
    String summary();

    /**
     * Runs the family. Native rows that cannot run (no C compiler at build time) are left out
     * and the reason goes into {@link FamilyRun#notes()}.
     */
    FamilyRun run(BenchContext context) throws Exception;

    /**
     * The functions whose machine code {@code bench} records after a run
     * ({@link MachineCodeReader}): each variant's C twin and Java method. None by default.
     */
    default java.util.List<MeasuredFunction> measuredFunctions() {
        return java.util.List.of();
    }
}
