package dev.corescope.topology.proc;

import dev.corescope.cpumask.CpuMask;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The cpuset of this process's cgroup, found as the JDK's container support finds it: the
 * process's line in {@code /proc/self/cgroup}, located under its mount from
 * {@code /proc/self/mountinfo}. v2's {@code cpuset.cpus.effective} first, then v1's
 * {@code cpuset.effective_cpus} (or {@code cpuset.cpus}); the nearest cgroup on the path up to
 * the mount that has the file counts. One rule for the topology and the environment.
 *
 * @param cpus   the effective CPUs
 * @param cgroup which cgroup: its path for v2 ({@code /user.slice/x.scope}), {@code cpuset:PATH} for v1
 */
public record CgroupCpuset(CpuMask cpus, String cgroup) {

    /** The process's cgroups: {@code 0::/path} (v2), {@code N:controllers:/path} (v1). */
    public static final String FILE = "proc/self/cgroup";


    /** {@return this process's effective cpuset, read through {@code r}; empty as {@link #read(SysfsReader, int)}} */
    public static Optional<CgroupCpuset> read(SysfsReader r, int nbits) {
        Optional<List<String>> cgroups = r.readLines(FILE);
        if (cgroups.isEmpty()) return Optional.empty();
        Optional<List<Mountinfo.Mount>> mounts = Mountinfo.read(r);
        if (mounts.isEmpty()) return Optional.empty();
        for (boolean v2 : new boolean[] {true, false}) {
            for (String line : cgroups.get()) {
                String[] f = line.split(":", 3);
                if (f.length < 3) continue;
                boolean isV2 = f[0].equals("0") && f[1].isEmpty();
                if (v2 ? !isV2 : !List.of(f[1].split(",")).contains("cpuset")) continue;
                Optional<CpuMask> cpus = find(r, mounts.get(), v2, f[2], nbits);
                if (cpus.isPresent()) return Optional.of(new CgroupCpuset(cpus.get(), v2 ? f[2] : "cpuset:" + f[2]));
            }
        }
        return Optional.empty();
    }

    private static Optional<CpuMask> find(SysfsReader r, List<Mountinfo.Mount> mounts, boolean v2, String cgroupPath, int nbits) {
        for (Mountinfo.Mount m : mounts) {
            if (!m.isCgroup(v2, "cpuset")) continue;
            String mountRoot = m.root();
            String mountPoint = m.point();
            String path = cgroupPath;
            if (!mountRoot.equals("/") && path.startsWith(mountRoot)) path = path.substring(mountRoot.length());
            List<String> files = v2 ? List.of("cpuset.cpus.effective") : List.of("cpuset.effective_cpus", "cpuset.cpus");
            String dir = SysfsReader.squeezeSlashes(mountPoint + "/" + path);
            if (dir.length() > 1 && dir.endsWith("/")) dir = dir.substring(0, dir.length() - 1);
            while (true) {
                for (String file : files) {
                    String rel = SysfsReader.squeezeSlashes(dir + "/" + file).substring(1);
                    if (!rel.startsWith("..") && !rel.contains("/../")) {
                        Optional<CpuMask> cpus = r.readList(rel, nbits);
                        if (cpus.isPresent()) return cpus;
                    }
                }
                if (dir.equals(mountPoint) || dir.length() <= 1 || !dir.contains("/")) break;
                dir = dir.substring(0, dir.lastIndexOf('/'));
                if (dir.length() < mountPoint.length()) break;
            }
        }
        return Optional.empty();
    }
}
