package dev.corescope.cli;

import dev.corescope.bench.BenchContext;
import dev.corescope.bench.BenchFamily;
import dev.corescope.bench.FamilyRun;
import dev.corescope.report.Result;
import dev.corescope.sys.Pinning;
import dev.corescope.sys.internal.Affinity;

import java.util.List;
import java.util.Map;

/**
 * Families registered only in tests: one that measures something small for real, one that
 * throws, and one that pins itself and blocks until it is interrupted.
 */
final class TestFamilies {

    private TestFamilies() {
    }

    /**
     * Times {@code Thread.sleep(1)} a few times: real numbers, on whatever CPUs the thread has,
     * or pinned to the CPU it is on when it starts (no move, so no migration from the pinning).
     */
    static class Sleeping implements BenchFamily {
        private final String name;
        private final boolean pinned;

        Sleeping(String name) {
            this(name, false);
        }

        Sleeping(String name, boolean pinned) {
            this.name = name;
            this.pinned = pinned;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public String summary() {
            return "test family: times Thread.sleep(1)";
        }

        @Override
        public FamilyRun run(BenchContext context) throws Exception {
            if (!pinned) return measure(context);
            try (Pinning ignored = Affinity.pin(Affinity.currentCpu())) {
                return measure(context);
            }
        }

        /** What the run printed: the mean of its row in {@code file}. */
        @Override
        public java.util.Optional<String> text(dev.corescope.report.ResultsFile file) {
            return file.results().stream().filter(r -> r.benchmark().equals(name)).findFirst()
                    .map(r -> name + ": mean sleep(1) " + r.score() + " ns\n");
        }

        private FamilyRun measure(BenchContext context) throws Exception {
            int n = 20;
            context.progress().start(name, n);
            double[] ns = new double[n];
            for (int i = 0; i < n; i++) {
                long t0 = System.nanoTime();
                Thread.sleep(1);
                ns[i] = System.nanoTime() - t0;
                context.progress().step("sleep " + (i + 1));
            }
            double mean = java.util.Arrays.stream(ns).average().orElseThrow();
            Result r = Result.builder().benchmark(name).variant("sleep_1ms").implementation("java").metric("sleep").unit("ns/op")
                    .score(mean).error(null).samples(n).cpus(Affinity.allowed().toList()).params(Map.of("millis", 1)).build();
            return new FamilyRun(name, List.of(r), null);
        }
    }

    static final class Failing implements BenchFamily {
        @Override
        public String name() {
            return "failing";
        }

        @Override
        public String summary() {
            return "test family: always throws";
        }

        @Override
        public FamilyRun run(BenchContext context) {
            throw new IllegalStateException("boom: this test family fails on purpose");
        }
    }

    /**
     * Pins its thread to one CPU and a helper thread to the same CPU, says so on stderr, then
     * waits until interrupted; its {@code finally} stops the helper, unpins and reports the mask.
     */
    static final class Blocking implements BenchFamily {
        @Override
        public String name() {
            return "blocking";
        }

        @Override
        public String summary() {
            return "test family: blocks until interrupted";
        }

        @Override
        public FamilyRun run(BenchContext context) throws Exception {
            int cpu = Affinity.processAllowed().first();
            String before = Affinity.allowed().toList();
            Thread helper = new Thread(() -> {
                try (Pinning ignored = Affinity.pin(cpu)) {
                    Thread.sleep(Long.MAX_VALUE);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "blocking-helper");
            try (Pinning ignored = Affinity.pin(cpu)) {
                helper.start();
                System.err.println("blocking: started, pinned to CPU " + cpu);
                System.err.flush();
                Thread.sleep(Long.MAX_VALUE);
                throw new AssertionError("unreachable");
            } finally {
                // what JMH's host relays from a forked JVM that Ctrl-C reached too: its stack trace, on stdout
                System.out.println("java.lang.InterruptedException: the fork was interrupted");
                System.out.println("\tat org.openjdk.jmh.runner.ForkedMain.main(ForkedMain.java:86)");
                System.out.flush();
                helper.interrupt();
                helper.join();
                System.err.println("blocking: helper stopped=" + !helper.isAlive() + ", affinity restored="
                        + Affinity.allowed().toList().equals(before));
                System.err.flush();
            }
        }
    }
}
