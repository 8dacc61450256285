package dev.corescope.fleet;

import dev.corescope.bench.Families;
import dev.corescope.report.MachineSummary;
import dev.corescope.report.ResultsFile;
import dev.corescope.topology.Topology;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A node-feature-discovery local feature file ({@code name=value} lines for
 * {@code /etc/kubernetes/node-feature-discovery/features.d/}): nfd-worker turns each line into
 * the node label {@code NAME=VALUE}. Names are {@code feature.node.kubernetes.io/corescope-...}
 * by default: NFD's customization guide says unprefixed names should not be used, and its
 * DisableAutoPrefix gate stops prefixing them; another prefix is an nfd-master
 * {@code -extra-label-ns}. The part after the prefix is lower case, at most 63 characters; values are few: booleans, small counts, and latencies
 * and jitter in buckets ({@code c2c-other-l3-p50-ns=100-150}, the relation a {@code topology.Placement} key), so a label changes when the
 * machine does, not on every run. docs/fleet.md lists every key and bucket.
 */
public final class NfdFeatures {

    /** Bucket bounds of core-to-core latencies, in ns; the last bucket is {@code 1000-plus}. */
    static final int[] LATENCY_NS = {0, 25, 50, 100, 150, 200, 300, 500, 1000};
    /** Decades for jitter, in µs and in gaps per second. */
    static final int[] DECADES = {0, 1, 10, 100, 1000};

    private NfdFeatures() {
    }

    /** The label prefix nfd-worker's own features use, and the default here. */
    public static final String PREFIX = "feature.node.kubernetes.io/";

    /**
     * The file: a comment naming the tool, then one {@code prefix + key=value} per line, from
     * the machine and the results files (a key from several files: the last file's value).
     */
    public static String render(Topology t, List<ResultsFile> results, String prefix) {
        Map<String, String> f = new LinkedHashMap<>();
        if (results.isEmpty()) f.putAll(features(t, null));
        for (ResultsFile r : results) f.putAll(features(t, r));
        StringBuilder sb = new StringBuilder("# corescope export --format nfd: node labels " + prefix + "corescope-KEY=VALUE (docs/fleet.md)\n");
        for (Map.Entry<String, String> e : f.entrySet()) sb.append(prefix).append(e.getKey()).append('=').append(e.getValue()).append('\n');
        return sb.toString();
    }

    /**
     * {@code prefix} when it is empty or a DNS subdomain followed by {@code /}, as Kubernetes
     * label prefixes are.
     *
     * @throws IllegalArgumentException saying what a prefix is
     */
    public static String checkPrefix(String prefix) {
        if (prefix.isEmpty() || (prefix.length() <= 254 && prefix.matches("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/"))) {
            return prefix;
        }
        throw new IllegalArgumentException("'" + prefix + "' is not a label prefix: a DNS subdomain and a slash, e.g. "
                + PREFIX + " or corescope.example.org/, or empty");
    }

    /** The features, in the order written. */
    public static Map<String, String> features(Topology t, ResultsFile results) {
        Map<String, String> f = new LinkedHashMap<>();
        Topology.Summary s = t.summary();
        f.put("corescope-packages", Integer.toString(s.packages()));
        f.put("corescope-numa-nodes", Integer.toString(s.numaNodes()));
        f.put("corescope-cores", Integer.toString(s.cores()));
        f.put("corescope-cpus-online", Integer.toString(t.online().weight()));
        t.smt().ifPresent(on -> f.put("corescope-smt", Boolean.toString(on)));
        f.put("corescope-hybrid", Boolean.toString(t.coreKinds().size() > 1));
        f.put("corescope-last-level-caches", Integer.toString(t.lastLevelCaches().size()));
        f.put("corescope-isolated-cpus", Boolean.toString(!t.isolated().isEmpty()));
        f.put("corescope-nohz-full", Boolean.toString(!t.nohzFull().isEmpty()));
        if (results != null) {
            MachineSummary m = MachineSummary.of(results, Families.views());
            for (String rel : MachineSummary.RELATIONS) {
                m.latency(rel, "java").ifPresent(r -> f.put("corescope-c2c-" + rel + "-p50-ns", bucket(r.p50Ns(), LATENCY_NS)));
            }
            if (m.jitter() != null) {
                f.put("corescope-jitter-max-gap-us", bucket(m.jitter().maxGapNs().p50() / 1000.0, DECADES));
                f.put("corescope-jitter-worst-max-gap-us", bucket(m.jitter().maxGapNs().max() / 1000.0, DECADES));
                f.put("corescope-jitter-interruptions-per-s", bucket(m.jitter().interruptionsPerSecond().p50(), DECADES));
            }
        }
        return f;
    }

    /** {@code 100-150} for 120 in {0, 25, ..., 1000}; {@code 1000-plus} from the last bound up. */
    static String bucket(double v, int[] bounds) {
        for (int i = 1; i < bounds.length; i++) if (v < bounds[i]) return bounds[i - 1] + "-" + bounds[i];
        return bounds[bounds.length - 1] + "-plus";
    }
}
