package dev.corescope.bench.locks;

import dev.corescope.report.Claim;

import java.util.List;
import java.util.Map;

/**
 * Seed 004's claim (Jesper Dangaard Brouer's measurements in "Re: [PATCH 2/3] slub: Support for
 * array operations", February 2015), as the report tests it: {@code spin_lock_irqsave()} costs
 * 8.3 ns more than {@code spin_lock()}. User space cannot mask interrupts; a stand-in that runs
 * what {@code local_irq_save()}/{@code local_irq_restore()} run in ring 3 ({@code pushf; pop} ...
 * {@code push; popf}, without the {@code cli} that faults there) measures it, where the run has
 * one; {@code pthread_sigmask} (two system calls) is another stand-in, not the seed's.
 */
public final class LocksClaims {

    static final String SEED = "slub irqsave measurements, February 2015";

    /** The param naming the irqsave stand-in of a row, where a run has more than one. */
    static final String STAND_IN = "standIn";
    /** The stand-in that runs what local_irq_save()/restore() run in ring 3, without cli/sti. */
    static final String PUSHF_POPF = "pushf_popf";

    private LocksClaims() {
    }

    /** The claims, in the order the verdict lists them. */
    public static List<Claim> all() {
        String f = "locks";
        double seed = Variant.SPIN_LOCK_IRQSAVE.seedNs() - Variant.SPIN_LOCK_UNLOCK.seedNs();
        return List.of(new Claim("locks.irqsave-cost", f, SEED,
                "The clean spin_lock_unlock is 8.324 ns faster than irqsave variant (12.775 vs 21.099 ns)",
                "time of spin_lock_irqsave() + unlock over spin_lock() + unlock", "ns per call", Claim.Direction.MORE,
                Math.round(seed * 1000) / 1000.0, Claim.Scale.ABSOLUTE,
                "i7-2620M @ 2.70GHz, kernel 3.17.8-200.fc20, time_bench_sample.c in kernel context",
                Claim.Rows.of(f, "op", Variant.SPIN_LOCK_UNLOCK.contractName(), Variant.SPIN_LOCK_IRQSAVE.contractName(), "native", "java")
                        .approachOnly(STAND_IN, PUSHF_POPF, "", "pthread_sigmask")
                        .excluding(null, Map.of(STAND_IN, List.of("", "pthread_sigmask")),
                                "the stand-in is pthread_sigmask, two system calls where the kernel runs a few instructions: "
                                        + "its cost is the stand-in's, not local_irq_save()'s")
                        .excluding("java", Map.of(STAND_IN, List.of(PUSHF_POPF)),
                                "Java runs pushf/popf through two downcalls per element, so the row adds the downcalls' cost "
                                        + "to what the kernel runs (see the function_call downcall rows)"),
                null));
    }
}
