package dev.corescope.cli;

import dev.corescope.sys.internal.AtomicFile;
import dev.corescope.topology.proc.ProcPid;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Collection;
import java.util.List;

/**
 * The file behind {@code -o FILE} (topology, capture, bench, report, the tour), checked before any
 * work and written so that nothing the user did not name is lost: a regular file whole or not at
 * all, a device or FIFO written through, a link followed (not another user's in a sticky folder),
 * none of the command's inputs; the rules are in docs/files-and-signals.md. Every refusal is
 * bad usage ({@link UsageException}, exit 2) with one line naming the file; a write that fails
 * after the checks passed is exit 1 ({@link #cannotWrite}).
 */
final class OutputFile {

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

    private final Path given;
    private final String option;
    private final List<Path> inputs;

    private OutputFile(Path given, String option, List<Path> inputs) {
        this.given = given;
        this.option = option;
        this.inputs = inputs;
    }

    /**
     * Checks {@code file} as the output of {@code option} (e.g. {@code "-o"}), before any work:
     * throws {@link UsageException} when it cannot or must not be written.
     *
     * @param inputs the files the command reads; the output may be none of them
     */
    static OutputFile check(Path file, String option, Collection<Path> inputs) {
        OutputFile o = new OutputFile(file, option, List.copyOf(inputs));
        o.classify(true);
        return o;
    }

    /** {@link #check(Path, String, Collection)} for a command that reads no file. */
    static OutputFile check(Path file, String option) {
        return check(file, option, List.of());
    }

    /** The path as the user gave it. */
    Path path() {
        return given;
    }

    /** Whether the file exists now as a regular file (through links): something a run could replace. */
    boolean holdsAFile() {
        return Files.isRegularFile(given);
    }

    /** Writes {@code text} as UTF-8, whole or not at all (or through, for a device or FIFO). */
    void write(String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        write(os -> os.write(bytes));
    }

    /** {@link #write(String)}; a failure is exit 1 ({@link #cannotWrite}). */
    void save(String text) {
        try {
            write(text);
        } catch (IOException e) {
            throw cannotWrite(e);
        }
    }

    /** Writes what {@code body} produces, whole or not at all (or through, for a device or FIFO). */
    void write(AtomicFile.Body body) throws IOException {
        // checked again: the file may have changed since the check before the work
        Target t = classify(false);
        if (t.through()) {
            try (OutputStream os = Files.newOutputStream(given, StandardOpenOption.WRITE)) {
                body.writeTo(os);
            }
        } else {
            AtomicFile.write(t.path(), body);
        }
    }

    /**
     * Writes {@code text} only if no file holds the name at this moment (see
     * {@link AtomicFile#create}); false when one does, and nothing was written. A device or
     * FIFO is written through, as by {@link #write(String)}.
     */
    boolean create(String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        Target t = classify(false);
        if (t.through()) {
            write(os -> os.write(bytes));
            return true;
        }
        if (Files.exists(t.path(), LinkOption.NOFOLLOW_LINKS)) return false;
        return AtomicFile.create(t.path(), os -> os.write(bytes));
    }

    /**
     * A free name beside this file for results that must not replace it: {@code
     * corescope-results.json} gives {@code corescope-results-interrupted-20261130T225801Z.json}
     * ({@code -2}, {@code -3}, ... when that is taken too).
     */
    OutputFile beside(String tag, Instant at) {
        Path real = classify(false).path();
        String name = real.getFileName().toString();
        int dot = name.lastIndexOf('.');
        String base = dot > 0 ? name.substring(0, dot) : name;
        String ext = dot > 0 ? name.substring(dot) : "";
        String stem = base + "-" + tag + "-" + STAMP.format(at);
        Path candidate = real.resolveSibling(stem + ext);
        for (int i = 2; Files.exists(candidate, LinkOption.NOFOLLOW_LINKS); i++) {
            candidate = real.resolveSibling(stem + "-" + i + ext);
        }
        Path shown = given.getParent() == null ? Path.of(candidate.getFileName().toString())
                : given.resolveSibling(candidate.getFileName().toString());
        if (!real.getParent().equals(given.toAbsolutePath().getParent())) shown = candidate;
        return new OutputFile(shown, option, inputs);
    }

    /** A write that failed after the checks (disk full, the folder went away): exit 1, one line. */
    UncheckedIOException cannotWrite(IOException e) {
        return cannotWrite(option, given, e);
    }

    static UncheckedIOException cannotWrite(String option, Path file, IOException e) {
        return new UncheckedIOException(new IOException(option + " " + file + ": cannot be written (" + Main.reason(e) + "); nothing was written", e));
    }

    /** Where the bytes go; {@code through}: a character device or FIFO, written in place, never replaced. */
    private record Target(Path path, boolean through) {
    }

    private Target classify(boolean probe) {
        String name = option + " " + given;
        if (given.toString().isEmpty()) throw new UsageException(option + " '': an empty string names no file");
        Path abs = given.toAbsolutePath();
        if (abs.getFileName() == null) throw new UsageException(name + ": not a file name");
        BasicFileAttributes link = attributes(given, LinkOption.NOFOLLOW_LINKS);
        BasicFileAttributes attrs = link != null && link.isSymbolicLink() ? attributes(given) : link;
        if (link != null && link.isSymbolicLink()) protectedSymlink(name, abs);
        if (link != null && link.isSymbolicLink() && attrs == null) {
            throw new UsageException(name + ": a symbolic link to " + linkTarget(given) + ", which does not exist; the link is not replaced");
        }
        if (attrs == null) {
            Path dir = abs.normalize().getParent();
            if (dir == null) throw new UsageException(name + ": not a file name");
            if (!Files.exists(dir)) throw new UsageException(name + ": folder " + dir + " does not exist");
            if (!Files.isDirectory(dir)) throw new UsageException(name + ": " + dir + " is not a folder");
            if (probe) probe(name, dir);
            return new Target(abs, false);
        }
        if (attrs.isDirectory()) throw new UsageException(name + ": is a folder, not a file");
        for (Path in : inputs) {
            if (sameFile(given, in) || inFolder(given, in)) {
                throw new UsageException(name + ": is also an input (" + in + (Files.isDirectory(in) ? " holds it" : "")
                        + "); it would be overwritten, choose another file");
            }
        }
        if (attrs.isOther()) {
            String kind = kind(given);
            if (!kind.equals("character device") && !kind.equals("FIFO")) {
                throw new UsageException(name + ": is a " + kind + "; corescope writes regular files, character devices and FIFOs");
            }
            if (!Files.isWritable(given)) throw new UsageException(name + ": the " + kind + " cannot be written (permission denied)");
            return new Target(given, true);
        }
        Path real;
        try {
            real = given.toRealPath();
        } catch (IOException e) {
            throw new UsageException(name + ": cannot be resolved (" + Main.reason(e) + ")");
        }
        if (!Files.isWritable(real) || (mode(real) & 0222) == 0) {  // root may write anything: the mode says what was meant
            throw new UsageException(name + (real.equals(abs) ? "" : " (" + real + ")") + ": the file is read-only; it is not replaced");
        }
        if (probe) probe(name, real.getParent());
        return new Target(real, false);
    }

    /**
     * Refuses a symbolic link in a sticky, world-writable folder unless it belongs to this user
     * or to the folder's owner: the rule of the kernel's {@code fs.protected_symlinks}, which a
     * write to the link's resolved path would otherwise get around.
     */
    private static void protectedSymlink(String name, Path link) {
        Path dir = link.normalize().getParent();
        if (dir == null) return;
        int dirMode;
        int linkOwner;
        int dirOwner;
        int me;
        try {
            dirMode = (Integer) Files.getAttribute(dir, "unix:mode");
            linkOwner = (Integer) Files.getAttribute(link, "unix:uid", LinkOption.NOFOLLOW_LINKS);
            dirOwner = (Integer) Files.getAttribute(dir, "unix:uid");
            me = ProcPid.selfUid();
        } catch (IOException | UnsupportedOperationException e) {
            return;  // attributes unreadable: the checks after this one decide
        }
        if ((dirMode & 01000) == 0 || (dirMode & 0002) == 0) return;
        if (linkOwner != me && linkOwner != dirOwner) {
            throw new UsageException(name + ": a symbolic link of uid " + linkOwner + " in the sticky folder " + dir
                    + ", which anyone may write; corescope does not follow another user's link there (as fs.protected_symlinks)");
        }
    }

    private static int mode(Path p) {
        try {
            return (Integer) Files.getAttribute(p, "unix:mode");
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return 0777;
        }
    }

    /** A file is created in {@code dir} and removed: the rename at the end will work there. */
    private static void probe(String name, Path dir) {
        Path tmp;
        try {
            tmp = Files.createTempFile(dir, ".corescope-probe-", ".tmp");
        } catch (IOException | UnsupportedOperationException e) {
            throw new UsageException(name + ": no file can be created in folder " + dir + " (" + Main.reason(e) + ")");
        }
        try {
            Files.deleteIfExists(tmp);
        } catch (IOException ignored) {
            // an empty hidden file left behind is harmless; the real write reports its own failure
        }
    }

    private static boolean sameFile(Path a, Path b) {
        try {
            return Files.exists(b) && Files.isSameFile(a, b);
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Whether {@code file} (which exists) is a file of the folder {@code dir}: beneath it once
     * links are resolved, or a hard link to one of its files (looked for only when the file has
     * more than one link).
     */
    private static boolean inFolder(Path file, Path dir) {
        if (!Files.isDirectory(dir)) return false;
        try {
            Path real = file.toRealPath();
            Path folder = dir.toRealPath();
            if (real.startsWith(folder)) return true;
            if ((Integer) Files.getAttribute(real, "unix:nlink") < 2) return false;
            Object key = Files.readAttributes(real, BasicFileAttributes.class).fileKey();
            if (key == null) return false;
            try (var files = Files.walk(folder)) {
                return files.anyMatch(p -> {
                    BasicFileAttributes a = attributes(p, LinkOption.NOFOLLOW_LINKS);
                    return a != null && a.isRegularFile() && key.equals(a.fileKey());
                });
            }
        } catch (IOException | UncheckedIOException | UnsupportedOperationException | IllegalArgumentException e) {
            return false;
        }
    }

    private static BasicFileAttributes attributes(Path p, LinkOption... options) {
        try {
            return Files.readAttributes(p, BasicFileAttributes.class, options);
        } catch (IOException e) {
            return null;
        }
    }

    private static String linkTarget(Path p) {
        try {
            return String.valueOf(Files.readSymbolicLink(p));
        } catch (IOException e) {
            return "an unreadable target";
        }
    }

    /** What a non-regular file is, from {@code st_mode} (through links). */
    static String kind(Path p) {
        try {
            int mode = (Integer) Files.getAttribute(p, "unix:mode");
            return switch (mode & 0170000) {
                case 0020000 -> "character device";
                case 0060000 -> "block device";
                case 0010000 -> "FIFO";
                case 0140000 -> "socket";
                default -> "special file";
            };
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return "special file";
        }
    }
}
