package dev.corescope.topology;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.report.Json;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON report (CONTRACT.md, {@code topology --format json}): {@code summary}, {@code cpus},
 * {@code caches} (one entry per level, type and size, with {@code count}), {@code coreKinds},
 * {@code numaNodes} and the tree under {@code packages}, each object with its {@code type},
 * {@code id}, {@code cpus}, the {@code caches} hung on it and its {@code children}.
 * {@code cpus.allowed} is there only for the live machine.
 */
public final class TopologyJson {

    private TopologyJson() {
    }

    /** The report as indented JSON, ending with a newline. */
    public static String render(Topology t) {
        return Json.write(toMap(t));
    }

    /** The report as nested maps and lists, in field order. */
    public static Map<String, Object> toMap(Topology t) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("source", t.source());
        m.put("cpuModel", t.cpuModel().orElse(null));
        Topology.Summary s = t.summary();
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("packages", s.packages());
        summary.put("dies", s.dies());
        summary.put("clusters", s.clusters());
        summary.put("cores", s.cores());
        summary.put("pus", s.pus());
        summary.put("numaNodes", s.numaNodes());
        m.put("summary", summary);

        Map<String, Object> cpus = new LinkedHashMap<>();
        cpus.put("online", t.online().toList());
        cpus.put("offline", t.offline().toList());
        cpus.put("possible", t.possible().toList());
        cpus.put("present", t.present().toList());
        t.allowed().ifPresent(a -> cpus.put("allowed", a.toList()));
        cpus.put("isolated", t.isolated().toList());
        cpus.put("nohzFull", t.nohzFull().toList());
        t.cgroupCpus().ifPresent(c -> cpus.put("cgroupCpuset", c.toList()));
        m.put("cpus", cpus);

        List<Object> caches = new ArrayList<>();
        for (Topology.CacheGroup g : t.cacheGroups()) {
            Map<String, Object> c = new LinkedHashMap<>();
            c.put("level", g.level());
            c.put("type", g.type().jsonName());
            c.put("sizeBytes", g.sizeBytes());
            c.put("lineSize", g.lineSize());
            c.put("ways", g.ways());
            c.put("count", g.count());
            caches.add(c);
        }
        m.put("caches", caches);
        m.put("cacheLineSize", t.cacheLineSize());

        List<Object> kinds = new ArrayList<>();
        for (CoreKind k : t.coreKinds()) {
            Map<String, Object> c = new LinkedHashMap<>();
            c.put("cpus", k.cpus().toList());
            k.capacity().ifPresent(v -> c.put("capacity", v));
            k.hybridType().ifPresent(v -> c.put("hybridType", v));
            k.baseFreqMHz().ifPresent(v -> c.put("baseFreqMHz", v));
            k.maxFreqMHz().ifPresent(v -> c.put("maxFreqMHz", v));
            kinds.add(c);
        }
        m.put("coreKinds", kinds);

        List<Object> nodes = new ArrayList<>();
        for (NumaNode n : t.numaNodes()) {
            Map<String, Object> c = new LinkedHashMap<>();
            c.put("id", n.id());
            c.put("cpus", n.cpus().toList());
            c.put("memoryBytes", n.memoryBytes());
            c.put("distances", n.distances());
            nodes.add(c);
        }
        m.put("numaNodes", nodes);

        List<Object> tree = new ArrayList<>();
        for (TopologyNode r : t.roots()) tree.add(node(t, r));
        m.put("packages", tree);
        if (!t.machineCaches().isEmpty()) m.put("machineCaches", cacheList(t.machineCaches()));
        m.put("warnings", t.warnings());
        return m;
    }

    private static Map<String, Object> node(Topology t, TopologyNode n) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", n.kind().jsonName());
        m.put("id", n.id());
        m.put("cpus", n.cpus().toList());
        if (!n.caches().isEmpty()) m.put("caches", cacheList(n.caches()));
        List<Integer> numa = numaHere(t, n);
        if (!numa.isEmpty()) m.put("numaNodes", numa);
        if (!n.children().isEmpty()) {
            List<Object> kids = new ArrayList<>();
            for (TopologyNode c : n.children()) kids.add(node(t, c));
            m.put("children", kids);
        }
        return m;
    }

    private static List<Object> cacheList(List<Cache> caches) {
        List<Object> out = new ArrayList<>();
        for (Cache c : caches) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", c.name());
            m.put("level", c.level());
            m.put("type", c.type().jsonName());
            m.put("sizeBytes", c.sizeBytes());
            m.put("lineSize", c.lineSize());
            m.put("ways", c.ways());
            m.put("cpus", c.cpus().toList());
            out.add(m);
        }
        return out;
    }

    /** NUMA nodes whose CPUs this object holds and no smaller child holds whole. */
    private static List<Integer> numaHere(Topology t, TopologyNode n) {
        List<Integer> ids = new ArrayList<>();
        for (NumaNode node : t.numaNodes()) {
            CpuMask cpus = node.cpus();
            if (cpus.isEmpty() || !cpus.isSubsetOf(n.cpus())) continue;
            boolean deeper = false;
            for (TopologyNode c : n.children()) {
                // a die or cluster with the package's own CPUs is not "deeper": the node stays on the package
                if (c.kind() != TopologyNode.Kind.PU && c.kind() != TopologyNode.Kind.CORE && cpus.isSubsetOf(c.cpus())
                        && !c.cpus().sameCpus(n.cpus())) {
                    deeper = true;
                }
            }
            if (!deeper) ids.add(node.id());
        }
        return ids;
    }
}
