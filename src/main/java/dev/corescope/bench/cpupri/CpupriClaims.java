package dev.corescope.bench.cpupri;

import dev.corescope.report.Claim;

import java.util.List;
import java.util.Map;

/**
 * Seed 002's claims ("sched/rt: optimize cpupri_vec layout", June 2025), as the report tests
 * them: the mechanism (a count and a mask that share a cache line make the reader of the mask
 * pay for the writer of the count, and the other way round), which two CPUs can show with the
 * {@code mechanism} workload; the contention of many writers, which needs more CPUs; and the
 * system figures, which only the seed's workload on its machine gives.
 */
public final class CpupriClaims {

    static final String SEED = "cpupri_vec layout, June 2025";

    static final String PACKED = "packed";
    static final String ALIGNED = "aligned";

    private CpupriClaims() {
    }

    /** The claims, in the order the verdict lists them. */
    public static List<Claim> all() {
        String f = "cpupri";
        String words = "cpupri_vec->count contends with the reading of mask in the same cache line [...] This change separates "
                + "each count and mask into different cache lines by cache aligned attribute to avoid the false sharing";
        return List.of(
                new Claim("cpupri.mechanism-reader", f, SEED, words,
                        "time of a reader of the mask while a writer updates the count (false sharing)", "ns per call",
                        Claim.Direction.LESS, null, Claim.Scale.ABSOLUTE, "one reader and one writer on two CPUs",
                        Claim.Rows.of(f, "find", PACKED, ALIGNED, "java", "native").where("workload", "mechanism"), null),
                new Claim("cpupri.mechanism-writer", f, SEED, words,
                        "time of a writer of the count while a reader reads the mask (false sharing)", "ns per call",
                        Claim.Direction.LESS, null, Claim.Scale.ABSOLUTE, "one reader and one writer on two CPUs",
                        Claim.Rows.of(f, "set", PACKED, ALIGNED, "java", "native").where("workload", "mechanism"), null),
                new Claim("cpupri.many-writers", f, SEED,
                        "cpupri_vec->count contends with the reading of mask [...] in function cpupri_find_fitness and cpupri_set",
                        "time of __cpupri_find() while many writers update counts", "ns per call", Claim.Direction.LESS, null,
                        Claim.Scale.ABSOLUTE, "many RT writers updating counts while readers scan masks",
                        Claim.Rows.of(f, "find", PACKED, ALIGNED, "java", "native").where("workload", "cpupri")
                                .excluding(null, Map.of("writers", List.of("", "1")),
                                        "one writer: the seed's effect needs many writers updating counts while readers scan "
                                                + "masks, which needs 3 or more CPUs (a reader and 2+ writers); the seed used 480"),
                        null),
                new Claim("cpupri.system", f, SEED,
                        "With the change, the kernel cycles% is reduced from ~20% to ~12%, the fps metric is improved ~11%",
                        "kernel cycles and frames per second of 60 ffmpeg transcodes", "%", Claim.Direction.LESS, 40.0,
                        Claim.Scale.RELATIVE, "2 sockets, 240 cores, 480 CPUs, 60 ffmpeg instances with RT threads",
                        null,
                        "a whole-system figure of the seed's workload on 480 CPUs: this family times cpupri_set() and "
                                + "__cpupri_find() themselves, not a workload's kernel cycles or frames per second"));
    }
}
