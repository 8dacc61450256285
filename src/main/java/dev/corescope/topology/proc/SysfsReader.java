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
 * read, so that {@code topology.Capture} saves exactly what the reader looked at and the two cannot
 * drift apart.
 *
 * <p>Paths are relative to the root and written with {@code /}, e.g.
 * {@code sys/devices/system/cpu/online}. A file that does not exist is an ordinary answer
 * ({@code Optional.empty()}); a file that exists but cannot be read is recorded as a problem
 * with the reason. Saved trees from hwloc's test suite end some files with a NUL byte, which
 * is stripped with the surrounding white space.
 *
 * <p>Every parser of /proc and /sys in this package reads through one of these, so the size cap,
 * the refusal of FIFOs and devices and the root all hold for each file corescope reads.
 *
 * <p>A saved tree is read as if it were the root: every path is opened beneath the tree's
 * directory by the kernel ({@code sys.internal.BeneathDirectory}: {@code openat2} with
 * {@code RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS}), links inside the tree followed as sysfs's own
 * links must be, and a path that would leave it at any component refused at the open itself, so
 * a link planted in a capture ({@code core_id -> /etc/machine-id}) reads nothing of this machine.
 * Where {@code openat2} is not available ({@link #containment()} says why) each path is checked
 * against the tree's real path before it is opened, which a tree changed between the two steps
 * could still escape. A problem names the path and never quotes what a file holds.
 *
 * <p><b>Note:</b> not thread-safe; one reader per {@code Topology} being built.
 */
public final class SysfsReader {

    /**
     * sysfs attribute files are one page at most and /proc/cpuinfo of a 4096-CPU machine a few
     * megabytes; anything larger is not a file this reader means to read.
     */
    private static final long MAX_FILE_BYTES = 64L << 20;

    /**
     * The most CPU numbers corescope reads from a tree: eight times the largest CONFIG_NR_CPUS
     * of a mainline kernel (8192), room for kernels to come, and small enough that every mask of
     * a tree stays a few KiB. A file or {@code cpuN} folder naming CPU 65536 or above is refused
     * as not a real tree.
     */
    public static final int MAX_CPUS = 65536;

    private final Path root;
    /** The root opened for reading beneath it; null until the first read, or when it cannot be opened. */
    private BeneathDirectory tree;
    private String containment;
    private final boolean realPathCheckOnly;
    private final Map<String, byte[]> filesRead = new LinkedHashMap<>();
    private final SequencedSet<String> dirsSeen = new LinkedHashSet<>();
    private final List<String> problems = new ArrayList<>();
    private final SequencedSet<String> unreadable = new LinkedHashSet<>();

    /** Whether the bytes of each file are kept for {@code capture}, or only its path (every other command). */
    private final boolean keepBytes;
    /** Whether the path of each file read is recorded at all ({@link #unrecorded}: not). */
    private final boolean recordPaths;

    private static final byte[] NOT_KEPT = new byte[0];

    /** A reader of {@code root} ({@code /} or a saved tree holding {@code sys/} and {@code proc/}) that records the paths it reads, not their bytes. */
    public SysfsReader(Path root) {
        this(root, false);
    }

    /** A reader that may keep what it reads. */
    public SysfsReader(Path root, boolean keepBytes) {
        this(root, keepBytes, false, true);
    }

    /** @param realPathCheckOnly use the real-path check even where {@code openat2} works (its tests) */
    SysfsReader(Path root, boolean keepBytes, boolean realPathCheckOnly) {
        this(root, keepBytes, realPathCheckOnly, true);
    }

    private SysfsReader(Path root, boolean keepBytes, boolean realPathCheckOnly, boolean recordPaths) {
        this.root = root;
        this.keepBytes = keepBytes;
        this.realPathCheckOnly = realPathCheckOnly;
        this.recordPaths = recordPaths;
    }

    /**
     * A reader that records no file it reads (problems, unreadable files and directories are
     * still recorded): for a command that saves nothing. At 8192 CPUs a tree is ~200,000 files.
     */
    public static SysfsReader unrecorded(Path root) {
        return new SysfsReader(root, false, false, false);
    }

    /** Whether {@link #filesRead()} records the files read (false for {@link #unrecorded}). */
    public boolean recordsFiles() {
        return recordPaths;
    }

    /**
     * Records what was learned by other means than a file (the CPUID leaves) under a path of its
     * own, so that {@code capture} saves it and {@code --root} reads it back as a file.
     */
    public void remember(String rel, byte[] bytes) {
        recordRead(rel, bytes);
    }

    private void recordRead(String rel, byte[] bytes) {
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
     * The file's text, stripped of white space and NULs at both ends.
     *
     * @return the text, or empty when the file does not exist, cannot be read (recorded in
     *         {@link #unreadable()}) or leads outside a saved tree (recorded in {@link #problems()})
     */
    public Optional<String> read(String rel) {
        return bytes(rel).map(b -> clean(new String(b, StandardCharsets.UTF_8)));
    }

    /**
     * The whole file with its lines intact (for /proc files).
     *
     * @return the lines without their line ends, or empty as for {@link #read(String)}
     */
    public Optional<List<String>> readLines(String rel) {
        return bytes(rel).map(b -> new String(b, StandardCharsets.UTF_8).lines().toList());
    }

    /**
     * The bytes of a regular file (symbolic links followed, as sysfs has them), at most
     * {@link #MAX_FILE_BYTES}: a file whose size says more is refused before it is read, one of
     * unknown size (procfs) when the read passes the cap. A FIFO, device or socket planted in a
     * saved tree is refused without being read into the answer.
     */
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
        recordRead(rel, f.bytes());
        return Optional.of(f.bytes());
    }

    /**
     * Records why an open beneath the tree failed; a path that does not exist (or goes through
     * a file) is an ordinary answer and records nothing.
     */
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

    /**
     * The root opened for reading beneath it ({@code /} too: one way of reading a file), with
     * {@code openat2} or, where it is not available, the real-path check; null when it cannot be opened.
     */
    private BeneathDirectory tree() {
        if (containment != null) return tree;
        boolean slash = root.toAbsolutePath().normalize().getParent() == null;
        Optional<String> why = realPathCheckOnly ? Optional.of("asked for") : BeneathDirectory.unavailable();
        containment = slash ? "root" : why.map(w -> "real-path check (" + w + ")").orElse("openat2 beneath the tree");
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
     * A cpulist file ({@code 0-3,8}) as a mask of {@code nbits}; CPUs at or beyond nbits are dropped.
     * The same text read again gives the same (immutable) mask instance: the package list of a
     * 1024-CPU package is read once per CPU, and at 8192 CPUs each mask is 1 KiB.
     *
     * @return the mask, or empty when absent, unreadable or not a cpulist (recorded)
     */
    public Optional<CpuMask> readList(String rel, int nbits) {
        return mask(rel, nbits, false);
    }

    /**
     * A hex cpumap file ({@code 00000000,00000101}) as a mask of {@code nbits}; CPUs at or
     * beyond nbits are dropped; the same text gives the same instance.
     *
     * @return the mask, or empty when absent, unreadable or not a cpumap (recorded)
     */
    public Optional<CpuMask> readMap(String rel, int nbits) {
        return mask(rel, nbits, true);
    }

    /**
     * Masks parsed from each distinct file content at {@link #parsedNbits} bits (lists and maps
     * apart: {@code 1} is CPU 1 in one, CPU 0 in the other), keyed by the bytes as read: a map
     * of 8192 CPUs is 2.3 KB, and a text seen before costs a hash of its bytes, no string.
     */
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
     * The hex map file, or the list file where there is no map, e.g. {@code shared_cpu_map}
     * then {@code shared_cpu_list}. The map first, as hwloc reads it: the kernel prints both
     * from one mask, but saved trees of older kernels and tools have lists that disagree with
     * their maps (an AMD compute unit's shared L1i and L2 listed as one core's), and the map is
     * what every such tree's counts were made from.
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
     * Whether {@code rel} is a directory; a yes is recorded, so capture keeps the directory even
     * if nothing in it is read.
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

    /**
     * Records a problem with a file, for the topology's warnings. Never quote the file's
     * contents in {@code why}: a saved tree is untrusted input.
     */
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

    /**
     * A mask naming CPUs no kernel has: refused before a bitmap is sized by it, so one bad file
     * costs what its CPUs cost, not megabytes per read.
     */
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
