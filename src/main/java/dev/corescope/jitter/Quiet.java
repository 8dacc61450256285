package dev.corescope.jitter;

import dev.corescope.cpumask.CpuMask;

import java.util.List;
import java.util.function.Consumer;

/**
 * The {@code quiet} placement: measure the candidate CPUs briefly and take the quietest.
 * What {@code --cpus quiet} and the library's CPU choice call.
 */
public final class Quiet {

    /** The window per CPU when choosing: short, so {@code --cpus quiet} costs about a second on 2 CPUs. */
    public static final double CHOOSE_SECONDS = 0.5;

    /** A choice and the run it came from. */
    public record Choice(CpuMask cpus, JitterReport evidence) {
    }

    private Quiet() {
    }

    /**
     * The {@code n} quietest of {@code candidates}, measured in turn for {@link #CHOOSE_SECONDS}
     * each (together, by core, on big machines).
     *
     * @throws IllegalArgumentException when {@code n} is below 1 or above the number of candidates
     */
    public static Choice choose(CpuMask candidates, int n, Consumer<String> progress) throws InterruptedException {
        if (n < 1 || n > candidates.weight()) {
            throw new IllegalArgumentException("quiet:" + n + ": choose between 1 and " + candidates.weight() + " CPUs of " + candidates.toList());
        }
        JitterReport r = new JitterProbe().run(new JitterProbe.Options(candidates, CHOOSE_SECONDS, JitterProbe.Mode.AUTO, null), progress);
        return new Choice(quietest(r.rows(), n, candidates.nbits()), r);
    }

    /** The CPUs of the first {@code n} ranked rows. */
    public static CpuMask quietest(List<CpuJitter> ranked, int n, int nbits) {
        CpuMask.Builder b = CpuMask.builder(nbits);
        ranked.stream().limit(n).forEach(r -> b.set(r.cpu()));
        return b.build();
    }
}
