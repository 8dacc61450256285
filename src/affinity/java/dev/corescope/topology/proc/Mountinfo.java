package dev.corescope.topology.proc;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code /proc/self/mountinfo} ({@code proc(5)}): one mount a line,
 * {@code 36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue}:
 * the mount's root within its filesystem (field 4), its mount point (field 5), and after the
 * {@code -} the filesystem type and the super options. Space, tab, newline and backslash are
 * written as octal escapes, undone here.
 */
public final class Mountinfo {

    /** The file, relative to a root. */
    public static final String FILE = "proc/self/mountinfo";

    /**
     * One mount.
     *
     * @param root       the directory of the filesystem that is mounted ({@code /} for all of it)
     * @param point      where it is mounted, absolute ({@code /sys/fs/cgroup})
     * @param fsType     {@code cgroup2}, {@code cgroup}, {@code ext4}, ...
     * @param superOptions the options after the source, split at commas ({@code rw,cpu,cpuacct} for a v1 cgroup)
     */
    public record Mount(String root, String point, String fsType, List<String> superOptions) {
        /** A mount; the options are copied. */
        public Mount {
            superOptions = List.copyOf(superOptions);
        }

        /** {@return whether this is the cgroup mount of a controller's files: {@code cgroup2} (v2), or {@code cgroup} with the controller (v1)} */
        public boolean isCgroup(boolean v2, String controller) {
            return v2 ? fsType.equals("cgroup2") : fsType.equals("cgroup") && superOptions.contains(controller);
        }
    }

    private Mountinfo() {
    }

    /** {@return the mounts under the reader's root, in file order; empty when the file is absent or unreadable} */
    public static Optional<List<Mount>> read(SysfsReader r) {
        return r.readLines(FILE).map(Mountinfo::parse);
    }

    /** {@return the mounts of the file's lines, in order; lines without {@code -} or with too few fields are skipped} */
    public static List<Mount> parse(List<String> lines) {
        List<Mount> out = new ArrayList<>();
        for (String line : lines) {
            int dash = line.indexOf(" - ");
            if (dash < 0) continue;
            String[] pre = line.substring(0, dash).split(" ");
            String[] post = line.substring(dash + 3).split(" ");
            if (pre.length < 5 || post.length < 1 || post[0].isEmpty()) continue;
            List<String> options = post.length >= 3 ? List.of(post[2].split(",")) : List.of();
            out.add(new Mount(unescape(pre[3]), unescape(pre[4]), post[0], options));
        }
        return out;
    }

    /** mountinfo escapes space, tab, newline and backslash as octal. */
    static String unescape(String s) {
        return s.replace("\\040", " ").replace("\\011", "\t").replace("\\012", "\n").replace("\\134", "\\");
    }
}
