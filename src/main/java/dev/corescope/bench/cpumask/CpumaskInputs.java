package dev.corescope.bench.cpumask;

import dev.corescope.cpumask.CpuMask;

import java.util.Locale;

/**
 * The mask and the CPUs one {@code bench cpumask} configuration looks up, shared by the Java
 * benchmark, the C twin and the tests so all three see the same inputs.
 *
 * <p>The seed copied {@code cpu_online_mask} and asked {@code cpumask_any_but(mask,
 * random % nr_cpu_ids)}. Here:
 * <ul>
 *   <li>{@code range} is the seed's {@code nr_cpu_ids}: this machine's, capped at
 *       {@code nrCpus} (a kernel built for NR_CPUS=64 has no CPU 64);</li>
 *   <li>{@link MaskKind#ALLOWED}: the allowed CPUs ({@code sched_getaffinity}) in a mask of
 *       {@code nrCpus} bits, CPUs drawn from {@code 0 .. range-1} ({@code offset} 0);</li>
 *   <li>{@link MaskKind#HIGH}: the same CPUs and the same draws moved up by
 *       {@code offset = nrCpus - range}, so the set CPUs are the top ones (CPUs 62-63 and
 *       4094-4095 on a 2-CPU machine): every lookup first skips {@code offset / 64} empty
 *       words, and the answers line up one-to-one with the ALLOWED case.</li>
 * </ul>
 *
 * @param offset added to every CPU drawn
 * @param range  CPUs are drawn as {@code offset + random % range}
 * @param cpus   {@link #PRECOMPUTED} draws of that formula, for {@link InputKind#PRECOMPUTED}
 */
public record CpumaskInputs(int nrCpus, MaskKind maskKind, InputKind inputKind, CpuMask mask, int offset, int range,
                            int[] cpus) {

    /** Precomputed draws: a power of two, so the index wraps with a mask. */
    public static final int PRECOMPUTED = 1024;

    /** The generator's seed for both the precomputed draws and the in-loop ones. */
    public static final long SEED = 0x9E3779B97F4A7C15L;

    /** Which mask. */
    public enum MaskKind {
        ALLOWED, HIGH;

        public String param() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static MaskKind of(String param) {
            return valueOf(param.toUpperCase(Locale.ROOT));
        }
    }

    /** How each call gets its CPU. */
    public enum InputKind {
        /** the seed's: a fresh random CPU drawn inside the timed loop (the RNG is timed too) */
        RANDOM,
        /** the same formula drawn before timing; the loop reads them from an array */
        PRECOMPUTED;

        public String param() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static InputKind of(String param) {
            return valueOf(param.toUpperCase(Locale.ROOT));
        }
    }

    /**
     * The inputs for one configuration.
     *
     * @param allowed  the allowed CPUs (any nbits)
     * @param nrCpuIds this machine's {@code nr_cpu_ids}
     */
    public static CpumaskInputs of(int nrCpus, MaskKind maskKind, InputKind inputKind, CpuMask allowed, int nrCpuIds) {
        if (nrCpus < 1) throw new IllegalArgumentException("nrCpus must be positive, not " + nrCpus);
        int range = Math.max(1, Math.min(nrCpuIds, nrCpus));
        int offset = maskKind == MaskKind.HIGH ? nrCpus - range : 0;
        CpuMask.Builder b = CpuMask.builder(nrCpus);
        allowed.forEachCpu(cpu -> {
            if (cpu < range) b.set(cpu + offset);
        });
        int[] cpus = new int[PRECOMPUTED];
        long state = SEED;
        for (int i = 0; i < cpus.length; i++) {
            state = Xorshift.step(state);
            cpus[i] = offset + Integer.remainderUnsigned(Xorshift.output(state), range);
        }
        return new CpumaskInputs(nrCpus, maskKind, inputKind, b.build(), offset, range, cpus);
    }

    /** The mask, in words, as the text report names it: e.g. {@code 62-63 of 64 bits}. */
    public String describeMask() {
        return (mask.isEmpty() ? "(empty)" : mask.toList()) + " of " + nrCpus + " bits";
    }

    /**
     * xorshift64* (Vigna, 2016): a fast generator whose top 32 bits are good enough to pick a
     * CPU. The C twin has the same one, so both draw the same CPUs. It costs about a
     * nanosecond; the seed's {@code get_random_bytes()} is a CSPRNG costing far more.
     */
    public static final class Xorshift {
        private static final long MULTIPLIER = 0x2545F4914F6CDD1DL;

        private Xorshift() {
        }

        /** The next state. */
        public static long step(long x) {
            x ^= x >>> 12;
            x ^= x << 25;
            x ^= x >>> 27;
            return x;
        }

        /** The 32-bit output of a state, as an unsigned value in an int. */
        public static int output(long state) {
            return (int) ((state * MULTIPLIER) >>> 32);
        }
    }
}
