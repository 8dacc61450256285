package dev.corescope.jitter;

import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Orders CPUs quietest first. The long gaps decide: fewer gaps over 100 µs per second, then
 * fewer over 10 µs, then fewer over 1 µs, then the smaller largest gap. Rates are compared
 * as measured, so two CPUs differing by one event in a short run are ordered by that event;
 * the text says how long the windows were.
 */
public final class Ranking {

    static final Comparator<CpuJitter> QUIETEST_FIRST = Comparator
            .comparingDouble(CpuJitter::over100usPerSecond)
            .thenComparingDouble(CpuJitter::over10usPerSecond)
            .thenComparingDouble(CpuJitter::over1usPerSecond)
            .thenComparingLong(CpuJitter::maxNs)
            .thenComparingInt(CpuJitter::cpu);

    private Ranking() {
    }

    /** The rows sorted quietest first, each with its rank (1 = quietest). */
    public static List<CpuJitter> rank(List<CpuJitter> rows) {
        List<CpuJitter> sorted = rows.stream().sorted(QUIETEST_FIRST).toList();
        return IntStream.range(0, sorted.size()).mapToObj(i -> sorted.get(i).withRank(i + 1)).toList();
    }

    /** {@code 1,0}: the CPUs of ranked rows in rank order, which {@code taskset -c} and {@code --cpus} accept. */
    public static String quietestFirst(List<CpuJitter> ranked) {
        return ranked.stream().map(r -> String.valueOf(r.cpu())).collect(Collectors.joining(","));
    }
}
