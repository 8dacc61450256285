package dev.corescope.topology;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.topology.proc.CpuInfo;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;

/**
 * The tree of packages, dies, clusters, cores and PUs from each CPU's {@code topology/}
 * ({@code physical_package_id}, {@code package_cpus} or {@code core_siblings}, {@code die_id},
 * {@code cluster_id}, {@code core_id}, {@code core_cpus} or {@code thread_siblings}), with the
 * fallbacks of old kernels (ids without masks), package masks that overlap, and AMD compute
 * units. Objects are identified by their CPU set; a level a CPU does not describe (arm64's
 * {@code die_id} or {@code cluster_id} of -1 included) is left out.
 */
final class CpuTreeReader extends ReadingPart {

    private static final String CPU = TopologyReader.CPU;

    private final CpuInfo cpuInfo;

    CpuTreeReader(Reading x, CpuInfo cpuInfo) {
        super(x);
        this.cpuInfo = cpuInfo;
    }

    /** What one CPU's {@code topology/} says; a mask is null where the files do not exist. */
    private record CpuTopo(int cpu, int pkgId, CpuMask pkg, int dieId, CpuMask die, int clusterId, CpuMask cluster,
                           int coreId, CpuMask core) {
    }

    /** The packages, dies, clusters, cores and PUs of the online CPUs {@code cpus}, as objects still to finish. */
    List<NodeBuilder> read(CpuMask cpus) {
        List<CpuTopo> topos = new ArrayList<>();
        CpuMask.Builder noTopology = CpuMask.builder(nbits);
        for (int cpu : cpus.toArray()) {
            String t = CPU + "/cpu" + cpu + "/topology";
            if (!r.isDirectory(t)) {
                noTopology.set(cpu);
                topos.add(new CpuTopo(cpu, -1, null, -1, null, -1, null, -1, null));
                continue;
            }
            int pkgId = r.readInt(t + "/physical_package_id").orElse(-1);
            CpuMask pkg = mapOrList(t, "package_cpus", cpu).or(() -> mapOrList(t, "core_siblings", cpu)).orElse(null);
            OptionalInt dieIdFile = r.readInt(t + "/die_id");
            CpuMask die = null;
            int dieId = dieIdFile.orElse(-1);
            if (dieIdFile.isPresent() && dieId >= 0) die = mapOrList(t, "die_cpus", cpu).orElse(null);
            OptionalInt clusterIdFile = r.readInt(t + "/cluster_id");
            CpuMask cluster = null;
            int clusterId = clusterIdFile.orElse(-1);
            if (!(clusterIdFile.isPresent() && clusterId == -1)) cluster = mapOrList(t, "cluster_cpus", cpu).orElse(null);
            int coreId = r.readInt(t + "/core_id").orElse(-1);
            CpuMask core = mapOrList(t, "core_cpus", cpu).or(() -> mapOrList(t, "thread_siblings", cpu)).orElse(null);
            topos.add(new CpuTopo(cpu, pkgId, pkg, dieId, die, clusterId, cluster, coreId, core));
        }
        CpuMask missing = noTopology.build();
        if (!missing.isEmpty()) warnings.add("no topology/ for " + Sizes.cpus(missing) + (missing.weight() == 1 ? ": it is" : ": they are") + " listed without package or core");

        topos = fillMasksFromIds(topos);
        topos = packagesFollowIds(topos);
        topos = splitAmdComputeUnits(topos);

        Map<CpuMask, NodeBuilder> roots = new LinkedHashMap<>();
        for (CpuTopo c : topos) {
            Map<CpuMask, NodeBuilder> level = roots;
            CpuMask parent = null;
            NodeBuilder node = null;
            Object[][] path = {
                    {TopologyNode.Kind.PACKAGE, c.pkgId, c.pkg},
                    {TopologyNode.Kind.DIE, c.dieId, c.die},
                    {TopologyNode.Kind.CLUSTER, c.clusterId, c.cluster},
                    {TopologyNode.Kind.CORE, c.coreId, c.core}};
            for (Object[] step : path) {
                x.work++;
                TopologyNode.Kind kind = (TopologyNode.Kind) step[0];
                CpuMask mask = (CpuMask) step[2];
                if (mask == null) continue;
                if (parent != null && !mask.isSubsetOf(parent)) {
                    warnings.add("CPU " + c.cpu + ": its " + kind.jsonName() + " CPUs " + mask + " are not within its "
                            + node.kind.jsonName() + " " + parent + "; that level is left out for it");
                    continue;
                }
                node = level.computeIfAbsent(mask, m -> new NodeBuilder(kind, (Integer) step[1], m));
                level = node.children;
                parent = mask;
            }
            CpuMask self = CpuMask.of(nbits, c.cpu);
            level.computeIfAbsent(self, m -> new NodeBuilder(TopologyNode.Kind.PU, c.cpu, m));
        }
        return new ArrayList<>(roots.values());
    }

    /** A CPU mask file limited to online CPUs and always holding the CPU itself. */
    private Optional<CpuMask> mapOrList(String dir, String name, int cpu) {
        return r.readMapOrList(dir + "/" + name, dir + "/" + name + "_list", nbits)
                .map(m -> x.onlineWith(m, cpu));
    }

    /** Where a tree has an id but no mask (some old kernels), the mask is the CPUs sharing the id. */
    private List<CpuTopo> fillMasksFromIds(List<CpuTopo> topos) {
        boolean needed = false;
        for (CpuTopo t : topos) {
            if ((t.pkg == null && t.pkgId >= 0) || (t.core == null && t.coreId >= 0)) needed = true;
        }
        if (!needed) return topos;
        Map<Integer, CpuMask.Builder> pkgs = new TreeMap<>();
        Map<String, CpuMask.Builder> cores = new TreeMap<>();
        for (CpuTopo t : topos) {
            if (t.pkgId >= 0) pkgs.computeIfAbsent(t.pkgId, k -> CpuMask.builder(nbits)).set(t.cpu);
            if (t.coreId >= 0) cores.computeIfAbsent(t.pkgId + "/" + t.coreId, k -> CpuMask.builder(nbits)).set(t.cpu);
        }
        List<CpuTopo> out = new ArrayList<>();
        for (CpuTopo t : topos) {
            CpuMask pkg = t.pkg != null ? t.pkg : t.pkgId >= 0 ? pkgs.get(t.pkgId).build() : null;
            CpuMask core = t.core != null ? t.core : t.coreId >= 0 ? cores.get(t.pkgId + "/" + t.coreId).build() : null;
            out.add(new CpuTopo(t.cpu, t.pkgId, pkg, t.dieId, t.die, t.clusterId, t.cluster, t.coreId, core));
        }
        warnings.add("some CPUs have ids but no CPU masks in topology/: grouped by physical_package_id and core_id");
        return out;
    }

    /**
     * Packages are never invented: when the package masks do not split the CPUs into disjoint sets,
     * packages follow {@code physical_package_id}. Disjoint masks are kept even where the ids are
     * coarser, as hwloc keeps them (ia64 trees give two sockets one id); a tree with no ids keeps its masks.
     */
    private List<CpuTopo> packagesFollowIds(List<CpuTopo> topos) {
        if (masksArePartition(topos)) return topos;
        Map<Integer, CpuMask.Builder> byId = new TreeMap<>();
        for (CpuTopo t : topos) if (t.pkgId >= 0) byId.computeIfAbsent(t.pkgId, k -> CpuMask.builder(nbits)).set(t.cpu);
        if (byId.isEmpty()) return topos;
        Map<Integer, CpuMask> idMasks = new TreeMap<>();
        for (var e : byId.entrySet()) idMasks.put(e.getKey(), e.getValue().build());
        CpuMask.Builder disagree = CpuMask.builder(nbits);
        List<CpuTopo> out = new ArrayList<>();
        for (CpuTopo t : topos) {
            CpuMask byIdMask = t.pkgId >= 0 ? idMasks.get(t.pkgId) : null;
            if (byIdMask != null && t.pkg != null && !t.pkg.sameCpus(byIdMask)) {
                disagree.set(t.cpu);
                out.add(new CpuTopo(t.cpu, t.pkgId, byIdMask, t.dieId, t.die, t.clusterId, t.cluster, t.coreId, t.core));
            } else {
                out.add(t);
            }
        }
        CpuMask bad = disagree.build();
        if (!bad.isEmpty()) {
            warnings.add("the package CPU masks of " + Sizes.cpus(bad) + " disagree with their physical_package_id: packages follow the ids ("
                    + idMasks.size() + (idMasks.size() == 1 ? " package)" : " packages)"));
        }
        return out;
    }

    /** True when the package masks are pairwise equal or disjoint (each CPU in its own). */
    private boolean masksArePartition(List<CpuTopo> topos) {
        List<CpuMask> distinct = new ArrayList<>();
        for (CpuTopo t : topos) {
            if (t.pkg == null) continue;
            boolean seen = false;
            for (CpuMask m : distinct) {
                x.work++;
                if (m.sameCpus(t.pkg)) {
                    seen = true;
                    break;
                }
                if (m.intersects(t.pkg)) return false;
            }
            if (!seen) distinct.add(t.pkg);
        }
        return true;
    }

    /**
     * AMD families 15h and 16h: Linux lists the two cores of a compute unit as SMT siblings with their
     * own {@code core_id}s; each counts as a core, as hwloc's {@code is_amd_with_CU} decides on the first pair.
     */
    private List<CpuTopo> splitAmdComputeUnits(List<CpuTopo> topos) {
        if (!cpuInfo.amdWithComputeUnits()) return topos;
        Map<Integer, CpuTopo> byCpu = new HashMap<>();
        for (CpuTopo t : topos) byCpu.put(t.cpu, t);
        boolean split = false;
        for (CpuTopo t : topos) {
            if (t.core == null || t.core.weight() < 2) continue;
            int sibling = t.core.first() == t.cpu ? t.core.next(t.cpu) : t.core.first();
            CpuTopo s = byCpu.get(sibling);
            split = s != null && s.coreId != t.coreId;
            break;
        }
        if (!split) return topos;
        List<CpuTopo> out = new ArrayList<>();
        for (CpuTopo t : topos) {
            out.add(new CpuTopo(t.cpu, t.pkgId, t.pkg, t.dieId, t.die, t.clusterId, t.cluster, t.coreId, CpuMask.of(nbits, t.cpu)));
        }
        warnings.add("AMD compute units: the kernel lists the two cores of each compute unit as SMT siblings with their own core_id;"
                + " counted as two cores, as hwloc counts them, with the caches each pair shares shown above them");
        return out;
    }
}
