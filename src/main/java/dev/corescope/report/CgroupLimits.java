package dev.corescope.report;

import dev.corescope.topology.Topology;
import dev.corescope.topology.proc.CgroupCpuset;
import dev.corescope.topology.proc.CgroupQuota;
import dev.corescope.topology.proc.SysfsReader;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The environment's cgroup fields: the cpuset (the topology's, read once by its reader, when
 * there is a topology) and the CPU quota ({@link CgroupQuota}), with the cgroup paths they came
 * from. All null when the root has no {@code /proc/self/cgroup}.
 *
 * @param path      the cgroup path(s), cpuset's first, comma-separated; null when none was found
 * @param cpuset    the cgroup's effective cpuset as a cpulist, or null
 * @param quota     {@link CgroupQuota#describe()}, or null without a quota file
 * @param quotaCpus the quota in CPUs when it limits, else null
 */
record CgroupLimits(String path, String cpuset, String quota, Double quotaCpus) {

    /** Parsing width for a cgroup's cpuset when there is no topology to size it: far above any NR_CPUS. */
    private static final int NBITS = 1 << 16;

    private static final CgroupLimits NONE = new CgroupLimits(null, null, null, null);

    /** The cgroup of the reader's root; {@code topology} (null: none) gives the cpuset when there is one. */
    static CgroupLimits read(SysfsReader r, Topology topology) {
        if (r.read(CgroupCpuset.FILE).isEmpty()) return NONE;
        List<String> paths = new ArrayList<>();
        Optional<CgroupCpuset> cs = topology != null ? topology.cgroupCpuset() : CgroupCpuset.read(r, NBITS);
        String cpuset = cs.map(c -> c.cpus().toList()).orElse(null);
        cs.ifPresent(c -> paths.add(c.cgroup()));
        Optional<CgroupQuota> q = CgroupQuota.read(r);
        q.ifPresent(x -> {
            if (!paths.contains(x.cgroup())) paths.add(x.cgroup());
        });
        return new CgroupLimits(paths.isEmpty() ? null : String.join(", ", paths), cpuset,
                q.map(CgroupQuota::describe).orElse(null),
                q.filter(CgroupQuota::limited).map(CgroupQuota::cpus).orElse(null));
    }
}
