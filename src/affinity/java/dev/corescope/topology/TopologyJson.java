package dev.corescope.topology;

import java.util.ArrayList;
import java.util.IdentityHashMap;
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

    /**
     * The report as indented JSON (CONTRACT.md's topology form), ending with a newline. Needs
     * no JSON library.
     *
     * @param t the topology
     * @return the JSON text
     */
    public static String render(Topology t) {
        return JsonText.write(toMap(t));
    }

    /**
     * The report as nested maps and lists, in field order: what {@link #render} writes.
     *
     * @param t the topology
     * @return a map of strings, numbers, booleans, lists and maps (insertion-ordered)
     */
    public static Map<String, Object> toMap(Topology t) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("source", t.source());
        m.put("cpuModel", t.cpuModel().orElse(null));
        Topology.Summary s = t.summary();
        m.put("summary", map("packages", s.packages(), "dies", s.dies(), "clusters", s.clusters(), "cores", s.cores(), "pus", s.pus(),
                "numaNodes", s.numaNodes()));

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

        m.put("caches", t.cacheGroups().stream().map(g -> map("level", g.level(), "type", g.type().jsonName(), "sizeBytes", g.sizeBytes(),
                "lineSize", g.lineSize(), "ways", g.ways(), "count", g.count())).toList());
        if (t.cacheSource().equals("cpuid")) m.put("cacheSource", "cpuid");  // sysfs has no cache/: the caches are CPUID's
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

        m.put("numaNodes", t.numaNodes().stream().map(n -> map("id", n.id(), "cpus", n.cpus().toList(), "memoryBytes", n.memoryBytes(),
                "distances", n.distances())).toList());

        List<Object> tree = new ArrayList<>();
        Map<TopologyNode, List<Integer>> numa = numaPlaces(t);
        for (TopologyNode r : t.roots()) tree.add(node(r, numa));
        m.put("packages", tree);
        if (!t.machineCaches().isEmpty()) m.put("machineCaches", cacheList(t.machineCaches()));
        m.put("warnings", t.warnings());
        return m;
    }

    private static Map<String, Object> node(TopologyNode n, Map<TopologyNode, List<Integer>> numaPlaces) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", n.kind().jsonName());
        m.put("id", n.id());
        m.put("cpus", n.cpus().toList());
        if (!n.caches().isEmpty()) m.put("caches", cacheList(n.caches()));
        List<Integer> numa = numaPlaces.get(n);
        if (numa != null) m.put("numaNodes", numa);
        if (!n.children().isEmpty()) {
            List<Object> kids = new ArrayList<>();
            for (TopologyNode c : n.children()) kids.add(node(c, numaPlaces));
            m.put("children", kids);
        }
        return m;
    }

    private static List<Object> cacheList(List<Cache> caches) {
        return caches.stream().<Object>map(c -> map("name", c.name(), "level", c.level(), "type", c.type().jsonName(), "sizeBytes", c.sizeBytes(),
                "lineSize", c.lineSize(), "ways", c.ways(), "cpus", c.cpus().toList())).toList();
    }

    /** An insertion-ordered map of the key-value pairs {@code kv} (values may be null). */
    private static Map<String, Object> map(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) m.put((String) kv[i], kv[i + 1]);
        return m;
    }

    /**
     * Where each NUMA node hangs in the tree: on the smallest object that holds all its CPUs,
     * the outermost of several with the same CPUs (a package rather than its one die).
     */
    private static Map<TopologyNode, List<Integer>> numaPlaces(Topology t) {
        Map<TopologyNode, List<Integer>> places = new IdentityHashMap<>();
        for (NumaNode node : t.numaNodes()) {
            if (node.cpus().isEmpty()) continue;
            TopologyNode at = null;
            List<TopologyNode> level = t.roots();
            boolean descended = true;
            while (descended) {
                descended = false;
                for (TopologyNode c : level) {
                    if (c.kind() == TopologyNode.Kind.PU || c.kind() == TopologyNode.Kind.CORE) continue;
                    if (!node.cpus().isSubsetOf(c.cpus())) continue;
                    if (at == null || !c.cpus().sameCpus(at.cpus())) at = c;
                    level = c.children();
                    descended = true;
                    break;
                }
            }
            if (at != null) places.computeIfAbsent(at, k -> new ArrayList<>()).add(node.id());
        }
        return places;
    }
}
