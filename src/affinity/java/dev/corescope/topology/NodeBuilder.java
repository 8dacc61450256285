package dev.corescope.topology;

import dev.corescope.cpumask.CpuMask;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A tree object while the tree is read: its children by CPU set, its caches. */
final class NodeBuilder {
    final TopologyNode.Kind kind;
    final int id;
    final CpuMask cpus;
    final Map<CpuMask, NodeBuilder> children = new LinkedHashMap<>();
    final List<Cache> caches = new ArrayList<>();

    NodeBuilder(TopologyNode.Kind kind, int id, CpuMask cpus) {
        this.kind = kind;
        this.id = id;
        this.cpus = cpus;
    }

    TopologyNode build() {
        List<TopologyNode> kids = new ArrayList<>();
        for (NodeBuilder c : children.values()) kids.add(c.build());
        kids.sort(TopologyNode.BY_FIRST_CPU);
        caches.sort(Cache.ORDER);
        return new TopologyNode(kind, id, cpus, caches, kids);
    }

    /** The finished objects of {@code roots}, each sorted by first CPU, as the tree reads them. */
    static List<TopologyNode> finish(List<NodeBuilder> roots) {
        List<TopologyNode> out = new ArrayList<>();
        for (NodeBuilder n : roots) out.add(n.build());
        out.sort(TopologyNode.BY_FIRST_CPU);
        return out;
    }
}
