package dev.corescope.topology;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.cpumask.CpuListParser;
import dev.corescope.cpumask.CpuMaskFormatException;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;

/**
 * The CPUs a {@code --cpus} value names, as one parser for the command line and the library's
 * strategies: comma-separated parts, each a CPU list region of the kernel's syntax
 * ({@code 3}, {@code 0-3}, {@code 0-31:1/4}), taskset's stride ({@code 0-10:2}, every second
 * CPU), or a selector of the topology:
 *
 * <ul>
 * <li>{@code node:N}: NUMA node N's CPUs (numactl's {@code --cpunodebind});</li>
 * <li>{@code package:N}: the package whose {@code physical_package_id} is N;</li>
 * <li>{@code core:N}: the Nth core (from 0, in package order, as lstopo's logical index):
 *     all its hardware threads;</li>
 * <li>{@code l3:N}: the CPUs of the Nth L3 (refused where the machine tells no caches);</li>
 * <li>{@code kind:performance} / {@code kind:efficiency}: the biggest / the other core kinds of
 *     a hybrid machine (hybrid PMU, {@code cpu_capacity}, else the maximum frequency).</li>
 * </ul>
 *
 * N may itself be a list ({@code node:0-1}). The whole value may instead be taskset's hex
 * mask ({@code 0x3}) or the kernel's hex cpumap ({@code ff,00000000} with a {@code 0x}).
 * The result is the union; {@code node:0,5} is node 0's CPUs and CPU 5.
 *
 * <pre>{@code
 * Topology t = Topology.live();
 * CpuMask perf = CpuSelector.select("kind:performance", t);
 * }</pre>
 */
public final class CpuSelector {

    /** The selector words, in the order the help names them. */
    public static final List<String> WORDS = List.of("node", "package", "core", "l3", "kind");

    private CpuSelector() {
    }

    /**
     * The CPUs {@code text} names on {@code t}.
     *
     * @param text a list, stride, hex mask or selectors, as above
     * @param t the machine the selectors read
     * @return a mask of at least {@code t.nbits()} bits (wider when the list names a higher CPU)
     * @throws IllegalArgumentException with a one-line reason naming the bad part
     */
    public static CpuMask select(String text, Topology t) {
        int nbits = Math.max(t.nbits(), 1);
        String s = text.strip();
        if (s.regionMatches(true, 0, "0x", 0, 2)) return list(s, nbits);
        CpuMask out = CpuMask.empty(nbits);
        StringBuilder regions = new StringBuilder();
        for (String part : s.split(",")) {
            String p = part.strip();
            int colon = p.indexOf(':');
            String word = colon > 0 ? p.substring(0, colon).toLowerCase(Locale.ROOT) : "";
            if (word.matches("[a-z][a-z0-9]*") && !word.equals("all")) {
                try {
                    out = union(out, selector(word, p.substring(colon + 1), t, nbits));
                } catch (IllegalArgumentException e) {
                    throw p.equals(s) ? e : new IllegalArgumentException(p + ": " + e.getMessage(), e);
                }
            } else if (!p.isEmpty()) {
                regions.append(regions.isEmpty() ? "" : ",").append(p);
            }
        }
        if (!regions.isEmpty()) out = union(out, list(regions.toString(), nbits));
        else if (out.isEmpty() && s.isEmpty()) throw new IllegalArgumentException("the set is empty");
        return out;
    }

    /**
     * A CPU list without selectors: the kernel's cpulist with taskset's stride, or a hex mask
     * ({@code 0x} first); for callers without a topology.
     *
     * @param text the list or mask
     * @param nbits the least bit count of the result (it grows to hold the highest CPU named)
     * @return the CPUs
     * @throws IllegalArgumentException with a one-line reason
     */
    public static CpuMask list(String text, int nbits) {
        String s = text.strip();
        if (s.isEmpty()) throw new IllegalArgumentException("the set is empty");
        if (s.regionMatches(true, 0, "0x", 0, 2)) {
            String hex = s.substring(2);
            if (hex.isEmpty()) throw new IllegalArgumentException("hex mask " + s + ": no digits after 0x");
            int width = Math.max(nbits, 32 * Math.max(1, CpuListParser.hexChunks(hex)));
            try {
                return CpuMask.parseHex(hex, width);
            } catch (CpuMaskFormatException e) {
                throw new IllegalArgumentException("hex mask " + s + ": " + e.getMessage());
            }
        }
        StringBuilder kernel = new StringBuilder();
        for (String region : s.split(",")) kernel.append(kernel.isEmpty() ? "" : ",").append(stride(region.strip()));
        CpuMask m = CpuMask.parseList(kernel.toString(), Math.max(nbits, 1 << 16));
        return m.resize(Math.max(nbits, m.isEmpty() ? 0 : m.last() + 1));
    }

    private static CpuMask union(CpuMask a, CpuMask b) {
        int n = Math.max(a.nbits(), b.nbits());
        return a.resize(n).or(b.resize(n));
    }

    /** taskset's {@code a-b:s} (every s-th CPU) as the kernel's {@code a-b:1/s}; anything else unchanged. */
    static String stride(String region) {
        return region.matches("\\d+-\\d+:\\d+") ? region.replace(":", ":1/") : region;
    }

    private static CpuMask selector(String word, String arg, Topology t, int nbits) {
        if (word.equals("kind")) return kind(arg.toLowerCase(Locale.ROOT), t, nbits);
        if (!WORDS.contains(word)) {
            throw new IllegalArgumentException("unknown selector " + word + " (one of " + String.join(", ", WORDS.stream().map(w -> w + ":").toList()) + ")");
        }
        int[] ids;
        try {
            ids = CpuMask.parseList(stride(arg), 1 << 16).toArray();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(word + " takes a number or a list, e.g. " + word + ":0");
        }
        if (ids.length == 0) throw new IllegalArgumentException(word + " takes a number or a list, e.g. " + word + ":0");
        List<CpuMask> found = new ArrayList<>();
        List<Integer> have = new ArrayList<>();
        switch (word) {
            case "node" -> t.numaNodes().forEach(n -> { have.add(n.id()); found.add(n.cpus()); });
            case "package" -> t.packages().forEach(n -> { have.add(n.id()); found.add(n.cpus()); });
            case "core" -> {
                for (int i = 0; i < t.cores().size(); i++) { have.add(i); found.add(t.cores().get(i).cpus()); }
            }
            case "l3" -> {
                List<Cache> l3 = t.caches().stream().filter(c -> c.level() == 3 && c.type() != Cache.Type.INSTRUCTION).toList();
                if (l3.isEmpty()) {
                    throw new IllegalArgumentException("this machine tells no L3 (no cache data"
                            + (t.caches().isEmpty() ? "" : "; its caches go up to L" + t.caches().stream().mapToInt(Cache::level).max().orElse(0)) + ")");
                }
                for (int i = 0; i < l3.size(); i++) { have.add(i); found.add(l3.get(i).cpus()); }
            }
            default -> throw new IllegalStateException(word);
        }
        CpuMask out = CpuMask.empty(nbits);
        for (int id : ids) {
            int i = have.indexOf(id);
            if (i < 0) {
                throw new IllegalArgumentException("no " + word + " " + id + " here ("
                        + (have.isEmpty() ? "the machine tells no " + word + "s" : word + "s " + CpuMask.ofCpus(have.stream().mapToInt(Integer::intValue).toArray()).toList()) + ")");
            }
            out = out.or(found.get(i).resize(nbits));
        }
        return out;
    }

    /**
     * {@code kind:performance} or {@code kind:efficiency}: the kinds of the highest rank, or all
     * the others. A uniform machine's cores are all performance cores; it has no efficiency cores.
     */
    private static CpuMask kind(String arg, Topology t, int nbits) {
        boolean performance = switch (arg) {
            case "performance", "p", "big" -> true;
            case "efficiency", "e", "little" -> false;
            default -> throw new IllegalArgumentException("kind:performance or kind:efficiency");
        };
        List<CoreKind> kinds = t.coreKinds();
        if (kinds.size() <= 1) {
            if (performance) return t.online().resize(nbits);
            throw new IllegalArgumentException("this machine has one kind of core (no efficiency cores)");
        }
        long top = kinds.stream().mapToLong(CpuSelector::rank).max().orElse(0);
        CpuMask out = CpuMask.empty(nbits);
        for (CoreKind k : kinds) if ((rank(k) == top) == performance) out = out.or(k.cpus().resize(nbits));
        return out;
    }

    /** How big a kind is: the hybrid PMU's {@code core} over {@code atom}, then capacity, then frequency. */
    private static long rank(CoreKind k) {
        long hybrid = k.hybridType().map(h -> h.equals("core") ? 1L : 0L).orElse(0L);
        OptionalInt cap = k.capacity();
        OptionalInt freq = k.maxFreqMHz().isPresent() ? k.maxFreqMHz() : k.baseFreqMHz();
        return (hybrid << 50) + ((long) cap.orElse(0) << 24) + freq.orElse(0);
    }
}
