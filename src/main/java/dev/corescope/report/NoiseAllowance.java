package dev.corescope.report;

/**
 * A family's own between-run allowance ({@link BetweenRunNoise#allowance}): how far apart single runs
 * of its unchanged code were, where that is wider than the figure over all benchmarks. Families
 * declare them ({@code BenchFamily.allowances()}); {@code report} holds no family's figure.
 *
 * @param family         the results' {@code benchmark}
 * @param implementation {@code java} or {@code native}
 * @param logSd          the standard deviation of one run's mean on the log scale
 * @param df             its degrees of freedom (the timed rows it comes from)
 */
public record NoiseAllowance(String family, String implementation, double logSd, double df) {

    /** The key of the rows it is for: {@code family/implementation}. */
    public String poolKey() {
        return family + "/" + implementation;
    }
}
