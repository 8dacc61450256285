package dev.corescope.bench.cpupri;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.sys.Affinity;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Where the cpupri and c2c benchmarks pin their threads: a named placement (two CPUs the
 * topology relates: {@code smt}, {@code same-l3}, {@code cross-l3}, {@code cross-package},
 * {@code any}) or the CPUs the user gave with {@code --cpus}; and the cache line size.
 *
 * <p>This is the seam to {@code dev.corescope.topology} ({@code Placements},
 * {@code Topology.cacheLineSize()}): until that package is on main only {@code any} (the
 * first two usable CPUs) is offered and the line size comes from sysfs directly.
 */
public final class CpuChoice {

    /** The placement names, nearest first. */
    public static final List<String> PLACEMENTS = List.of("smt", "same-l3", "cross-l3", "cross-package", "any");

    private static final Path LINE_SIZE = Path.of("/sys/devices/system/cpu/cpu0/cache/index0/coherency_line_size");

    /** The line size used when sysfs has none (x86-64 and most arm64). */
    public static final int DEFAULT_LINE_SIZE = 64;

    private CpuChoice() {
    }

    /** Two CPUs the topology relates as {@code name}; {@code from} runs the first thread. */
    public record Pair(String placement, int from, int to, String description) {
    }

    /**
     * The pair for {@code placement} among {@code usable}, or empty when the machine has no such
     * pair (no SMT, one L3, one package) or fewer than two usable CPUs.
     */
    public static Optional<Pair> pair(String placement, CpuMask usable) {
        if (!PLACEMENTS.contains(placement)) {
            throw new IllegalArgumentException("placement " + placement + ": one of " + String.join(", ", PLACEMENTS));
        }
        if (usable.weight() < 2) return Optional.empty();
        if (!placement.equals("any")) return Optional.empty();
        int a = usable.first();
        int b = usable.next(a);
        return Optional.of(new Pair("any", a, b, "the first two usable CPUs"));
    }

    /** The placements the machine offers among {@code usable}, nearest first. */
    public static List<Pair> all(CpuMask usable) {
        return PLACEMENTS.stream().map(p -> pair(p, usable)).flatMap(Optional::stream).toList();
    }

    /** The CPUs a benchmark may use: {@code --cpus} if given, else the process's allowed set. */
    public static CpuMask usable(Optional<CpuMask> cpus) {
        return cpus.orElseGet(Affinity::processAllowed);
    }

    /** The coherency line size of CPU 0's first cache, from sysfs. */
    public static Optional<Integer> lineSize() {
        try {
            int v = Integer.parseInt(Files.readString(LINE_SIZE).strip());
            return v > 0 && Integer.bitCount(v) == 1 ? Optional.of(v) : Optional.empty();
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }
}
