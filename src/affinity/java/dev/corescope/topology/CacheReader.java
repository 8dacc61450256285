package dev.corescope.topology;

import dev.corescope.cpumask.CpuMask;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The caches of {@code cpuN/cache/indexM} (level, type, {@code shared_cpu_map} or
 * {@code shared_cpu_list}, size, ways, line), each instance once, hung on the tree object
 * whose CPUs it covers (linear in the tree: one index of the objects by CPU set), and the
 * cache line size from the L1d.
 */
final class CacheReader extends ReadingPart {

    private static final String CPU = TopologyReader.CPU;

    /** Caches no object of the tree holds exactly or contains: the machine's. */
    private final List<Cache> machineCaches = new ArrayList<>();
    private int lineSize = Topology.DEFAULT_CACHE_LINE;
    /** Where the caches came from: {@code sysfs}, {@code cpuid} (no {@code cache/} in sysfs), or {@code none}. */
    String source = "sysfs";

    CacheReader(Reading x) {
        super(x);
    }

    List<Cache> machineCaches() {
        return machineCaches;
    }

    /** The L1d's {@code coherency_line_size}, else {@link Topology#DEFAULT_CACHE_LINE} (with a warning). */
    int lineSize() {
        return lineSize;
    }

    /** Reads the caches of the online CPUs {@code cpus} and hangs each on its object of {@code roots}. */
    void read(CpuMask cpus, List<NodeBuilder> roots, boolean live) {
        // keyed by (level, type, CPUs): the masks are shared instances, so a key costs a hash, not a cpulist string
        Map<List<Object>, Cache> found = new LinkedHashMap<>();
        CpuMask.Builder noCache = CpuMask.builder(nbits);
        for (int cpu : cpus.toArray()) {
            String dir = CPU + "/cpu" + cpu + "/cache";
            List<String> entries = r.list(dir);
            boolean any = false;
            for (String idx : entries) {
                if (!idx.startsWith("index") || !Reading.isDigits(idx, 5)) continue;
                x.work++;
                String p = dir + "/" + idx;
                OptionalInt level = r.readInt(p + "/level");
                Cache.Type type = Cache.Type.parse(r.read(p + "/type").orElse(""));  // no method reference: spun at run time where untrained
                if (level.isEmpty() || type == null) {
                    if (level.isEmpty()) r.problem(p + "/level", "missing; cache ignored");
                    else r.problem(p + "/type", "missing or unknown; cache ignored");
                    continue;
                }
                any = true;
                Optional<CpuMask> shared = r.readMapOrList(p + "/shared_cpu_map", p + "/shared_cpu_list", nbits);
                if (shared.isEmpty()) r.problem(p + "/shared_cpu_map", "missing; taken as private to CPU " + cpu);
                CpuMask mask = shared.isPresent() ? x.onlineWith(shared.get(), cpu) : CpuMask.of(nbits, cpu);
                List<Object> key = List.of(level.getAsInt(), type, mask);
                if (found.containsKey(key)) continue;
                Optional<String> sizeText = r.read(p + "/size");
                long size = sizeText.isPresent() ? Sizes.parseKernelSize(sizeText.get()) : -1;
                int ways = r.readInt(p + "/ways_of_associativity").orElse(-1);
                int line = r.readInt(p + "/coherency_line_size").orElse(-1);
                found.put(key, new Cache(level.getAsInt(), type, size, line, ways, mask));
            }
            if (!any) noCache.set(cpu);
        }
        CpuMask none = noCache.build();
        if (found.isEmpty() && !cpus.isEmpty()) {
            for (Cache c : CpuidCaches.read(r, cpus, live)) found.put(List.of(c.level(), c.type(), c.cpus()), c);
            source = found.isEmpty() ? "none" : "cpuid";
        }
        if (!none.isEmpty() && !none.sameCpus(cpus)) {
            warnings.add("no cache/ information for " + Sizes.cpus(none));
        } else if (!cpus.isEmpty() && none.sameCpus(cpus)) {
            warnings.add("no cache/ information in sysfs (cpuN/cache): " + (source.equals("cpuid") ? "caches from CPUID"
                    : "caches unknown" + cachesDescribedElsewhere(cpus.first())));
        }
        hang(found.values(), roots, machineCaches, x);
        lineSize = lineSize(found.values(), "coherency_line_size", warnings);
    }

    /** The line size of the L1d of the lowest CPU, else {@link Topology#DEFAULT_CACHE_LINE} with a warning naming {@code file}. */
    static int lineSize(Collection<Cache> caches, String file, List<String> warnings) {
        Optional<Cache> l1d = caches.stream().filter(c -> c.level() == 1 && c.type() != Cache.Type.INSTRUCTION && c.lineSize() > 0)
                .min((a, b) -> Integer.compare(a.cpus().first(), b.cpus().first()));
        if (l1d.isEmpty()) warnings.add("cache line size unknown (no L1d " + file + "): assuming " + Topology.DEFAULT_CACHE_LINE + " bytes");
        return l1d.map(Cache::lineSize).orElse(Topology.DEFAULT_CACHE_LINE);
    }

    /** Hangs each of {@code caches} on its object of {@code roots} ({@link #attach}), or adds it to {@code machineCaches}. */
    static void hang(Collection<Cache> caches, List<NodeBuilder> roots, List<Cache> machineCaches, Reading x) {
        ObjectIndex index = new ObjectIndex(roots, x);
        for (Cache c : caches) attach(c, index, machineCaches, x);
    }

    /** Every object of the tree by its CPUs, and each CPU's chain of objects from its package inwards, built in one walk. */
    private static final class ObjectIndex {
        final Map<CpuMask, List<NodeBuilder>> byCpus = new HashMap<>();
        final Map<Integer, List<NodeBuilder>> chainOf = new HashMap<>();

        ObjectIndex(List<NodeBuilder> roots, Reading reader) {
            for (NodeBuilder n : roots) walk(n, new ArrayList<>(), reader);
        }

        private void walk(NodeBuilder n, List<NodeBuilder> chain, Reading reader) {
            reader.work++;
            byCpus.computeIfAbsent(n.cpus, k -> new ArrayList<>(1)).add(n);
            if (n.kind == TopologyNode.Kind.PU) {
                chainOf.put(n.id, List.copyOf(chain));
                return;
            }
            chain.add(n);
            for (NodeBuilder c : n.children.values()) walk(c, chain, reader);
            chain.removeLast();
        }
    }

    /** Attach order for an L1 or L2: the innermost object with its CPUs first. */
    private static final List<TopologyNode.Kind> INNER_FIRST = List.of(TopologyNode.Kind.CORE, TopologyNode.Kind.CLUSTER,
            TopologyNode.Kind.DIE, TopologyNode.Kind.PACKAGE, TopologyNode.Kind.PU);
    /** Attach order for an L3 or higher: the outermost first. */
    private static final List<TopologyNode.Kind> OUTER_FIRST = List.of(TopologyNode.Kind.PACKAGE, TopologyNode.Kind.DIE,
            TopologyNode.Kind.CLUSTER, TopologyNode.Kind.CORE, TopologyNode.Kind.PU);

    /**
     * Hangs a cache on the object whose CPUs it covers exactly; where several objects have the
     * same CPUs, an L1 or L2 goes to the innermost (the core) and an L3 or higher to the
     * outermost (the package), as people think of them. Else on the smallest object holding
     * it (one of its first CPU's chain, since an object holding the cache holds that CPU); else
     * on the machine. Costs the objects with the cache's CPUs plus one chain: linear overall.
     */
    private static void attach(Cache c, ObjectIndex index, List<Cache> machineCaches, Reading x) {
        NodeBuilder best = null;
        List<NodeBuilder> same = index.byCpus.getOrDefault(c.cpus(), List.of());
        for (TopologyNode.Kind k : c.level() >= 3 ? OUTER_FIRST : INNER_FIRST) {
            for (NodeBuilder n : same) {
                x.work++;
                if (n.kind == k) {
                    best = n;
                    break;
                }
            }
            if (best != null) break;
        }
        if (best == null && !c.cpus().isEmpty()) {
            for (NodeBuilder n : index.chainOf.getOrDefault(c.cpus().first(), List.of())) {
                x.work++;
                if (c.cpus().isSubsetOf(n.cpus) && (best == null || n.cpus.weight() < best.cpus.weight())) best = n;
            }
        }
        if (best == null) {
            machineCaches.add(c);
        } else {
            best.caches.add(c);
        }
    }

    /** Says that SPARC's per-CPU {@code l1_dcache_size}... (arch/sparc/kernel/sysfs.c), which tell no sharing, are not read. */
    private String cachesDescribedElsewhere(int cpu) {
        String dir = CPU + "/cpu" + cpu;
        for (String f : List.of("l1_dcache_size", "l1_icache_size", "l2_cache_size")) {
            if (r.readLong(dir + "/" + f).isPresent()) {
                return "; " + dir + "/l1_dcache_size, l2_cache_size... (SPARC) give sizes but not which CPUs share a cache, so they are not read";
            }
        }
        return "";
    }
}
