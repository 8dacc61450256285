package dev.corescope.topology;

import dev.corescope.cpumask.CpuMask;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * The tree people see, in the text and SVG reports: objects nested by CPU-set inclusion as lstopo
 * nests them (a shared cache is a level between the package and the cores it serves).
 *
 * <p>A NUMA node with the same CPUs as a shown object is that object's memory, a line inside it; a
 * node strictly inside a package (EPYC NPS4, Intel SNC) is a level of its own; nodes across
 * packages and nodes without CPUs stay at the top. A cache of one core is shown on that core, and a
 * die or cluster with the CPUs of another shown object is left out, as lstopo leaves it out.
 */
final class DisplayTree {

    enum Kind { PACKAGE, DIE, CLUSTER, CACHE, CORE, PU, NUMA }

    /** One box of the picture, one line of the text; {@code containers}: the children that can hold others, for {@link #insert}. */
    record Item(Kind kind, String title, String detail, CpuMask cpus, int weight, int rank, List<Cache> coreCaches,
                List<Item> children, List<Item> containers) {
        Item(Kind kind, String title, String detail, CpuMask cpus, int rank, List<Cache> coreCaches) {
            this(kind, title, detail, cpus, cpus.weight(), rank, coreCaches, new ArrayList<>(), new ArrayList<>());
        }

        String label() {
            return detail.isEmpty() ? title : title + "  " + detail;
        }
    }

    private final Topology t;
    private final List<Item> roots = new ArrayList<>();
    /** Items and candidates visited while building: a count for the test that keeps this linear. */
    long work;

    private DisplayTree(Topology t) {
        this.t = t;
    }

    List<Item> roots() {
        return roots;
    }

    static DisplayTree of(Topology t) {
        DisplayTree d = new DisplayTree(t);
        d.build();
        return d;
    }

    private void build() {
        List<Item> items = new ArrayList<>();
        // CPU sets already shown, hashed: a die or cluster is looked up, not compared with every core
        Set<CpuMask> shownSets = new HashSet<>();
        // the caches the model hangs on cores, by identity (a record's equals bootstraps through
        // invokedynamic, a start-up cost); one pass over the cores, not one per cache
        Set<Cache> corePrivate = Collections.newSetFromMap(new IdentityHashMap<>());
        for (TopologyNode core : t.cores()) corePrivate.addAll(core.caches());
        for (TopologyNode p : t.packages()) {
            items.add(new Item(Kind.PACKAGE, "Package P#" + p.id(), "CPUs " + p.cpus().toList(), p.cpus(), 0, List.of()));
            shownSets.add(p.cpus());
        }
        for (TopologyNode c : t.cores()) shownSets.add(c.cpus());
        List<Cache> levelCaches = new ArrayList<>();
        for (Cache c : t.caches()) {
            work++;
            if (!corePrivate.contains(c)) {
                levelCaches.add(c);
                shownSets.add(c.cpus());
            }
        }
        for (TopologyNode d : t.dies()) {
            work++;
            if (shownSets.contains(d.cpus())) continue;
            items.add(new Item(Kind.DIE, "Die P#" + d.id(), "CPUs " + d.cpus().toList(), d.cpus(), 10, List.of()));
            shownSets.add(d.cpus());
        }
        for (TopologyNode c : t.clusters()) {
            work++;
            if (shownSets.contains(c.cpus())) continue;
            items.add(new Item(Kind.CLUSTER, "Cluster P#" + c.id(), "CPUs " + c.cpus().toList(), c.cpus(), 30, List.of()));
            shownSets.add(c.cpus());
        }
        for (Cache c : levelCaches) {
            int rank = c.level() >= 3 ? 20 : c.level() == 2 ? 40 : c.type() == Cache.Type.INSTRUCTION ? 60 : 50;
            String detail = cacheDetail(c);
            items.add(new Item(Kind.CACHE, c.label(), (detail.isEmpty() ? "" : detail + ", ") + "CPUs " + c.cpus().toList(), c.cpus(), rank, List.of()));
        }
        CpuMask inCores = CpuMask.empty(t.nbits());
        for (TopologyNode c : t.cores()) {
            List<Cache> own = c.caches();
            items.add(new Item(Kind.CORE, (c.id() >= 0 ? "Core P#" + c.id() : "Core (id unknown)"), coreDetail(c.cpus(), own), c.cpus(), 70, own));
            inCores = inCores.or(c.cpus());
        }
        for (TopologyNode pu : t.pus()) {
            if (inCores.test(pu.id())) continue;
            items.add(new Item(Kind.PU, "PU P#" + pu.id(), allowedNote(pu.cpus()), pu.cpus(), 80, List.of()));
        }

        List<NumaNode> memoryOnly = new ArrayList<>();
        for (NumaNode n : t.numaNodes()) {
            if (!n.cpus().isEmpty() && insidePackage(n.cpus()) && !shownSets.contains(n.cpus())) {
                // a node strictly inside a package (EPYC NPS2/NPS4, Intel SNC, Arm servers): a level
                // of the tree around its caches and cores, as lstopo draws its group
                items.add(new Item(Kind.NUMA, "NUMANode P#" + n.id(), "(" + memory(n) + ")  CPUs " + n.cpus().toList(),
                        n.cpus(), 15, List.of()));
            } else {
                memoryOnly.add(n);
            }
        }

        items.sort((a, b) -> {
            if (a.weight != b.weight) return Integer.compare(b.weight, a.weight);
            if (a.rank != b.rank) return Integer.compare(a.rank, b.rank);
            return Integer.compare(a.cpus.first(), b.cpus.first());
        });
        List<Item> rootContainers = new ArrayList<>();
        for (Item item : items) insert(roots, rootContainers, item);

        for (NumaNode n : memoryOnly) {
            Item item = new Item(Kind.NUMA, "NUMANode P#" + n.id(), "(" + memory(n) + (n.cpus().isEmpty() ? ", no CPUs" : "") + ")",
                    n.cpus(), -1, List.of());
            List<Item> where = n.cpus().isEmpty() ? roots : deepestHolding(roots, n.cpus());
            where.add(item);
        }
        sortAll(roots);
    }

    private static String memory(NumaNode n) {
        return n.memoryBytes() >= 0 ? Sizes.binary(n.memoryBytes()) : "memory unknown";
    }

    /** True when {@code cpus} is a strict part of one package. */
    private boolean insidePackage(CpuMask cpus) {
        for (TopologyNode p : t.packages()) {
            if (cpus.isSubsetOf(p.cpus()) && !cpus.sameCpus(p.cpus())) return true;
        }
        return false;
    }

    /** Into the first item of {@code level} holding it, recursively, comparing only the items that can hold others. */
    private void insert(List<Item> level, List<Item> containers, Item item) {
        List<Item> into = level;
        List<Item> holders = containers;
        while (true) {
            Item holder = null;
            for (Item candidate : holders) {
                work++;
                if (item.cpus.isSubsetOf(candidate.cpus)) {
                    holder = candidate;
                    break;
                }
            }
            if (holder == null) break;
            into = holder.children;
            holders = holder.containers;
        }
        into.add(item);
        if (item.kind != Kind.CORE && item.kind != Kind.PU) holders.add(item);
    }

    private static List<Item> deepestHolding(List<Item> level, CpuMask cpus) {
        for (Item candidate : level) {
            if (candidate.kind == Kind.CORE || candidate.kind == Kind.PU || candidate.kind == Kind.NUMA) continue;
            if (cpus.isSubsetOf(candidate.cpus)) return deepestHolding(candidate.children, cpus);
        }
        return level;
    }

    private static void sortAll(List<Item> level) {
        level.sort((a, b) -> {
            int na = a.kind == Kind.NUMA && a.rank < 0 ? 0 : 1;
            int nb = b.kind == Kind.NUMA && b.rank < 0 ? 0 : 1;
            if (na != nb) return Integer.compare(na, nb);
            return Integer.compare(a.cpus.isEmpty() ? Integer.MAX_VALUE : a.cpus.first(), b.cpus.isEmpty() ? Integer.MAX_VALUE : b.cpus.first());
        });
        for (Item i : level) sortAll(i.children);
    }

    static String cacheDetail(Cache c) {
        List<String> parts = new ArrayList<>();
        if (c.ways() == 0) parts.add("fully associative");
        else if (c.ways() > 0) parts.add(c.ways() + "-way");
        if (c.lineSize() > 0) parts.add(c.lineSize() + "B line");
        return String.join(", ", parts);
    }

    private String coreDetail(CpuMask cpus, List<Cache> own) {
        String pus = String.join(",", Arrays.stream(cpus.toArray())
                .mapToObj(cpu -> cpu + (t.allowed().isPresent() && !t.allowed().get().test(cpu) ? " (not allowed)" : "")).toList());
        String caches = own.isEmpty() ? "" : "  [" + String.join(", ", own.stream().map(Cache::label).toList()) + "]";
        return (cpus.weight() == 1 ? "PU " : "PUs ") + pus + caches;
    }

    private String allowedNote(CpuMask pu) {
        if (t.allowed().isPresent() && !pu.isSubsetOf(t.allowed().get())) return "(not allowed)";
        return "";
    }
}
