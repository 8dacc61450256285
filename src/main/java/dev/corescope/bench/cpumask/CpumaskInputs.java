package dev.corescope.bench.cpumask;

import dev.corescope.cpumask.CpuMask;

import java.util.Locale;

/**
 * The mask and the CPUs one {@code bench cpumask} configuration looks up, shared by the Java
 * benchmark, the C twin and the tests so all three see the same inputs.
 *
 * <p>The seed copied {@code cpu_online_mask} on a 16-CPU machine and asked
 * {@code cpumask_any_but(mask, get_random_bytes() % nr_cpu_ids)}, the CPU drawn inside the
 * timed loop. Here:
 * <ul>
 *   <li>{@code online} is how many CPUs are online: {@value #SEED_ONLINE} (the seed's: CPUs
 *       0-15, {@code nr_cpu_ids} 16), or {@code host}: this machine's allowed CPUs
 *       ({@code sched_getaffinity}), {@code nr_cpu_ids} this machine's; either capped at
 *       {@code nrCpus} (a kernel built for NR_CPUS=64 has no CPU 64);</li>
 *   <li>{@code range} is that {@code nr_cpu_ids}: every call excludes CPU
 *       {@code offset + random % range}, so with 16 CPUs online the excluded CPU is the first
 *       set one 1 time in 16, as on the seed's machine (1 in 2 on a 2-CPU machine);</li>
 *   <li>{@link MaskKind#ONLINE}: the online CPUs at their numbers ({@code offset} 0);</li>
 *   <li>{@link MaskKind#HIGH}: a synthetic worst case no machine has: the same CPUs and the
 *       same draws moved up by {@code offset = nrCpus - range}, so the set CPUs are the top
 *       ones and every lookup first skips {@code offset / 64} empty words.</li>
 * </ul>
 * The draws come from a generator inside the timed loop ({@link Xorshift}, the same in Java
 * and C), never from a replayed table: a short periodic sequence is one the branch predictor
 * learns, which the seed's CSPRNG was not.
 *
 * @param online    {@value #SEED_ONLINE} or {@code host}, as the {@code online} parameter says
 * @param offset    added to every CPU drawn
 * @param range     CPUs are drawn as {@code offset + random % range}
 */
public record CpumaskInputs(int nrCpus, MaskKind maskKind, String online, CpuMask mask, int offset, int range) {

    /** The seed's machine: a Ryzen 7 5700X3D, 8 cores, 16 CPUs online. */
    public static final int SEED_ONLINE = 16;
    /** The {@code online} value for this machine's CPUs. */
    public static final String HOST = "host";

    /** The generator's seed for the in-loop draws. */
    public static final long SEED = 0x9E3779B97F4A7C15L;

    /** Which mask. */
    public enum MaskKind {
        /** the online CPUs at their numbers, as {@code cpu_online_mask} */
        ONLINE,
        /** synthetic worst case: the online CPUs moved to the top bits (no machine has this mask) */
        HIGH;

        public String param() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static MaskKind of(String param) {
            return valueOf(param.toUpperCase(Locale.ROOT));
        }
    }

    /**
     * The inputs for one configuration.
     *
     * @param online   {@value #SEED_ONLINE}, any positive count, or {@value #HOST}
     * @param allowed  the allowed CPUs (any nbits), used for {@value #HOST}
     * @param nrCpuIds this machine's {@code nr_cpu_ids}, used for {@value #HOST}
     */
    public static CpumaskInputs of(int nrCpus, MaskKind maskKind, String online, CpuMask allowed, int nrCpuIds) {
        if (nrCpus < 1) throw new IllegalArgumentException("nrCpus must be positive, not " + nrCpus);
        boolean host = HOST.equals(online);
        int count = host ? nrCpuIds : onlineCount(online);
        int range = Math.max(1, Math.min(count, nrCpus));
        int offset = maskKind == MaskKind.HIGH ? nrCpus - range : 0;
        CpuMask.Builder b = CpuMask.builder(nrCpus);
        if (host) {
            allowed.forEachCpu(cpu -> {
                if (cpu < range) b.set(cpu + offset);
            });
        } else {
            for (int cpu = 0; cpu < range; cpu++) b.set(cpu + offset);
        }
        return new CpumaskInputs(nrCpus, maskKind, online, b.build(), offset, range);
    }

    /** A count of online CPUs from the {@code online} parameter, or an IllegalArgumentException. */
    static int onlineCount(String online) {
        try {
            int n = Integer.parseInt(online);
            if (n >= 1) return n;
        } catch (NumberFormatException e) {
            // below
        }
        throw new IllegalArgumentException("online must be a positive count or " + HOST + ", not " + online);
    }

    /**
     * The {@code nr_cpu_ids} the out-of-line searches of the NR_CPUS=4096 C twins stop at: the
     * online CPUs' count for {@link MaskKind#ONLINE} (a kernel built for NR_CPUS=4096 on a
     * machine with that many CPUs), every bit for {@link MaskKind#HIGH}.
     */
    public int nrCpuIds() {
        return offset + range;
    }

    /** The CPU excluded by the call that follows generator state {@code state}. */
    public int draw(long state) {
        return offset + Integer.remainderUnsigned(Xorshift.output(state), range);
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
