package dev.corescope.jmh;

import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.Aggregator;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ResultRole;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The secondary result {@code ·pin}: how many benchmark threads were pinned (a number, so the
 * summary row and the JSON hold a score, not JMH's {@code NaN} of a text-only result), with
 * where each ran as its text ({@code threads pinned: thread 0 on CPU 3; ...}), which JMH prints
 * with the run's results.
 */
final class PinnedThreads extends Result<PinnedThreads> {

    private static final long serialVersionUID = 1L;

    private final String text;

    PinnedThreads(int threads, String text) {
        super(ResultRole.SECONDARY, "pin", of(threads), "threads", AggregationPolicy.MAX);
        this.text = text;
    }

    @Override
    protected Aggregator<PinnedThreads> getThreadAggregator() {
        return PinnedThreads::join;
    }

    @Override
    protected Aggregator<PinnedThreads> getIterationAggregator() {
        return PinnedThreads::join;
    }

    /** The most threads, and each different text once. */
    private static PinnedThreads join(Collection<PinnedThreads> results) {
        int threads = 0;
        Set<String> texts = new LinkedHashSet<>();
        for (PinnedThreads r : results) {
            threads = Math.max(threads, (int) r.getScore());
            texts.add(r.text);
        }
        return new PinnedThreads(threads, String.join("", texts));
    }

    @Override
    public String extendedInfo() {
        return text;
    }
}
