package dev.corescope.cli;

import dev.corescope.bench.BenchFamily;

import java.util.List;

/** The benchmark families {@code bench} and the tour know, in the order the tour runs them. */
final class Families {

    private Families() {
    }

    static List<BenchFamily> all() {
        return List.of(
                new dev.corescope.bench.cpumask.CpumaskFamily(),
                new dev.corescope.bench.timerbase.TimerbaseFamily(),
                new dev.corescope.bench.cpupri.CpupriFamily(),
                new dev.corescope.bench.c2c.C2cFamily(),
                new dev.corescope.bench.locks.LocksFamily()
        );
    }

    static String names() {
        return String.join(", ", all().stream().map(BenchFamily::name).toList());
    }
}
