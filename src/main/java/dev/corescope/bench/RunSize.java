package dev.corescope.bench;

import dev.corescope.report.SeedVerdicts;

/**
 * How long a run takes, the one type every family reads its plan from: {@code FULL} (the
 * default, aiming at small errors), {@code QUICK} ({@code --quick} and the tour: each family well
 * under 20 s on 2 cores) and {@code SMOKE} (tests: the smallest run that proves the code works;
 * its numbers mean nothing).
 */
public enum RunSize {
    SMOKE, QUICK, FULL;

    /** {@code --quick} or not. */
    public static RunSize of(boolean quick) {
        return quick ? QUICK : FULL;
    }

    /** The value for this size. */
    public <T> T pick(T smoke, T quick, T full) {
        return switch (this) {
            case SMOKE -> smoke;
            case QUICK -> quick;
            case FULL -> full;
        };
    }

    /**
     * The separately started runs per side of a C twin's rows (the unit of their intervals):
     * {@link SeedVerdicts#RUNS_PER_SIDE} where time is short, 8 in a full run. The runs share the
     * family's batches, so more runs cost little time and give the interval more degrees of freedom.
     */
    public int twinRuns() {
        return pick(SeedVerdicts.RUNS_PER_SIDE, SeedVerdicts.RUNS_PER_SIDE, SeedVerdicts.TWIN_RUNS_FULL);
    }

    /** Anything shorter than a full run (what {@code --quick} trims, a smoke run trims too). */
    public boolean brief() {
        return this != FULL;
    }

    /** What a settings line adds: {@code " (--quick)"}, the smoke test's warning, or nothing. */
    public String note() {
        return pick(" (smoke test: numbers mean nothing)", " (--quick)", "");
    }
}
