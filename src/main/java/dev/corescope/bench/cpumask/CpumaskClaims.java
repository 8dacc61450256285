package dev.corescope.bench.cpumask;

import dev.corescope.report.Claim;
import dev.corescope.report.Result;
import dev.corescope.report.ResultsFile;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Seed 000's claims (RFC PATCH 1/2 "cpumask: Introduce cpumask_first_but()", June 2025), as the
 * report tests them: the code size bloat-o-meter measured over the callers
 * {@code cpumask_any_but()} is inlined into, at NR_CPUS=64 and 4096, and the time per call its
 * kernel module measured. The mail says it ran the test "10000 times"; its code loops 100000
 * times ({@link CpumaskFamily#SEED_CALLS}), so the 119713 ns saved are about 1.2 ns per call of
 * a ~197 ns iteration ({@code get_random_bytes()} plus {@code cpumask_any_but()}): an absolute
 * claim, tested in ns, not the 0.6% of an iteration this family does not time.
 */
public final class CpumaskClaims {

    static final String SEED = "cpumask_first_but(), June 2025";

    /** The seed's saving per call, ns: (19665287 - 19545574) / 100000. */
    static final double SEED_NS_PER_CALL = (double) (CpumaskFamily.SEED_BEFORE_NS - CpumaskFamily.SEED_AFTER_NS) / CpumaskFamily.SEED_CALLS;
    /** The seed's time per loop iteration before the patch, ns. */
    static final double SEED_NS_PER_ITERATION = (double) CpumaskFamily.SEED_BEFORE_NS / CpumaskFamily.SEED_CALLS;

    static final String SIZE_CONDITIONS = "x86_64 vmlinux, bloat-o-meter's total over the callers cpumask_any_but() is inlined into";

    /** The share of its own gross within which a net counts as no net change (the seed's -2 is 0.7% of its 274). */
    static final double NET_SHARE_OF_GROSS = 0.10;

    /** One row of the seed's bloat-o-meter table: a function's size in vmlinux before and after the patch. */
    record SeedSize(int nrCpus, String function, long oldBytes, long newBytes) {
        long delta() {
            return newBytes - oldBytes;
        }
    }

    /** The seed's bloat-o-meter tables, as its mail prints them. */
    static final List<SeedSize> SEED_SIZES = List.of(
            new SeedSize(64, "irq_migrate_all_off_this_cpu", 716, 745), new SeedSize(64, "try_to_unmap_one", 3380, 3391),
            new SeedSize(64, "try_to_migrate_one", 2451, 2457), new SeedSize(64, "uncore_event_cpu_offline", 343, 342),
            new SeedSize(64, "calibrate_delay_is_known", 236, 235), new SeedSize(64, "tsc_store_and_check_tsc_adjust", 506, 495),
            new SeedSize(64, "arch_tlbbatch_flush", 302, 288), new SeedSize(64, "tmigr_cpu_offline", 406, 382),
            new SeedSize(64, "perf_event_exit_cpu_context", 592, 565), new SeedSize(64, "flush_tlb_mm_range", 1561, 1515),
            new SeedSize(4096, "uncore_event_cpu_offline", 291, 333), new SeedSize(4096, "try_to_migrate_one", 2378, 2413),
            new SeedSize(4096, "flush_tlb_mm_range", 1476, 1503), new SeedSize(4096, "irq_migrate_all_off_this_cpu", 741, 754),
            new SeedSize(4096, "tmigr_cpu_offline", 353, 362), new SeedSize(4096, "calibrate_delay_is_known", 183, 192),
            new SeedSize(4096, "arch_tlbbatch_flush", 296, 297), new SeedSize(4096, "tsc_store_and_check_tsc_adjust", 484, 482),
            new SeedSize(4096, "perf_event_exit_cpu_context", 546, 528), new SeedSize(4096, "try_to_unmap_one", 3560, 3442));

    /**
     * A Java row votes only where the family's split ("where a Java gap comes from") puts at least
     * this share of the gap in the patch's change of calls, in the gap's direction.
     */
    static final double CALLS_SHARE = 0.5;

    private CpumaskClaims() {
    }

    /** The claims, in the order the verdict lists them. */
    public static List<Claim> all() {
        String f = "cpumask";
        return List.of(
                new Claim("cpumask.code-size-64", f, SEED,
                        "for NR_CPUS=64, it reduce 78 bytes in total", "code size over the callers at NR_CPUS=64", "bytes",
                        Claim.Direction.LESS, 78.0, Claim.Scale.ABSOLUTE, SIZE_CONDITIONS + ": 23390770 -> 23390692 bytes, "
                        + "+46/-124 over ten functions; here the ten modelled, summed per build of the matrix",
                        codeSizeRows("64", null), null),
                new Claim("cpumask.code-size-4096", f, SEED,
                        "for NR_CPUS=4096, it reduce 2 bytes in total", "code size over the callers at NR_CPUS=4096", "bytes",
                        Claim.Direction.NONE, null, Claim.Scale.ABSOLUTE, SIZE_CONDITIONS + ": 23448698 -> 23448696 bytes, the net "
                        + "of +136/-138 over ten functions (per function +42 .. -118): no net change, tested as a net within "
                        + Math.round(100 * NET_SHARE_OF_GROSS) + "% of its own gross, per build of the matrix",
                        codeSizeRows("4096", NET_SHARE_OF_GROSS), null),
                new Claim("cpumask.time-per-call", f, SEED,
                        "the origin implementation of cpumask_any_but() use 19665287 nanoseconds in total, the new version "
                                + "of it [...] uses 19545574 nanoseconds",
                        "time per cpumask_any_but() call", "ns per call", Claim.Direction.LESS,
                        round(SEED_NS_PER_CALL), Claim.Scale.ABSOLUTE,
                        String.format(Locale.ROOT, "AMD Ryzen 7 5700X3D, 16 CPUs online, kernel v6.14, a kernel module timing "
                                + "%d calls (the mail says 10000; its loop runs %d) of get_random_bytes() + cpumask_any_but(): "
                                + "%.1f ns per iteration, 0.6%% of it", CpumaskFamily.SEED_CALLS, CpumaskFamily.SEED_CALLS,
                                SEED_NS_PER_ITERATION),
                        Claim.Rows.of(f, "op", CpumaskFamily.BASELINE, CpumaskFamily.APPROACH, "java", "native")
                                .excluding(null, Map.of("mask", List.of("high")),
                                        "mask=high is a synthetic worst case (the CPUs in the top bits of 4096), no machine's mask")
                                .excluding(null, Map.of("input", List.of("precomputed")),
                                        "input=precomputed replays a short sequence the branch predictor learns")
                                .excluding(null, Map.of("online", List.of("host")),
                                        "online=host is this machine's CPU count, not the seed's 16")
                                .disowned(CpumaskClaims::disownedBySplit),
                        null));
    }

    private static Claim.Rows codeSizeRows(String nrCpus, Double netShareOfGross) {
        return Claim.Rows.of("cpumask", CpumaskFamily.CODE_SIZE, CpumaskFamily.BASELINE, CpumaskFamily.APPROACH, "native")
                .where("nrCpus", nrCpus).matrix("function", "build", netShareOfGross);
    }

    private static double round(double ns) {
        return Math.round(ns * 100) / 100.0;
    }

    /**
     * The Java rows the family's own split disowns: where the patch's change of calls
     * ({@link CpumaskFamily#LOOP_FIRST} against the loop) carries less than {@link #CALLS_SHARE}
     * of the gap, or goes the other way, the gap is the loop shape C2 compiled, not the patch.
     */
    static List<Claim.Excluded> disownedBySplit(ResultsFile file) {
        Map<String, Map<String, Result>> byParams = new HashMap<>();
        for (Result r : file.results()) {
            if (!r.benchmark().equals("cpumask") || !r.implementation().equals("java") || !r.metric().equals("op")) continue;
            byParams.computeIfAbsent(new TreeMap<>(r.params()).toString(), k -> new HashMap<>()).put(r.variant(), r);
        }
        List<Claim.Excluded> out = new ArrayList<>();
        for (Map<String, Result> v : byParams.values()) {
            Result loop = v.get(CpumaskFamily.BASELINE), first = v.get(CpumaskFamily.LOOP_FIRST), but = v.get(CpumaskFamily.APPROACH);
            if (loop == null || first == null || but == null) continue;
            double total = but.score() - loop.score(), calls = first.score() - loop.score(), shape = but.score() - first.score();
            if (total != 0 && Math.signum(calls) == Math.signum(total) && Math.abs(calls) >= CALLS_SHARE * Math.abs(total)) continue;
            Map<String, List<String>> where = new HashMap<>();
            but.params().forEach((k, x) -> where.put(k, List.of(String.valueOf(x))));
            out.add(new Claim.Excluded("java", where, String.format(Locale.ROOT,
                    "Java: the family's split puts the gap in the loop shape (calls %+.2f ns, shape %+.2f ns of %+.2f ns): "
                            + "how C2 compiles the loop, not the patch's change of calls", calls, shape, total)));
        }
        return out;
    }
}
