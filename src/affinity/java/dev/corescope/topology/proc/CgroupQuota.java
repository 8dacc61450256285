package dev.corescope.topology.proc;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The CPU quota of this process's cgroup: v2's {@code cpu.max} ({@code 150000 100000}: 1.5
 * CPUs), else v1's {@code cpu.cfs_quota_us} over {@code cpu.cfs_period_us}. The cgroup is
 * found as {@link CgroupCpuset} finds it ({@code /proc/self/cgroup} under its mount from
 * {@code /proc/self/mountinfo}, or under {@code /sys/fs/cgroup} when mountinfo lists none), and
 * the tightest quota on the path up to the mount counts: a parent's limit binds its children.
 *
 * @param cpus   the quota in CPUs; {@link Double#POSITIVE_INFINITY} for {@code max} or {@code -1} (no limit)
 * @param source what was read: {@code cgroup v2 cpu.max 150000 100000}
 * @param cgroup which cgroup: its path for v2, {@code cpu:PATH} for v1
 */
public record CgroupQuota(double cpus, String source, String cgroup) {

    private CgroupQuota withCgroup(String c) {
        return new CgroupQuota(cpus, source, c);
    }

    /** {@return whether a limit applies: false for {@code max}} */
    public boolean limited() {
        return !Double.isInfinite(cpus);
    }

    /** {@return the quota for a person, e.g. {@code 1.50 CPUs (cgroup v2 cpu.max 150000 100000)}, or {@code none}} */
    public String describe() {
        return limited() ? String.format(Locale.ROOT, "%.2f CPUs (%s)", cpus, source) : "none";
    }

    /** {@return the CPU quota of this process's cgroup under the reader's root; empty without a cgroup or quota file} */
    public static Optional<CgroupQuota> read(SysfsReader r) {
        Optional<List<String>> self = r.readLines(CgroupCpuset.FILE);
        if (self.isEmpty()) return Optional.empty();
        String v2Path = null;
        Map<String, String> v1Paths = new LinkedHashMap<>();
        for (String line : self.get()) {
            String[] f = line.split(":", 3);
            if (f.length < 3) continue;
            if (f[0].equals("0") && f[1].isEmpty()) {
                v2Path = f[2].strip();
            } else {
                for (String controller : f[1].split(",")) v1Paths.put(controller, f[2].strip());
            }
        }
        List<Mountinfo.Mount> mounts = Mountinfo.read(r).orElse(List.of()).stream()
                .filter(m -> m.fsType().equals("cgroup") || m.fsType().equals("cgroup2")).toList();
        if (v2Path != null) {
            String dir = locate(r, mounts, true, null, v2Path);
            if (dir != null) {
                Optional<CgroupQuota> q = tightest(r, dir, mounts, true, null, CgroupQuota::v2);
                if (q.isPresent()) return Optional.of(q.get().withCgroup(v2Path));
            }
        }
        if (v1Paths.containsKey("cpu")) {
            String dir = locate(r, mounts, false, "cpu", v1Paths.get("cpu"));
            if (dir != null) {
                Optional<CgroupQuota> q = tightest(r, dir, mounts, false, "cpu", CgroupQuota::v1);
                if (q.isPresent()) return Optional.of(q.get().withCgroup("cpu:" + v1Paths.get("cpu")));
            }
        }
        return Optional.empty();
    }

    private interface QuotaFile {
        CgroupQuota read(SysfsReader r, String dir);
    }

    private static CgroupQuota v2(SysfsReader r, String dir) {
        Optional<String> max = r.read(join(dir, "cpu.max"));
        if (max.isEmpty()) return null;
        String[] w = max.get().split("\\s+");
        if (w.length < 2) return null;
        if (w[0].equals("max")) return new CgroupQuota(Double.POSITIVE_INFINITY, "cpu.max " + max.get(), null);
        return new CgroupQuota(Double.parseDouble(w[0]) / Double.parseDouble(w[1]), "cgroup v2 cpu.max " + max.get(), null);
    }

    private static CgroupQuota v1(SysfsReader r, String dir) {
        Optional<String> qs = r.read(join(dir, "cpu.cfs_quota_us"));
        Optional<String> ps = r.read(join(dir, "cpu.cfs_period_us"));
        if (qs.isEmpty() || ps.isEmpty()) return null;
        long qv = Long.parseLong(qs.get());
        long pv = Long.parseLong(ps.get());
        if (qv < 0) return new CgroupQuota(Double.POSITIVE_INFINITY, "cpu.cfs_quota_us -1", null);
        return new CgroupQuota((double) qv / pv, "cgroup v1 cpu.cfs_quota_us " + qv + " / cpu.cfs_period_us " + pv, null);
    }

    /** The smallest quota from {@code dir} up to its mount point (root-relative paths). */
    private static Optional<CgroupQuota> tightest(SysfsReader r, String dir, List<Mountinfo.Mount> mounts, boolean v2,
                                                  String controller, QuotaFile file) {
        String stop = mountPointOf(dir, mounts, v2, controller);
        CgroupQuota best = null;
        for (String d = dir; d != null; d = parent(d)) {
            CgroupQuota q;
            try {
                q = file.read(r, d);
            } catch (NumberFormatException e) {
                q = null;
            }
            if (q != null && (best == null || q.cpus < best.cpus)) best = q;
            if (stop == null || d.equals(stop)) break;
        }
        return Optional.ofNullable(best);
    }

    private static String mountPointOf(String dir, List<Mountinfo.Mount> mounts, boolean v2, String controller) {
        String best = null;
        for (Mountinfo.Mount m : mounts) {
            if (!m.isCgroup(v2, controller)) continue;
            String p = rel(m.point());
            if (under(dir, p) && (best == null || p.length() > best.length())) best = p;
        }
        return best;
    }

    /** The root-relative directory of cgroup {@code path} under its mount, or null when it is not there. */
    private static String locate(SysfsReader r, List<Mountinfo.Mount> mounts, boolean v2, String controller, String path) {
        List<String> candidates = new ArrayList<>();
        boolean any = false;
        for (Mountinfo.Mount m : mounts) {
            if (!m.isCgroup(v2, controller)) continue;
            any = true;
            String p = path;
            if (!m.root().equals("/") && (p.equals(m.root()) || p.startsWith(m.root() + "/"))) p = p.substring(m.root().length());
            candidates.add(join(rel(m.point()), p));
            candidates.add(rel(m.point()));
        }
        if (mounts.isEmpty() && !any) {
            String base = "sys/fs/cgroup";
            if (v2) {
                candidates.add(join(base, path));
                candidates.add(join(base + "/unified", path));
            } else {
                candidates.add(join(base + "/" + controller, path));
                candidates.add(join(base + "/cpu,cpuacct", path));
            }
        }
        for (String c : candidates) if (c != null && r.isDirectory(c)) return c;
        return null;
    }

    /** {@code /sys/fs/cgroup} → {@code sys/fs/cgroup}; {@code /} → the empty string. */
    private static String rel(String absolute) {
        return SysfsReader.squeezeSlashes(absolute).substring(1).replaceAll("/$", "");
    }

    /** {@code base/rel} squeezed, or null when it climbs out with {@code ..}. */
    private static String join(String base, String rel) {
        String p = SysfsReader.squeezeSlashes(base + "/" + rel).substring(1).replaceAll("/$", "");
        return p.equals("..") || p.startsWith("../") || p.contains("/../") || p.endsWith("/..") ? null : p;
    }

    private static String parent(String d) {
        if (d.isEmpty()) return null;
        int i = d.lastIndexOf('/');
        return i < 0 ? "" : d.substring(0, i);
    }

    private static boolean under(String dir, String p) {
        return p.isEmpty() || dir.equals(p) || dir.startsWith(p + "/");
    }
}
