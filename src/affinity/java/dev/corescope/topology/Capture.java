package dev.corescope.topology;

import dev.corescope.sys.internal.AtomicFile;
import dev.corescope.topology.proc.SysfsReader;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.zip.GZIPOutputStream;

/**
 * {@code capture}: saves the files a {@link Topology} was read from as a {@code .tar.gz}, so that
 * {@code topology --root} on the unpacked folder makes the same report on another machine.
 *
 * <p>The archive holds the bytes as the reader read them and the directories it looked into, under
 * one folder named after the file ({@code box.tar.gz} unpacks to {@code box/sys/...}): regular files
 * and directories only, never symlinks. Files that could not be read are listed in the {@link Result}.
 * The file appears whole or not at all.
 */
public final class Capture {

    /**
     * What was written.
     *
     * @param file the archive's absolute path; null when written to a stream
     * @param folder the top folder inside the archive, e.g. {@code box}
     * @param files how many files it holds
     * @param directories how many directories it holds (the top folder not counted)
     * @param bytes the files' bytes before compression
     * @param skipped files that exist but could not be read, relative to the root: not in the archive
     */
    public record Result(Path file, String folder, int files, int directories, long bytes, List<String> skipped) {
    }

    private Capture() {
    }

    /**
     * Writes the capture of {@code t} to {@code out}, replacing it whole (or not at all).
     *
     * @param t a topology read from a root (live or saved); what it read is read again when it did not keep the bytes
     * @param out the archive to write, e.g. {@code box.tar.gz} (unpacks to {@code box/})
     * @return what was written
     * @throws NoSuchFileException   when the folder of {@code out} does not exist
     * @throws NotDirectoryException when it is not a directory
     * @throws IOException           when it cannot be written; no file is left behind
     */
    public static Result write(Topology t, Path out) throws IOException {
        Path abs = out.toAbsolutePath().normalize();
        Path dir = abs.getParent();
        if (dir == null || !Files.exists(dir)) throw new NoSuchFileException(String.valueOf(dir), null, "folder does not exist");
        if (!Files.isDirectory(dir)) throw new NotDirectoryException(dir.toString());
        String folder = folderName(abs.getFileName().toString());

        Result[] r = new Result[1];
        AtomicFile.write(abs, os -> r[0] = write(t, folder, os));
        return new Result(abs, r[0].folder(), r[0].files(), r[0].directories(), r[0].bytes(), r[0].skipped());
    }

    /**
     * Writes the capture of {@code t} as a gzipped tar whose files lie under {@code folder/}
     * to {@code os}, which stays open; the caller decides where the bytes go and whether they
     * appear whole ({@code -o} is checked and written by the command line).
     *
     * @param t a topology read from a root
     * @param folder the top folder inside the archive
     * @param os where the gzipped tar goes; flushed, not closed
     * @return what was written ({@code file} null)
     * @throws IOException when {@code os} fails, or the root cannot be read again
     */
    public static Result write(Topology t, String folder, OutputStream os) throws IOException {
        Map<String, byte[]> files = t.fileContents();
        boolean kept = t.readRecorded() && (files.isEmpty() || files.values().stream().anyMatch(b -> b.length > 0));
        if (!kept) {
            // read without keeping bytes (every command but capture) or without a record at all: read again, keeping them
            SysfsReader again = new SysfsReader(Path.of(t.source()), true);
            Topology.read(again);
            return write(again, folder, os);
        }
        return write(files, t.directoriesSeen(), t.unreadableFiles(), folder, os);
    }

    /**
     * Writes every file {@code reader} read (it must keep bytes: {@code new SysfsReader(root, true)}),
     * the topology's and every other parser's that read through it: the environment, the cgroup,
     * the kernel hints, the interrupt counters.
     *
     * @param reader a reader that kept the bytes it read
     * @param folder the top folder inside the archive
     * @param os where the gzipped tar goes; flushed, not closed
     * @return what was written ({@code file} null)
     * @throws IOException when {@code os} fails
     * @throws IllegalArgumentException when the reader did not keep bytes
     */
    public static Result write(SysfsReader reader, String folder, OutputStream os) throws IOException {
        if (!reader.keepsBytes()) throw new IllegalArgumentException("capture needs a reader that keeps the bytes it reads");
        return write(reader.filesRead(), reader.dirsSeen(), reader.unreadable(), folder, os);
    }

    private static Result write(Map<String, byte[]> files, List<String> directoriesSeen, List<String> unreadable, String folder,
                                OutputStream os) throws IOException {
        TreeSet<String> dirs = new TreeSet<>();
        for (String d : directoriesSeen) addWithParents(dirs, d);
        for (String f : files.keySet()) {
            int slash = f.lastIndexOf('/');
            if (slash > 0) addWithParents(dirs, f.substring(0, slash));
        }

        long now = System.currentTimeMillis() / 1000;
        long bytes = 0;
        GZIPOutputStream gz = new GZIPOutputStream(new FilterOutputStream(os) {
            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                out.write(b, off, len);
            }

            @Override
            public void close() throws IOException {
                flush(); // the caller's stream stays open
            }
        }, 1 << 16);
        try (TarWriter tar = new TarWriter(gz)) {
            tar.directory(folder + "/", now);
            for (String d : dirs) tar.directory(folder + "/" + d + "/", now);
            for (Map.Entry<String, byte[]> e : files.entrySet()) {
                tar.file(folder + "/" + e.getKey(), e.getValue(), now);
                bytes += e.getValue().length;
            }
        }
        return new Result(null, folder, files.size(), dirs.size(), bytes, unreadable);
    }

    /**
     * The archive's top folder for a file name: {@code box.tar.gz} and {@code box.tgz} unpack
     * to {@code box/}.
     *
     * @param fileName the archive's file name, without folders
     * @return the name without its archive extension
     */
    public static String folderName(String fileName) {
        String name = fileName;
        for (String ext : List.of(".tar.gz", ".tgz", ".tar", ".gz")) {
            if (name.endsWith(ext)) {
                name = name.substring(0, name.length() - ext.length());
                break;
            }
        }
        name = name.replace('/', '_');
        return name.isEmpty() || name.equals(".") || name.equals("..") ? "capture" : name;
    }

    private static void addWithParents(TreeSet<String> dirs, String d) {
        String p = d;
        while (!p.isEmpty()) {
            if (!dirs.add(p)) return;
            int slash = p.lastIndexOf('/');
            p = slash < 0 ? "" : p.substring(0, slash);
        }
    }

    /** The part of a POSIX ustar writer capture needs: directories and regular files, a PAX header for a name past 100 bytes. */
    static final class TarWriter implements AutoCloseable {
        private static final int BLOCK = 512;
        private final OutputStream out;

        TarWriter(OutputStream out) {
            this.out = out;
        }

        void directory(String name, long mtime) throws IOException {
            entry(name, new byte[0], '5', 0755, mtime);
        }

        void file(String name, byte[] content, long mtime) throws IOException {
            entry(name, content, '0', 0644, mtime);
        }

        private void entry(String name, byte[] content, char type, int mode, long mtime) throws IOException {
            // a name past ustar's 100 bytes goes in a PAX header before the entry, which keeps a cut one
            boolean tooLong = name.getBytes(StandardCharsets.UTF_8).length > 100;
            if (tooLong) pax(name, mtime);
            header(tooLong ? name.substring(0, Math.min(name.length(), 99)) : name, content.length, type, mode, mtime);
            out.write(content);
            pad(content.length);
        }

        private void pax(String name, long mtime) throws IOException {
            String body = "path=" + name + "\n";
            int len = body.getBytes(StandardCharsets.UTF_8).length;
            int total = len + 3;
            while (String.valueOf(total).length() + 1 + len != total) total = String.valueOf(total).length() + 1 + len;
            byte[] record = (total + " " + body).getBytes(StandardCharsets.UTF_8);
            header("PaxHeader", record.length, 'x', 0644, mtime);
            out.write(record);
            pad(record.length);
        }

        private void header(String name, long size, char type, int mode, long mtime) throws IOException {
            byte[] h = new byte[BLOCK];
            put(h, 0, 100, name);
            octal(h, 100, 8, mode);
            octal(h, 108, 8, 0);
            octal(h, 116, 8, 0);
            octal(h, 124, 12, size);
            octal(h, 136, 12, mtime);
            for (int i = 148; i < 156; i++) h[i] = ' ';
            h[156] = (byte) type;
            put(h, 257, 6, "ustar");
            h[263] = '0';
            h[264] = '0';
            put(h, 265, 32, "root");
            put(h, 297, 32, "root");
            long sum = 0;
            for (byte b : h) sum += b & 0xff;
            String chk = String.format("%06o", sum);
            put(h, 148, 6, chk);
            h[154] = 0;
            h[155] = ' ';
            out.write(h);
        }

        private static void put(byte[] h, int off, int len, String s) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            System.arraycopy(b, 0, h, off, Math.min(len, b.length));
        }

        private static void octal(byte[] h, int off, int len, long v) {
            String s = Long.toOctalString(v);
            String padded = "0".repeat(Math.max(0, len - 1 - s.length())) + s;
            put(h, off, len - 1, padded);
            h[off + len - 1] = 0;
        }

        private void pad(long written) throws IOException {
            int rem = (int) (written % BLOCK);
            if (rem != 0) out.write(new byte[BLOCK - rem]);
        }

        @Override
        public void close() throws IOException {
            out.write(new byte[2 * BLOCK]);
            out.close();
        }
    }
}
