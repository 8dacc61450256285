package dev.corescope.bench.timerbase;

import dev.corescope.report.Claim;

import java.util.List;

/**
 * Seed 001's claims ("timers: Optimize get_timer_cpu_base() to reduce potentially redundant
 * per_cpu_ptr() calls", December 2024), as the report tests them: fewer instructions on the
 * deferrable path of {@code lock_timer_base()}'s loop, the direction of the per-call change it
 * implies, and the latency histograms it showed, which only kernel context can reproduce.
 */
public final class TimerbaseClaims {

    static final String SEED = "get_timer_cpu_base(), December 2024";

    /**
     * The metric of the instructions a timer's lookup executes from the entry of
     * {@code lock_timer_base()} up to the lock call, counted from the C twins' machine code along
     * the path a deferrable (params {@code path=deferrable}) or a global timer takes (an exact count).
     */
    static final String PATH_METRIC = "pathInstructions";

    private TimerbaseClaims() {
    }

    /** The claims, in the order the verdict lists them. */
    public static List<Claim> all() {
        String f = "timerbase";
        return List.of(
                new Claim("timerbase.deferrable-path", f, SEED,
                        "With the patch, assembly code (on x86 and ARM64) to be executed in loop is reduced",
                        "instructions on the deferrable path of lock_timer_base()'s loop", "instructions", Claim.Direction.LESS,
                        null, Claim.Scale.ABSOLUTE, "x86 and ARM64 kernel builds, NO_HZ_COMMON, a deferrable timer",
                        Claim.Rows.of(f, PATH_METRIC, TimerbaseFamily.BEFORE, TimerbaseFamily.AFTER, "native")
                                .where("path", "deferrable"), null),
                new Claim("timerbase.time-per-call", f, SEED,
                        "the distribution of runtime tends to favor smaller time intervals",
                        "time per timer-base lookup (the direction of the seed's shift)", "ns per call", Claim.Direction.LESS,
                        null, Claim.Scale.ABSOLUTE, "the direction only: here the modelled lookup in user space, not the seed's "
                        + "kernel call",
                        Claim.Rows.of(f, "op", TimerbaseFamily.BEFORE, TimerbaseFamily.AFTER, "java", "native"),
                        null),
                new Claim("timerbase.latency-histogram", f, SEED,
                        "[100-119]: 5262 [120-139]: 4510 before; [20-39]: 1014 ... [100-119]: 3268 after (13031 and 13156 calls)",
                        "latency of lock_timer_base() calls in the kernel", "ns per call", Claim.Direction.LESS,
                        null, Claim.Scale.ABSOLUTE, "x86 KVM guest, calls timed in kernel context over 12 s",
                        null,
                        "the seed timed whole calls in kernel context on a KVM guest: its 100-139 ns include its timing "
                                + "overhead and what the kernel did around the call; here the modelled lookup runs in user space "
                                + "at a few ns per call, so no row measures the seed's latencies (the family's histogram shows "
                                + "this machine's beside the seed's)"));
    }
}
