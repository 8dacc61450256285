package dev.corescope.examples;

import dev.corescope.affinity.*;
import dev.corescope.cpumask.CpuMask;
import dev.corescope.sys.Pinning;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * docs/library.md's "Use it from your code" lines, as they are there (between the two marks
 * below; LibraryDocsTest checks the docs and this file agree), run by examples/run.sh on the
 * class path and with the library on the module path.
 */
public final class UseFromYourCode {

    private UseFromYourCode() {
    }

    public static void main(String[] args) throws Exception {
        // --- docs/library.md: use it from your code ---
        CpuMask mine = ThreadAffinity.allowed();                        // the CPUs this thread may use, e.g. 0-3
        try (Pinning p = ThreadAffinity.pin(mine.first())) {            // this thread on the first of them only
            System.out.println("on CPU " + ThreadAffinity.currentCpu() + " of " + CpuMask.parse("0-1").and(mine));
        }                                                               // back on its CPUs from before
        Reservations machine = Reservations.shared();                  // every corescope user on this machine
        try (Reservation core = machine.reserveWholeCore();             // a free core, every SMT sibling of it
             Pinning pinned = core.pin()) {                             // this thread runs there now
            System.out.println("on CPU " + ThreadAffinity.currentCpu() + " of " + core.cpus().toList());
            runTheLatencyCriticalLoop();
        }                                                               // unpinned, then released
        ExecutorService pool = Executors.newFixedThreadPool(2,          // each thread on a CPU of its own,
                new PinningThreadFactory("feed", CpuStrategy.SAME_L3, CpuStrategy.ANY)); // on one L3 if free
        System.out.print(machine.dump());                               // who holds what (also: corescope reservations)
        // --- end ---
        pool.submit(() -> System.out.println("pool thread on CPU " + ThreadAffinity.currentCpu())).get();
        pool.shutdown();
        if (!pool.awaitTermination(10, TimeUnit.SECONDS)) throw new IllegalStateException("the pool did not end");
    }

    private static void runTheLatencyCriticalLoop() {
        long sum = 0;
        for (int i = 0; i < 1_000_000; i++) sum += i;
        if (sum < 0) throw new AssertionError();
    }
}
