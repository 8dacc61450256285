package dev.corescope.jitter;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The ranking on crafted rows: long gaps decide before frequent short ones. */
class RankingTest {

    static CpuJitter row(int cpu, double over1, double over10, double over100, long max) {
        return new CpuJitter(cpu, 0, String.valueOf(cpu), 2.0, 25, 200, 100, over1, over10, over100, 5_000, 20_000, max,
                0.1, 0.0, 0L, 0L, "", List.of(), "local timer 250/s");
    }

    @Test
    void fewerLongGapsWinOverFewerShortOnes() {
        List<CpuJitter> ranked = Ranking.rank(List.of(
                row(0, 300, 20, 0.5, 400_000),
                row(1, 900, 5, 0, 60_000),
                row(2, 250, 5, 0, 50_000),
                row(3, 250, 5, 0, 45_000)));
        assertEquals("3,2,1,0", Ranking.quietestFirst(ranked));
        assertEquals(List.of(1, 2, 3, 4), ranked.stream().map(CpuJitter::rank).toList());
    }

    @Test
    void equalRowsKeepCpuOrder() {
        assertEquals("1,5", Ranking.quietestFirst(Ranking.rank(List.of(row(5, 1, 1, 0, 10), row(1, 1, 1, 0, 10)))));
    }

    @Test
    void theQuietPlacementTakesTheFirstRankedCpus() {
        List<CpuJitter> ranked = Ranking.rank(List.of(row(0, 9, 9, 9, 9), row(1, 0, 0, 0, 1), row(2, 1, 0, 0, 1)));
        assertEquals("1", Quiet.quietest(ranked, 1, 4).toList());
        assertEquals("1-2", Quiet.quietest(ranked, 2, 4).toList());
    }
}
