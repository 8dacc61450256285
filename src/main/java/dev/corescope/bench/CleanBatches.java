package dev.corescope.bench;

import dev.corescope.sys.tool.BatchTime;

import java.util.ArrayList;
import java.util.List;

/**
 * Per-call samples of two variants from timed C batches, run alternately so a noisy
 * neighbour hits both alike, keeping the batches during which the thread was not descheduled
 * ({@link BatchTime#undisturbed()}). On a shared machine a batch that lost its CPU for a few
 * milliseconds would otherwise count someone else's work as the call's.
 *
 * @param first      ns per call of the first variant, one value per kept batch
 * @param second     the same for the second variant
 * @param run        batches run in all, both variants
 * @param discarded  batches left out because the thread was descheduled during them
 * @param fellBack   true when fewer than three undisturbed batches per variant could be had,
 *                   so every batch was kept (the figures then include preemptions)
 */
public record CleanBatches(double[] first, double[] second, int run, int discarded, boolean fellBack) {

    /** Runs one batch of the first ({@code false}) or second ({@code true}) variant. */
    @FunctionalInterface
    public interface Batch {
        BatchTime run(boolean second);
    }

    /**
     * Alternates the variants (first-second, then second-first) until each has {@code wanted}
     * undisturbed batches, or {@code 4 * wanted} rounds have run.
     */
    public static CleanBatches collect(int wanted, long callsPerBatch, Batch batch) {
        List<Double> a = new ArrayList<>(), b = new ArrayList<>(), allA = new ArrayList<>(), allB = new ArrayList<>();
        int run = 0, discarded = 0;
        for (int round = 0; round < 4 * wanted && (a.size() < wanted || b.size() < wanted); round++) {
            for (int k = 0; k < 2; k++) {
                boolean second = (round & 1) == 0 ? k == 1 : k == 0;
                BatchTime t = batch.run(second);
                double perCall = (double) t.wallNs() / callsPerBatch;
                run++;
                (second ? allB : allA).add(perCall);
                if (t.undisturbed()) (second ? b : a).add(perCall);
                else discarded++;
            }
        }
        boolean fellBack = a.size() < 3 || b.size() < 3;
        return fellBack ? new CleanBatches(toArray(allA), toArray(allB), run, 0, true)
                : new CleanBatches(toArray(a), toArray(b), run, discarded, false);
    }

    /** One line for a report. */
    public String describe() {
        return fellBack ? "every batch kept: fewer than 3 per variant ran undisturbed, so these figures include preemptions"
                : discarded + " of " + run + " left out because the thread was descheduled during them "
                + "(its CPU time fell more than 2% behind the wall clock)";
    }

    private static double[] toArray(List<Double> l) {
        return l.stream().mapToDouble(Double::doubleValue).toArray();
    }
}
