package dev.corescope.bench;

import java.util.List;

/**
 * How many timed iterations (JMH) or batches (C) a run left out because its thread was
 * descheduled during them, as numbers a family's model saves; {@link #words} says it in a line.
 *
 * @param leftOut  iterations or batches left out
 * @param total    iterations or batches run
 * @param keptAll  groups (JMH runs, C rows) that kept every one, having fewer than 3 undisturbed
 * @param groups   groups in all
 */
public record Undisturbed(int leftOut, int total, int keptAll, int groups) {

    /** The JMH runs' iterations: a run that fell back kept all of its own. */
    public static Undisturbed ofIterations(List<UndisturbedIterations> runs) {
        int total = runs.stream().mapToInt(UndisturbedIterations::total).sum();
        int left = runs.stream().filter(u -> !u.fellBack()).mapToInt(u -> u.total() - u.kept()).sum();
        int fellBack = (int) runs.stream().filter(UndisturbedIterations::fellBack).count();
        return new Undisturbed(left, total, fellBack, runs.size());
    }

    /** The C rows' batches. */
    public static Undisturbed ofBatches(List<CleanBatches> outcomes) {
        int run = outcomes.stream().mapToInt(CleanBatches::run).sum();
        int discarded = outcomes.stream().mapToInt(CleanBatches::discarded).sum();
        int fellBack = (int) outcomes.stream().filter(CleanBatches::fellBack).count();
        return new Undisturbed(discarded, run, fellBack, outcomes.size());
    }

    /**
     * In one line: {@code 3 of 40 left out because ...}, then the groups that kept everything.
     *
     * @param group  what a group is, plural ({@code runs}, {@code rows})
     * @param item   what was left out, singular ({@code iteration}, {@code batch})
     * @param per    what "fewer than 3" counts in ({@code ""} or {@code " per variant"})
     * @return the line, without a full stop
     */
    public String words(String group, String item, String per) {
        if (groups == 1 && keptAll == 1) {
            return "every " + item + " kept: fewer than 3" + per + " ran undisturbed, so these figures include preemptions";
        }
        return leftOut + " of " + total + " left out because the thread was descheduled during them (its CPU time fell more "
                + "than 2% behind the wall clock)" + (keptAll == 0 ? "" : "; " + keptAll + " of " + groups + " " + group
                + " kept every " + item + ", having fewer than 3 undisturbed ones" + per + ", so they include preemptions");
    }
}
