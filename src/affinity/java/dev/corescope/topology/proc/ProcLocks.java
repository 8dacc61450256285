package dev.corescope.topology.proc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code /proc/locks}: the file locks ({@code FLOCK}, {@code POSIX}, {@code OFDLCK}) held on the
 * machine, by the {@code major:minor:inode} of the locked file, with the holder's pid. Lines of
 * waiters ({@code 1: -> FLOCK ...}) are skipped: only holders count.
 *
 * <pre>
 * 1: FLOCK  ADVISORY  WRITE 4242 fe:00:2154301 0 EOF
 * 2: POSIX  ADVISORY  WRITE 4250 00:1b:17 0 EOF
 * </pre>
 */
public final class ProcLocks {

    /** The file, relative to a root. */
    public static final String FILE = "proc/locks";

    private ProcLocks() {
    }


    /** {@return {@code major:minor:inode} to holder pid, read through {@code r}; empty when the file cannot be read} */
    public static Optional<Map<String, Long>> read(SysfsReader r) {
        return r.readLines(FILE).map(ProcLocks::parse);
    }

    /** {@return a new map of {@code major:minor:inode} to the pid holding a lock on it; waiters and other lines skipped} */
    public static Map<String, Long> parse(List<String> lines) {
        Map<String, Long> out = new HashMap<>();
        for (String line : lines) {
            String[] f = line.trim().split("\\s+");
            // "1: FLOCK  ADVISORY  WRITE 4242 fe:00:2154301 0 EOF"; waiters have "->" after the number
            if (f.length < 6 || f[1].equals("->")) continue;
            try {
                out.put(f[5], Long.parseLong(f[4]));
            } catch (NumberFormatException e) {
                // not a lock line
            }
        }
        return out;
    }

    /** {@return {@code /proc/locks}' form of a file's device and inode ({@code fe:00:2154301}); empty when unreadable} */
    public static String key(Path file, LinkOption... options) {
        try {
            Map<String, Object> a = Files.readAttributes(file, "unix:dev,ino", options);
            return key((Long) a.get("dev"), (Long) a.get("ino"));
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    /** {@return {@code /proc/locks}' form of a device number and inode, e.g. {@code fe:00:2154301}} */
    public static String key(long dev, long ino) {
        long major = ((dev >>> 8) & 0xfff) | ((dev >>> 32) & 0xfffff000L);
        long minor = (dev & 0xff) | ((dev >>> 12) & 0xffffff00L);
        return String.format("%02x:%02x:%d", major, minor, ino);
    }
}
