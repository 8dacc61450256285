package dev.corescope.topology;

import dev.corescope.cpumask.CpuMask;

import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * Pairs of CPUs by what they share, for benchmarks that pin two threads (cache-to-cache
 * latency, false sharing), named by {@link Placement#key()}:
 *
 * <ul>
 *   <li>{@code same-core}: two PUs of one core;</li>
 *   <li>{@code same-l3}: different cores sharing an L3 (or, without an L3, the last-level cache),
 *       sharing an L2 or not;</li>
 *   <li>{@code other-l3}: the same package, different L3s (on one NUMA node or not);</li>
 *   <li>{@code other-package}: different packages;</li>
 *   <li>{@code any}: the first two usable CPUs, whatever they share.</li>
 * </ul>
 * The older names {@code smt}, {@code cross-l3} and {@code cross-package} are read too.
 * Only CPUs in {@code usable} (normally {@link Topology#usable()}: online and allowed) are chosen;
 * a kind the machine does not offer is simply absent.
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
        Index ix = new Index(t);
        int[] cpus = usable(t, usable).toArray();
        return IntStream.range(0, cpus.length).boxed()
                .flatMap(i -> IntStream.range(i + 1, cpus.length).mapToObj(j -> new int[] {cpus[i], cpus[j]}))
                .filter(p -> name.equals("any") || ix.classify(p[0], p[1]) instanceof Placement k && name.equals(k.key()))
                .map(p -> ix.placement(name, p[0], p[1]));
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
        return Optional.ofNullable(new Index(t).classify(a, b)).map(Placement::key);
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

    /** The name of {@link #NAMES} a pair so placed counts as: sharing an L2 is still {@code same-l3}, another node {@code other-l3}. */
    private static Placement kind(Placement p) {
        return switch (p) {
            case SAME_L2 -> Placement.SAME_L3;
            case OTHER_NODE -> Placement.OTHER_L3;
            default -> p;
        };
    }

    /** {@code usable} limited to the CPUs the topology knows as online. */
    private static CpuMask usable(Topology t, CpuMask usable) {
        return usable.resize(t.nbits()).and(t.online());
    }

    /** A pair's kind and description, from {@link Topology#where} and {@link Topology#relation} (O(1) each). */
    private static final class Index {
        final Topology t;
        final List<Cache> llcs;

        Index(Topology t) {
            this.t = t;
            this.llcs = t.lastLevelCaches();
        }

        Placement classify(int a, int b) {
            if (a >= t.nbits() || b >= t.nbits()) return null;
            Placement p = t.relation(a, b).orElse(null);
            if (p == null) return null;
            if (p == Placement.OTHER_NODE && (t.where(a).llc() < 0 || t.where(b).llc() < 0)) return null;
            return kind(p);
        }

        CpuPair placement(String name, int a, int b) {
            String what = relation(a, b);
            if (name.equals("any")) what = "the first two usable CPUs; " + what;
            return new CpuPair(name, a, b, "CPU " + a + " and CPU " + b + ": " + what);
        }

        /** What the tree says about the pair, also where no placement kind applies (no caches known). */
        String relation(int a, int b) {
            Placement kind = classify(a, b);
            CpuPlace pa = t.where(a);
            CpuPlace pb = t.where(b);
            if (kind != null) {
                return switch (kind) {
                    case SAME_CORE -> "SMT siblings, core " + pa.coreId() + packageSuffix(pa);
                    case SAME_L3 -> "different cores, same " + llcName(llcs.get(pa.llc()));
                    case OTHER_L3 -> "same package" + packageIdSuffix(pa) + ", different " + llcs.get(pa.llc()).name() + "s";
                    default -> "different packages, " + pa.packageId() + " and " + pb.packageId();
                };
            }
            if (pa.packageId() >= 0 && pa.packageId() == pb.packageId()) {
                return "different cores, same package" + packageIdSuffix(pa) + ", shared caches unknown";
            }
            return "relation unknown (no topology information)";
        }

        private String llcName(Cache c) {
            String size = c.sizeBytes() >= 0 ? Sizes.binary(c.sizeBytes()) : "size unknown";
            return c.name() + " (" + (c.level() < 3 ? "last level, " : "") + size + ")";
        }

        private static String packageSuffix(CpuPlace p) {
            return p.packageId() >= 0 ? ", package " + p.packageId() : "";
        }

        private static String packageIdSuffix(CpuPlace p) {
            return p.packageId() >= 0 ? " " + p.packageId() : "";
        }
    }
}
