package dev.corescope.topology;

import dev.corescope.cpumask.CpuMask;

import java.util.List;

/**
 * One object of the tree Machine &gt; Package &gt; Die &gt; Cluster &gt; Core &gt; PU. Levels the
 * machine does not describe are absent (a package's children are then its clusters or cores),
 * never invented. Objects are identified by their CPU set, because {@code core_id} and
 * {@code die_id} repeat across packages and {@code cluster_id} may be a placeholder.
 *
 * @param kind     package, die, cluster, core or PU
 * @param id       the kernel's number for it: {@code physical_package_id}, {@code die_id},
 *                 {@code cluster_id}, {@code core_id}, or the CPU number for a PU (-1 if unknown)
 * @param cpus     its online CPUs
 * @param caches   the caches shared by exactly these CPUs, or by a subset that no smaller
 *                 object holds (an L3 that covers half a package hangs on the package)
 * @param children the next level down, by first CPU
 */
public record TopologyNode(Kind kind, int id, CpuMask cpus, List<Cache> caches, List<TopologyNode> children) {

    public enum Kind {
        PACKAGE("package", "Package"), DIE("die", "Die"), CLUSTER("cluster", "Cluster"),
        CORE("core", "Core"), PU("pu", "PU");

        private final String jsonName;
        private final String title;

        Kind(String jsonName, String title) {
            this.jsonName = jsonName;
            this.title = title;
        }

        public String jsonName() {
            return jsonName;
        }

        public String title() {
            return title;
        }
    }

    /** By first CPU, the order objects are listed in. */
    static final java.util.Comparator<TopologyNode> BY_FIRST_CPU = (a, b) -> Integer.compare(a.firstCpu(), b.firstCpu());

    public TopologyNode {
        caches = List.copyOf(caches);
        children = List.copyOf(children);
    }

    /** The first CPU, the order objects are listed in. */
    public int firstCpu() {
        return cpus.first();
    }
}
