package dev.corescope.topology;

import dev.corescope.cpumask.CpuMask;

import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * Pairs of CPUs by what they share, for benchmarks that pin two threads (cache-to-cache
 * latency, false sharing). A pair's kind is its {@link Placement} made coarser: sharing an L2
 * counts as {@code same-l3}, another NUMA node of the package as {@code other-l3}; {@code any}
 * is the first two usable CPUs, whatever they share. Kinds are named by {@link Placement#key()},
 * older names read as {@link Placement#ofKey} reads them. Only CPUs in {@code usable} (normally
 * {@link Topology#usable()}: online and allowed) are chosen; a kind the machine does not offer is
 * simply absent.
 */
public final class Placements {

    /** The kinds, innermost first: what {@code placement=} of the JMH profiler and the CLI take. */
    public static final List<String> NAMES = List.of(Placement.SAME_CORE.key(), Placement.SAME_L3.key(), Placement.OTHER_L3.key(),
            Placement.OTHER_PACKAGE.key(), "any");

    private Placements() {
    }

    /**
     * One representative pair for each kind the machine offers, in {@link #NAMES} order.
     *
     * @param t the topology
     * @param usable the CPUs to choose from
     * @return the pairs; empty when fewer than 2 CPUs are usable
     */
    public static List<CpuPair> of(Topology t, CpuMask usable) {
        if (usable(t, usable).weight() < 2) return List.of();
        return NAMES.stream().flatMap(name -> find(t, usable, name).stream()).toList();
    }

    /**
     * The first pair (lowest CPU numbers) of kind {@code name}.
     *
     * @param t the topology
     * @param usable the CPUs to choose from
     * @param given one of {@link #NAMES} (or an older name)
     * @return the pair, or empty when the machine has none among {@code usable}
     * @throws IllegalArgumentException when {@code name} is not one of {@link #NAMES}
     */
    public static Optional<CpuPair> find(Topology t, CpuMask usable, String given) {
        return pairs(t, usable, given).findFirst();
    }

    /**
     * Every pair of kind {@code name} among {@code usable}, each once with {@code from < to}.
     * Quadratic in the CPUs: for big machines use {@link Topology#relation} per pair.
     *
     * @param t the topology
     * @param usable the CPUs to choose from
     * @param given one of {@link #NAMES} (or an older name)
     * @return the pairs by {@code from} then {@code to}; unmodifiable
     * @throws IllegalArgumentException when {@code name} is not one of {@link #NAMES}
     */
    public static List<CpuPair> all(Topology t, CpuMask usable, String given) {
        return pairs(t, usable, given).toList();
    }

    /** The pairs of kind {@code given} among {@code usable}, by {@code from} then {@code to}, found lazily. */
    private static Stream<CpuPair> pairs(Topology t, CpuMask usable, String given) {
        String name = name(given);
        int[] cpus = usable(t, usable).toArray();
        return IntStream.range(0, cpus.length).boxed()
                .flatMap(i -> IntStream.range(i + 1, cpus.length).mapToObj(j -> new int[] {cpus[i], cpus[j]}))
                .filter(p -> name.equals("any") || kind(t, p[0], p[1]) instanceof Placement k && name.equals(k.key()))
                .map(p -> new CpuPair(name, p[0], p[1], "CPU " + p[0] + " and CPU " + p[1] + ": "
                        + (name.equals("any") ? "the first two usable CPUs; " : "") + relation(t, p[0], p[1])));
    }

    /**
     * What {@code a} and {@code b} share, as one of {@link #NAMES} other than {@code any}.
     *
     * @param t the topology
     * @param a a CPU number
     * @param b another CPU number
     * @return the kind, or empty when the tree cannot tell
     */
    public static Optional<String> classify(Topology t, int a, int b) {
        return Optional.ofNullable(kind(t, a, b)).map(Placement::key);
    }

    /**
     * The one of {@link #NAMES} that {@code given} names, older names ({@code smt},
     * {@code cross-l3}, {@code cross-package}) and {@code _} for {@code -} included.
     *
     * @param given the name
     * @return the name as {@link #NAMES} spells it
     * @throws IllegalArgumentException when {@code given} names none
     */
    public static String name(String given) {
        if (given.equals("any")) return given;
        String key = Placement.ofKey(given).map(Placement::key).orElse(given);
        if (!NAMES.contains(key)) {
            throw new IllegalArgumentException("placement " + given + ": not one of " + String.join(", ", NAMES));
        }
        return key;
    }

    /** {@code usable} limited to the CPUs the topology knows as online. */
    private static CpuMask usable(Topology t, CpuMask usable) {
        return usable.resize(t.nbits()).and(t.online());
    }

    /** The kind of {@link #NAMES} (not {@code any}) that {@code a} and {@code b} count as; null when the tree cannot tell. */
    private static Placement kind(Topology t, int a, int b) {
        if (a >= t.nbits() || b >= t.nbits()) return null;
        return switch (t.relation(a, b).orElse(null)) {
            case null -> null;
            case SAME_L2 -> Placement.SAME_L3;
            case OTHER_NODE -> t.where(a).llc() < 0 || t.where(b).llc() < 0 ? null : Placement.OTHER_L3;
            case Placement p -> p;
        };
    }

    /** What the tree says about the pair, also where no kind applies (no caches known). */
    private static String relation(Topology t, int a, int b) {
        CpuPlace pa = t.where(a);
        CpuPlace pb = t.where(b);
        String pkg = pa.packageId() >= 0 ? " " + pa.packageId() : "";
        return switch (kind(t, a, b)) {
            case SAME_CORE -> "SMT siblings, core " + pa.coreId() + (pkg.isEmpty() ? "" : ", package" + pkg);
            case SAME_L3 -> "different cores, same " + llcName(t.lastLevelCaches().get(pa.llc()));
            case OTHER_L3 -> "same package" + pkg + ", different " + t.lastLevelCaches().get(pa.llc()).name() + "s";
            case OTHER_PACKAGE -> "different packages, " + pa.packageId() + " and " + pb.packageId();
            case null, default -> pa.packageId() >= 0 && pa.packageId() == pb.packageId()
                    ? "different cores, same package" + pkg + ", shared caches unknown" : "relation unknown (no topology information)";
        };
    }

    private static String llcName(Cache c) {
        String size = c.sizeBytes() >= 0 ? Sizes.binary(c.sizeBytes()) : "size unknown";
        return c.name() + " (" + (c.level() < 3 ? "last level, " : "") + size + ")";
    }
}
