package dev.corescope.topology;

/**
 * Where one CPU sits, from {@link Topology#where(int)} in O(1): -1 where the tree does not say.
 *
 * @param cpu       the CPU asked about
 * @param packageId the kernel's {@code physical_package_id}
 * @param dieId     {@code die_id}, where the kernel numbers dies
 * @param clusterId {@code cluster_id}, where the kernel describes clusters
 * @param coreId    {@code core_id} (unique within a package, not across packages)
 * @param l2        which L2 (or unified level-2 cache): its index among {@link Topology#caches()}' L2s, from 0
 * @param l3        which L3: its index among the L3s, from 0
 * @param llc       which last-level cache: its index in {@link Topology#lastLevelCaches()}
 * @param numaNode  the NUMA node's number
 * @param coreKind  the index of its kind in {@link Topology#coreKinds()} (hybrid machines)
 */
public record CpuPlace(int cpu, int packageId, int dieId, int clusterId, int coreId, int l2, int l3, int llc,
                       int numaNode, int coreKind) {

    /** A CPU the tree does not know (offline, or beyond its CPUs). */
    static CpuPlace unknown(int cpu) {
        return new CpuPlace(cpu, -1, -1, -1, -1, -1, -1, -1, -1, -1);
    }
}
