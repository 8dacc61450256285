package dev.corescope.topology;

import dev.corescope.cpumask.CpuMask;

import java.util.Comparator;
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

    /** The levels of the tree, outermost first. */
    public enum Kind {
        /** A physical package (socket). */
        PACKAGE("package", "Package"),
        /** A die of a package, where the kernel numbers dies. */
        DIE("die", "Die"),
        /** A cluster of cores sharing an L2 or a bus (Arm, Intel E-core modules), where described. */
        CLUSTER("cluster", "Cluster"),
        /** A physical core. */
        CORE("core", "Core"),
        /** A processing unit: one logical CPU (an SMT thread). */
        PU("pu", "PU");

        private final String jsonName;
        private final String title;

        Kind(String jsonName, String title) {
            this.jsonName = jsonName;
            this.title = title;
        }

        /** {@return the name in the JSON form: {@code package}, {@code die}, {@code cluster}, {@code core} or {@code pu}} */
        public String jsonName() {
            return jsonName;
        }

        /** {@return the name in the text form: {@code Package}, {@code Die}, {@code Cluster}, {@code Core} or {@code PU}} */
        public String title() {
            return title;
        }
    }

    /** By first CPU, the order objects are listed in. */
    static final Comparator<TopologyNode> BY_FIRST_CPU = (a, b) -> Integer.compare(a.firstCpu(), b.firstCpu());

    /**
     * A node; the lists are copied (unmodifiable).
     *
     * @param kind     package, die, cluster, core or PU
     * @param id       the kernel's number for it, or -1
     * @param cpus     its online CPUs, not empty
     * @param caches   the caches hanging on it
     * @param children the next level down
     */
    public TopologyNode {
        caches = List.copyOf(caches);
        children = List.copyOf(children);
    }

    /** {@return the first CPU, the order objects are listed in: the lowest CPU of {@link #cpus()}} */
    public int firstCpu() {
        return cpus.first();
    }
}
