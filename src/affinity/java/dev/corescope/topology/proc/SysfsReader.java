package dev.corescope.topology.proc;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.cpumask.CpuMaskFormatException;
import dev.corescope.sys.Errno;
import dev.corescope.sys.NativeException;
import dev.corescope.sys.NativeUnavailableException;
import dev.corescope.sys.internal.BeneathDirectory;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.SequencedSet;

/**
 * Reads small text files under a root ({@code /} or a saved tree) and remembers every path it
 * read, so that {@code topology.Capture} saves exactly what the reader looked at.
 *
 * <p>Paths are relative to the root, e.g. {@code sys/devices/system/cpu/online}. A missing file is
 * an ordinary answer ({@code Optional.empty()}); one that exists but cannot be read is recorded as a
 * problem, which names the path and never quotes what a file holds. Every parser of /proc and /sys
 * reads through one of these, so the size cap, the refusal of FIFOs and devices and the root hold
 * for each file corescope reads.
 *
 * <p>A saved tree is read as if it were the root: each path is opened beneath it by the kernel
 * ({@code sys.internal.BeneathDirectory}, {@code openat2} with {@code RESOLVE_BENEATH}), so a link
 * planted in a capture ({@code core_id -> /etc/machine-id}) reads nothing of this machine; where
 * {@code openat2} is missing, a real-path check ({@link #containment()}); docs/files-and-signals.md has the details.
 *
 * <p><b>Note:</b> not thread-safe; one reader per {@code Topology} being built.
 */
public final class SysfsReader {

    /** sysfs attributes are a page at most, /proc/cpuinfo of 4096 CPUs a few MB: larger is no file to read. */
    private static final long MAX_FILE_BYTES = 64L << 20;

    /** The most CPU numbers read from a tree: 8 times the largest CONFIG_NR_CPUS (8192); a higher CPU is refused. */
    public static final int MAX_CPUS = 65536;

    private final Path root;
    private BeneathDirectory tree;
    private String containment;
    private final boolean realPathCheckOnly;
    private final Map<String, byte[]> filesRead = new LinkedHashMap<>();
    private final SequencedSet<String> dirsSeen = new LinkedHashSet<>();
    private final List<String> problems = new ArrayList<>();
    private final SequencedSet<String> unreadable = new LinkedHashSet<>();

    private final boolean keepBytes;
    private final boolean recordPaths;

    private static final byte[] NOT_KEPT = new byte[0];

    /** A reader of {@code root} ({@code /} or a saved tree holding {@code sys/} and {@code proc/}) that records the paths it reads, not their bytes. */
    public SysfsReader(Path root) {
        this(root, false);
    }

    /** A reader that keeps the bytes it reads ({@code capture}), or records their paths only. */
    public SysfsReader(Path root, boolean keepBytes) {
        this(root, keepBytes, false, true);
    }

    /** @param realPathCheckOnly use the real-path check even where {@code openat2} works (its tests) */
    SysfsReader(Path root, boolean keepBytes, boolean realPathCheckOnly, boolean recordPaths) {
        this.root = root;
        this.keepBytes = keepBytes;
        this.realPathCheckOnly = realPathCheckOnly;
        this.recordPaths = recordPaths;
    }

    /** A reader that records no file it reads (problems and directories still): for a command that saves nothing. */
    public static SysfsReader unrecorded(Path root) {
        return new SysfsReader(root, false, false, false);
    }

    /** Whether {@link #filesRead()} records the files read (false for {@link #unrecorded}). */
    public boolean recordsFiles() {
        return recordPaths;
    }

    /** Records what was learned other than from a file (the CPUID leaves) as a file, which {@code --root} reads back. */
    public void remember(String rel, byte[] bytes) {
        if (recordPaths) filesRead.put(rel, keepBytes ? bytes : NOT_KEPT);
    }

    /**
     * How paths are kept inside the root: {@code "root"} for {@code /}, {@code "openat2 beneath
     * the tree"}, or {@code "real-path check (...)"} with the reason {@code openat2} is not used.
     */
    public String containment() {
        tree();
        return containment;
    }

    /** Whether {@link #filesRead()} holds the bytes read ({@code capture}) or empty arrays. */
    public boolean keepsBytes() {
        return keepBytes;
    }

    /** The root every relative path is read under. */
    public Path root() {
        return root;
    }

    /**
     * The file's text, stripped of white space and NULs (hwloc's saved trees end some files with one) at both ends.
     *
     * @return the text, or empty when the file does not exist, cannot be read (recorded in
     *         {@link #unreadable()}) or leads outside a saved tree (recorded in {@link #problems()})
     */
    public Optional<String> read(String rel) {
        return bytes(rel).map(b -> clean(new String(b, StandardCharsets.UTF_8)));
    }

    /** {@return the file's lines (for /proc files), or empty as for {@link #read(String)}} */
    public Optional<List<String>> readLines(String rel) {
        return bytes(rel).map(b -> new String(b, StandardCharsets.UTF_8).lines().toList());
    }

    /** The bytes of a regular file (links followed), at most {@link #MAX_FILE_BYTES}; a FIFO, device or socket is refused unread. */
    private Optional<byte[]> bytes(String rel) {
        if (tree() == null) return Optional.empty();
        BeneathDirectory.File f;
        try {
            f = tree.read(rel, MAX_FILE_BYTES);
        } catch (NativeException e) {
            refused(rel, e, "cannot be read");
            return Optional.empty();
        }
        if (f.kind() != BeneathDirectory.Kind.REGULAR) {
            unreadable.add(rel);
            problem(rel, f.kind() == BeneathDirectory.Kind.DIRECTORY ? "is a directory" : "not a regular file");
            return Optional.empty();
        }
        if (f.bytes() == null || f.bytes().length > MAX_FILE_BYTES) {
            unreadable.add(rel);
            problem(rel, "larger than the cap of " + (MAX_FILE_BYTES >> 20) + " MiB for a file corescope reads (refused unread)");
            return Optional.empty();
        }
        remember(rel, f.bytes());
        return Optional.of(f.bytes());
    }

    /** Records why an open beneath the tree failed; a path that does not exist records nothing. */
    private void refused(String rel, NativeException e, String verb) {
        Errno errno = e.errno();
        if (errno == Errno.ENOENT || errno == Errno.ENOTDIR) return;
        unreadable.add(rel);
        problem(rel, switch (errno) {
            case EXDEV -> "a symbolic link that leads out of the tree (refused: a saved tree is read as if it were the root)";
            case ELOOP -> "a link that cannot be followed beneath the tree (a loop or a /proc magic link; refused)";
            case EACCES, EPERM -> "permission denied";
            default -> verb + ": " + errno.name();
        });
    }

    /** The root opened for reading beneath it ({@code /} too), with {@code openat2} or the real-path check; null when it cannot be. */
    private BeneathDirectory tree() {
        if (containment != null) return tree;
        boolean slash = root.toAbsolutePath().normalize().getParent() == null;
        Optional<String> why = realPathCheckOnly ? Optional.of("asked for") : BeneathDirectory.unavailable();
        containment = slash ? "root" : why.isPresent() ? "real-path check (" + why.get() + ")" : "openat2 beneath the tree";
        try {
            tree = BeneathDirectory.open(root, why.isPresent());
        } catch (NativeException e) {
            containment = "the tree cannot be opened: " + e.errno().name();
        } catch (NativeUnavailableException e) {
            containment = "files cannot be read: " + e.getMessage();
        }
        return tree;
    }

    /**
     * An integer file, e.g. {@code core_id}.
     *
     * @return the value, or empty when absent, unreadable or not an {@code int} (the last two recorded)
     */
    public OptionalInt readInt(String rel) {
        OptionalLong v = readLong(rel);
        if (v.isEmpty()) return OptionalInt.empty();
        if (v.getAsLong() != (int) v.getAsLong()) {
            problem(rel, "not an integer: \"" + v.getAsLong() + "\" is out of range");
            return OptionalInt.empty();
        }
        return OptionalInt.of((int) v.getAsLong());
    }

    /**
     * A 64-bit integer file, e.g. a cache's {@code size} in bytes or a counter.
     *
     * @return the value, or empty when absent, unreadable or not a number (recorded, without
     *         quoting the file)
     */
    public OptionalLong readLong(String rel) {
        Optional<String> s = read(rel);
        if (s.isEmpty()) return OptionalLong.empty();
        try {
            return OptionalLong.of(Long.parseLong(s.get()));
        } catch (NumberFormatException e) {
            // the path, never the content: what a file holds is not repeated in a warning
            problem(rel, "not an integer (" + s.get().length() + " characters)");
            return OptionalLong.empty();
        }
    }

    /**
     * A cpulist file ({@code 0-3,8}) as a mask of {@code nbits}, CPUs beyond dropped; the same text gives the
     * same mask instance (a package's list is read once per CPU, and at 8192 CPUs a mask is 1 KiB).
     *
     * @return the mask, or empty when absent, unreadable or not a cpulist (recorded)
     */
    public Optional<CpuMask> readList(String rel, int nbits) {
        return mask(rel, nbits, false);
    }

    /**
     * A hex cpumap file ({@code 00000000,00000101}) as {@link #readList} reads a list.
     *
     * @return the mask, or empty when absent, unreadable or not a cpumap (recorded)
     */
    public Optional<CpuMask> readMap(String rel, int nbits) {
        return mask(rel, nbits, true);
    }

    /** Masks parsed at {@link #parsedNbits} bits, by the bytes read (lists and maps apart): a text seen before costs a hash. */
    private final Map<ByteBuffer, CpuMask> parsedLists = new HashMap<>();
    private final Map<ByteBuffer, CpuMask> parsedMaps = new HashMap<>();
    private int parsedNbits = -1;

    private Optional<CpuMask> mask(String rel, int nbits, boolean map) {
        Optional<byte[]> b = bytes(rel);
        if (b.isEmpty()) return Optional.empty();
        if (nbits != parsedNbits) {
            parsedLists.clear();
            parsedMaps.clear();
            parsedNbits = nbits;
        }
        Map<ByteBuffer, CpuMask> parsed = map ? parsedMaps : parsedLists;
        ByteBuffer key = ByteBuffer.wrap(b.get());
        CpuMask m = parsed.get(key);
        if (m == null) {
            String text = clean(new String(b.get(), StandardCharsets.UTF_8));
            try {
                m = map ? parseMap(text, nbits) : parseList(text, nbits);
            } catch (CpuMaskFormatException e) {
                problem(rel, "not a CPU " + (map ? "map" : "list") + " (" + contentFree(e) + ")");  // a bad text is not kept
                return Optional.empty();
            }
            parsed.put(key, m);
        }
        return Optional.of(m);
    }

    /**
     * The hex map file, else the list file ({@code shared_cpu_map}, {@code shared_cpu_list}). The map first, as
     * hwloc reads it: old saved trees have lists that disagree with their maps, and counts were made from the maps.
     *
     * @return the mask, or empty when neither can be read
     */
    public Optional<CpuMask> readMapOrList(String mapRel, String listRel, int nbits) {
        Optional<CpuMask> m = readMap(mapRel, nbits);
        return m.isPresent() ? m : readList(listRel, nbits);
    }

    /** Why a mask did not parse, without quoting the file. */
    public static String contentFree(CpuMaskFormatException e) {
        return switch (e.code()) {
            case EINVAL -> "malformed";
            case ERANGE -> "a number out of range";
            case EOVERFLOW -> "a CPU number too large";
        };
    }

    /**
     * The names in a directory, sorted. The listing is recorded for capture.
     *
     * @return the names (not paths), or an empty list when it is not a directory, cannot be
     *         listed (recorded) or leads outside a saved tree
     */
    public List<String> list(String rel) {
        if (tree() == null) return List.of();
        List<String> names;
        try {
            names = new ArrayList<>(tree.list(rel));
        } catch (NativeException e) {
            if (e.errno() == Errno.EXDEV || e.errno() == Errno.ELOOP) refused(rel, e, "cannot list");
            else if (e.errno() != Errno.ENOENT && e.errno() != Errno.ENOTDIR) problem(rel, "cannot list: " + e.errno().name());
            return List.of();
        }
        dirsSeen.add(rel);
        names.sort(null);
        return names;
    }

    /**
     * Whether {@code rel} is a directory; a yes is recorded, so capture keeps the directory.
     *
     * @return true for a directory inside the tree
     */
    public boolean isDirectory(String rel) {
        boolean dir = false;
        try {
            dir = tree() != null && tree.isDirectory(rel);
        } catch (NativeException e) {
            if (e.errno() == Errno.EXDEV || e.errno() == Errno.ELOOP) refused(rel, e, "cannot be read");
        }
        if (dir) dirsSeen.add(rel);
        return dir;
    }

    /** Records a problem with a file, for the topology's warnings; {@code why} never quotes the file (untrusted input). */
    public void problem(String rel, String why) {
        problems.add("could not read " + rel + ": " + why);
    }

    /** The problems recorded so far, in order ({@code could not read PATH: WHY}); the live list. */
    public List<String> problems() {
        return problems;
    }

    /** Every file read, in reading order (empty for {@link #unrecorded}): path to bytes, empty unless {@link #keepsBytes()}; the live map. */
    public Map<String, byte[]> filesRead() {
        return filesRead;
    }

    /** Files that exist but could not be read (permission, I/O error): capture lists them as skipped. */
    public List<String> unreadable() {
        return List.copyOf(unreadable);
    }

    /** Directories listed or found to be directories. */
    public List<String> dirsSeen() {
        return List.copyOf(dirsSeen);
    }

    /**
     * A cpulist as sysfs prints it ({@code 0-3,8}, empty or {@code (null)} for none), with CPUs
     * at or beyond {@code nbits} dropped instead of refused.
     *
     * @throws CpuMaskFormatException when it is not a cpulist, or names a CPU of {@link #MAX_CPUS} or more
     */
    public static CpuMask parseList(String text, int nbits) {
        String t = text.strip();
        if (t.isEmpty() || t.equals("(null)")) return CpuMask.empty(nbits);
        int last = lastNumber(t);
        if (last >= MAX_CPUS) throw beyondLimit(t, last);
        if (last < nbits) return CpuMask.parseList(t, nbits);  // the common case: no copy to resize
        return CpuMask.parseList(t, last + 1).resize(nbits);
    }

    /** A hex cpumap ({@code 00000000,00000101}), CPUs at or beyond {@code nbits} dropped; wider than {@link #MAX_CPUS} refused. */
    private static CpuMask parseMap(String text, int nbits) {
        String t = text.strip();
        if (t.isEmpty()) return CpuMask.empty(nbits);
        long bits = 32L * (1 + t.chars().filter(c -> c == ',').count());
        if (bits > MAX_CPUS) throw beyondLimit(t, bits - 1);
        return bits <= nbits ? CpuMask.parseHex(t, nbits) : CpuMask.parseHex(t, (int) bits).resize(nbits);
    }

    /** A mask naming CPUs no kernel has: refused before a bitmap is sized by it. */
    private static CpuMaskFormatException beyondLimit(String text, long cpu) {
        return new CpuMaskFormatException(text, CpuMaskFormatException.Code.EOVERFLOW,
                "CPU " + cpu + " is beyond " + (MAX_CPUS - 1) + ", the largest CPU number corescope reads");
    }

    /** The largest number in a cpulist (not checked), capped at 2^24, 0 for none: so that it can be parsed before nbits is known. */
    public static int lastNumber(String text) {
        int max = 0;
        int cur = -1;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c >= '0' && c <= '9') {
                cur = (cur < 0 ? 0 : cur) * 10 + (c - '0');
                if (cur > (1 << 24)) return 1 << 24;
            } else {
                if (cur > max) max = cur;
                cur = -1;
            }
        }
        return Math.max(max, cur);
    }

    /** {@code //a///b} → {@code /a/b}: one leading slash, none repeated. */
    public static String squeezeSlashes(String path) {
        return ("/" + path).replaceAll("/{2,}", "/");
    }

    private static String clean(String s) {
        int end = s.length();
        while (end > 0 && (s.charAt(end - 1) == '\0' || Character.isWhitespace(s.charAt(end - 1)))) end--;
        int start = 0;
        while (start < end && (s.charAt(start) == '\0' || Character.isWhitespace(s.charAt(start)))) start++;
        return s.substring(start, end);
    }
}
