package dev.corescope.affinity;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.topology.Placement;
import dev.corescope.topology.CpuSelector;
import dev.corescope.topology.Topology;

import java.util.Arrays;

/**
 * What a CPU should share with another one (the <em>anchor</em>, usually a CPU reserved
 * before), as OpenHFT's {@code AffinityStrategy}: the built-ins are the constants here, and a
 * strategy of your own is a class (or lambda) that implements {@link #accepts}.
 *
 * <p>A strategy is asked only about a CPU other than the anchor; without an anchor every CPU
 * fits. Strategies are tried in the order given, so {@code SAME_CORE, SAME_L3, ANY} reads "a
 * sibling if one is free, else a core on the same L3, else anything".
 *
 * <pre>{@code
 * CpuStrategy evenCpus = (topology, anchor, cpu) -> cpu % 2 == 0;
 * Reservation r = Reservations.shared().reserve(evenCpus);
 * }</pre>
 */
@FunctionalInterface
public interface CpuStrategy {
    /** An SMT sibling: another hardware thread of the anchor's core (L1 and L2 shared). */
    CpuStrategy SAME_CORE = BuiltinStrategy.SAME_CORE;
    /** Another core on the anchor's last-level cache (L3). */
    CpuStrategy SAME_L3 = BuiltinStrategy.SAME_L3;
    /** A CPU on another last-level cache than the anchor's, in any package. */
    CpuStrategy OTHER_L3 = BuiltinStrategy.OTHER_L3;
    /** A CPU in another package (socket) than the anchor's. */
    CpuStrategy OTHER_PACKAGE = BuiltinStrategy.OTHER_PACKAGE;
    /** Any other CPU. */
    CpuStrategy ANY = BuiltinStrategy.ANY;

    /**
     * {@return whether {@code cpu} fits this strategy relative to {@code anchor}: may be taken}
     *
     * @param topology the machine
     * @param anchor   the CPU reserved before, not negative
     * @param cpu      the candidate, not {@code anchor}
     */
    boolean accepts(Topology topology, int anchor, int cpu);

    /**
     * {@return the name this strategy goes by in text ({@code placement=} of the JMH profiler, messages)}
     * That is {@code same-core}, {@code same-l3}, {@code other-l3}, {@code other-package} or
     * {@code any} for the built-ins; {@link Object#toString()} for others.
     */
    default String placementName() {
        return toString();
    }

    /**
     * {@return what a fitting CPU is, in words, for messages, e.g. {@code another core on CPU 3's last-level cache}}
     *
     * @param anchor the anchor CPU
     */
    default String describe(int anchor) {
        return "a CPU that " + placementName() + " accepts for CPU " + anchor;
    }

    /**
     * The built-in strategy named {@code name}: a placement name ({@code same-core}, {@code same-l3},
     * {@code other-l3}, {@code other-package}, {@code any}, or an older one: {@code smt},
     * {@code cross-l3}, {@code cross-package}) or the constant's name in any case,
     * as OpenHFT's {@code AffinityStrategies} are named in configuration.
     *
     * @param name the name, e.g. {@code same-l3} or {@code SAME_L3}
     * @return the strategy
     * @throws IllegalArgumentException naming the accepted names
     */
    static CpuStrategy of(String name) {
        String placement = Placement.ofKey(name).map(Placement::key).orElse(name);
        for (BuiltinStrategy s : BuiltinStrategy.values()) {
            if (s.placementName().equals(placement) || s.name().equalsIgnoreCase(name.replace('-', '_'))) return s;
        }
        if (name.contains(":")) return among(name);
        throw new IllegalArgumentException("strategy " + name + ": not one of same-core, same-l3, other-l3, other-package, any,"
                + " or a selector (node:N, package:N, core:N, l3:N, kind:performance|efficiency)");
    }

    /**
     * A CPU among those a selector names on the machine ({@code topology.CpuSelector}, the
     * parser of the command line's {@code --cpus}): {@code among("kind:performance")},
     * {@code among("node:1")}, {@code among("l3:0")}. A selector the machine cannot answer
     * ({@code l3:0} without cache data) accepts no CPU.
     *
     * @param selector the selector or list, e.g. {@code kind:performance} or {@code node:0,5}
     * @return the strategy; its {@link #placementName()} is {@code selector}
     * @since 0.2.0
     */
    static CpuStrategy among(String selector) {
        return new CpuStrategy() {
            private Topology last;
            private CpuMask cpus;

            @Override
            public synchronized boolean accepts(Topology topology, int anchor, int cpu) {
                if (topology != last) {
                    try {
                        cpus = CpuSelector.select(selector, topology);
                    } catch (IllegalArgumentException e) {
                        cpus = CpuMask.empty(1);
                    }
                    last = topology;
                }
                return cpu < cpus.nbits() && cpus.test(cpu);
            }

            @Override
            public String toString() {
                return selector;
            }
        };
    }

    /**
     * Strategies from a comma-separated list of names ({@code same-core,same-l3,any}), e.g. a system
     * property's value, in the order given.
     *
     * @param names the names, as {@link #of}
     * @return the strategies, at least one
     * @throws IllegalArgumentException for an empty list or an unknown name
     * @since 0.2.0
     */
    static CpuStrategy[] list(String names) {
        return Arrays.stream(names.split(",")).map(name -> {
            if (name.isBlank()) throw new IllegalArgumentException("strategies '" + names + "': an empty name");
            return of(name.strip());
        }).toArray(CpuStrategy[]::new);
    }

    /**
     * Whether two of the {@code usable} CPUs of {@code topology} are related as this strategy
     * asks, whoever holds them: whether {@code Reservations.reserveGroup(2, this)} could ever
     * succeed there. {@code SAME_CORE} on a machine without SMT is {@code false}.
     *
     * <pre>{@code
     * Topology t = Topology.live();
     * if (!CpuStrategy.SAME_CORE.possibleOn(t, t.usable())) System.out.println("no SMT siblings here");
     * }</pre>
     *
     * @param topology the machine
     * @param usable   the CPUs to choose among
     * @return whether some pair of them is so related
     * @since 0.2.0
     */
    default boolean possibleOn(Topology topology, CpuMask usable) {
        int[] cpus = usable.toArray();
        for (int a : cpus) {
            for (int b : cpus) {
                if (a != b && accepts(topology, a, b)) return true;
            }
        }
        return false;
    }
}
