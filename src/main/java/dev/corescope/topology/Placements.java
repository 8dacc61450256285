package dev.corescope.topology;

import dev.corescope.cpumask.CpuMask;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Pairs of CPUs by what they share, for benchmarks that pin two threads (cache-to-cache
 * latency, false sharing): the same core (SMT siblings), the same last-level cache, the same
 * package across L3s, or different packages.
 *
 * <ul>
 *   <li>{@code smt}: two PUs of one core;</li>
 *   <li>{@code same-l3}: different cores sharing an L3 (or, without an L3, the last-level cache);</li>
 *   <li>{@code cross-l3}: the same package, different L3s;</li>
 *   <li>{@code cross-package}: different packages;</li>
 *   <li>{@code any}: the first two usable CPUs, whatever they share.</li>
 * </ul>
 * Only CPUs in {@code usable} (normally {@link Topology#usable()}: online and allowed) are chosen;
 * a kind the machine does not offer is simply absent.
 */
public final class Placements {

    public static final List<String> NAMES = List.of("smt", "same-l3", "cross-l3", "cross-package", "any");

    private Placements() {
    }

    /** One representative pair for each kind the machine offers, in {@link #NAMES} order; empty when fewer than 2 CPUs are usable. */
    public static List<Placement> of(Topology t, CpuMask usable) {
        List<Placement> out = new ArrayList<>();
        if (usable(t, usable).weight() < 2) return out;
        for (String name : NAMES) find(t, usable, name).ifPresent(out::add);
        return List.copyOf(out);
    }

    /** The first pair (lowest CPU numbers) of kind {@code name}, if the machine has one among {@code usable}. */
    public static Optional<Placement> find(Topology t, CpuMask usable, String name) {
        checkName(name);
        Index ix = new Index(t);
        int[] cpus = usable(t, usable).toArray();
        for (int i = 0; i < cpus.length; i++) {
            for (int j = i + 1; j < cpus.length; j++) {
                if (name.equals("any") || name.equals(ix.classify(cpus[i], cpus[j]))) {
                    return Optional.of(ix.placement(name, cpus[i], cpus[j]));
                }
            }
        }
        return Optional.empty();
    }

    /** Every pair of kind {@code name} among {@code usable}, each once with {@code from < to}, by {@code from} then {@code to}. */
    public static List<Placement> all(Topology t, CpuMask usable, String name) {
        checkName(name);
        Index ix = new Index(t);
        int[] cpus = usable(t, usable).toArray();
        List<Placement> out = new ArrayList<>();
        for (int i = 0; i < cpus.length; i++) {
            for (int j = i + 1; j < cpus.length; j++) {
                if (name.equals("any") || name.equals(ix.classify(cpus[i], cpus[j]))) {
                    out.add(ix.placement(name, cpus[i], cpus[j]));
                }
            }
        }
        return List.copyOf(out);
    }

    /** What {@code a} and {@code b} share, as one of {@link #NAMES} other than {@code any}; empty when the tree cannot tell. */
    public static Optional<String> classify(Topology t, int a, int b) {
        return Optional.ofNullable(new Index(t).classify(a, b));
    }

    private static void checkName(String name) {
        if (!NAMES.contains(name)) {
            throw new IllegalArgumentException("placement " + name + ": not one of " + String.join(", ", NAMES));
        }
    }

    /** {@code usable} limited to the CPUs the topology knows as online. */
    private static CpuMask usable(Topology t, CpuMask usable) {
        return usable.resize(t.nbits()).and(t.online());
    }

    /** Per-CPU indexes of core, package and last-level cache, so a pair is classified in O(1). */
    private static final class Index {
        final Topology t;
        final List<Cache> llcs;
        final int[] core;
        final int[] pkg;
        final int[] llc;

        Index(Topology t) {
            this.t = t;
            int n = t.nbits();
            core = fill(n);
            pkg = fill(n);
            llc = fill(n);
            List<TopologyNode> cores = t.cores();
            for (int i = 0; i < cores.size(); i++) {
                int idx = i;
                cores.get(i).cpus().forEachCpu(c -> core[c] = idx);
            }
            List<TopologyNode> pkgs = t.packages();
            for (int i = 0; i < pkgs.size(); i++) {
                int idx = i;
                pkgs.get(i).cpus().forEachCpu(c -> pkg[c] = idx);
            }
            llcs = t.lastLevelCaches();
            for (int i = 0; i < llcs.size(); i++) {
                int idx = i;
                llcs.get(i).cpus().forEachCpu(c -> {
                    if (c < n) llc[c] = idx;
                });
            }
        }

        private static int[] fill(int n) {
            int[] a = new int[n];
            java.util.Arrays.fill(a, -1);
            return a;
        }

        String classify(int a, int b) {
            if (a >= core.length || b >= core.length) return null;
            if (core[a] >= 0 && core[a] == core[b]) return "smt";
            if (llc[a] >= 0 && llc[a] == llc[b]) return "same-l3";
            if (pkg[a] >= 0 && pkg[b] >= 0 && pkg[a] != pkg[b]) return "cross-package";
            if (pkg[a] >= 0 && pkg[a] == pkg[b] && llc[a] >= 0 && llc[b] >= 0) return "cross-l3";
            return null;
        }

        Placement placement(String name, int a, int b) {
            String what = relation(a, b);
            if (name.equals("any")) what = "the first two usable CPUs; " + what;
            return new Placement(name, a, b, "CPU " + a + " and CPU " + b + ": " + what);
        }

        /** What the tree says about the pair, also where no placement kind applies (no caches known). */
        String relation(int a, int b) {
            String kind = classify(a, b);
            if (kind != null) {
                return switch (kind) {
                    case "smt" -> "SMT siblings, core " + t.cores().get(core[a]).id() + packageSuffix(a);
                    case "same-l3" -> "different cores, same " + llcName(llcs.get(llc[a]));
                    case "cross-l3" -> "same package" + packageIdSuffix(a) + ", different " + llcs.get(llc[a]).name() + "s";
                    default -> "different packages, " + t.packages().get(pkg[a]).id() + " and " + t.packages().get(pkg[b]).id();
                };
            }
            if (pkg[a] >= 0 && pkg[a] == pkg[b]) return "different cores, same package" + packageIdSuffix(a) + ", shared caches unknown";
            return "relation unknown (no topology information)";
        }

        private String llcName(Cache c) {
            String size = c.sizeBytes() >= 0 ? Sizes.binary(c.sizeBytes()) : "size unknown";
            return c.name() + " (" + (c.level() < 3 ? "last level, " : "") + size + ")";
        }

        private String packageSuffix(int cpu) {
            return pkg[cpu] >= 0 ? ", package " + t.packages().get(pkg[cpu]).id() : "";
        }

        private String packageIdSuffix(int cpu) {
            return pkg[cpu] >= 0 ? " " + t.packages().get(pkg[cpu]).id() : "";
        }
    }
}
