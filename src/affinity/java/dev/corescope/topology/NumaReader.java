package dev.corescope.topology;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.text.Shorten;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * NUMA nodes from {@code sys/devices/system/node/nodeN} ({@code cpulist} or {@code cpumap},
 * {@code meminfo}, {@code distance}); without {@code node/} (a kernel without NUMA) one node
 * holding every online CPU and {@code /proc/meminfo}'s memory, as hwloc does, with a warning.
 */
final class NumaReader extends ReadingPart {

    private static final String NODE = TopologyReader.NODE;


    NumaReader(Reading x) {
        super(x);
    }

    /** The nodes of {@code node/nodeN}, or one node with every online CPU where the kernel has no NUMA. */
    List<NumaNode> read() {
        List<NumaNode> nodes = new ArrayList<>();
        List<Integer> ids = new ArrayList<>();
        for (String name : r.list(NODE)) {
            if (name.length() > 4 && name.startsWith("node") && Reading.isDigits(name, 4)) ids.add(nodeNumber(name));
        }
        ids.sort(null);
        if (ids.isEmpty()) {
            long mem = memTotal("proc/meminfo", "MemTotal:");
            warnings.add("no " + NODE + "/nodeN (a kernel without NUMA): one NUMA node with all CPUs assumed");
            nodes.add(new NumaNode(0, online, mem, List.of()));
            return nodes;
        }
        for (int id : ids) {
            String p = NODE + "/node" + id;
            CpuMask cpus = r.readList(p + "/cpulist", nbits)
                    .or(() -> r.readMap(p + "/cpumap", nbits))
                    .orElseGet(() -> {
                        r.problem(p + "/cpulist", "missing; node taken as without CPUs");
                        return CpuMask.empty(nbits);
                    }).and(online);
            long mem = memTotal(p + "/meminfo", "MemTotal:");
            List<Integer> dist = new ArrayList<>();
            Optional<String> d = r.read(p + "/distance");
            if (d.isPresent()) {
                for (String tok : Sizes.words(d.get())) {
                    try {
                        dist.add(Integer.parseInt(tok));
                    } catch (NumberFormatException e) {
                        r.problem(p + "/distance", "not a list of numbers");
                        dist.clear();
                        break;
                    }
                }
            }
            nodes.add(new NumaNode(id, cpus, mem, dist));
        }
        return nodes;
    }

    /**
     * The number of {@code node/nodeN}; a number beyond {@link TopologyReader#MAX_CPUS} (Linux
     * allows 1024 nodes, {@code CONFIG_NODES_SHIFT} at most 10) is refused with the name and why.
     */
    private int nodeNumber(String name) {
        String digits = name.substring(4);
        long n = digits.length() > 9 ? Long.MAX_VALUE : Long.parseLong(digits);
        if (n >= TopologyReader.MAX_CPUS) {
            throw new IllegalArgumentException(r.root().resolve(NODE).resolve(Shorten.end(name, 40))
                    + ": NUMA node " + (n == Long.MAX_VALUE ? Shorten.end(digits, 20) : n) + " is beyond "
                    + (TopologyReader.MAX_CPUS - 1) + ", the largest node number corescope reads (Linux has at most 1024 nodes)");
        }
        return (int) n;
    }

    /** {@code MemTotal: N kB} in /proc/meminfo, or {@code Node 0 MemTotal: N kB} in a node's meminfo; -1 when absent. */
    private long memTotal(String rel, String key) {
        Optional<List<String>> lines = r.readLines(rel);
        if (lines.isEmpty()) return -1;
        for (String line : lines.get()) {
            int i = line.indexOf(key);
            if (i < 0) continue;
            String rest = line.substring(i + key.length()).strip();
            String[] parts = Sizes.words(rest).toArray(new String[0]);
            if (parts.length == 0) continue;
            try {
                long v = Long.parseLong(parts[0]);
                if (v < 0 || v > Long.MAX_VALUE / 1024) {
                    r.problem(rel, "MemTotal is not a size");
                    return -1;
                }
                return parts.length > 1 && parts[1].equalsIgnoreCase("kB") ? v * 1024 : v;
            } catch (NumberFormatException e) {
                r.problem(rel, "MemTotal is not a number");
                return -1;
            }
        }
        return -1;
    }
}
