package dev.corescope.topology;

import com.fasterxml.jackson.databind.JsonNode;
import dev.corescope.testing.TopologyFixtures;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.compressors.bzip2.BZip2CompressorInputStream;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * The sysfs trees of real machines ({@code src/test/resources/fixtures/topology/*.tar.bz2}, from
 * hwloc's test suite), unpacked once per build folder under {@code target/topology-fixtures}.
 */
public final class Fixtures {

    private static final Map<String, Path> UNPACKED = new ConcurrentHashMap<>();

    private Fixtures() {
    }

    /** {@return how many cache instances of {@code t} are named {@code name} ({@code L1d}, {@code L2}, ...)} */
    static int cacheCount(Topology t, String name) {
        return (int) t.caches().stream().filter(c -> c.name().equals(name)).count();
    }

    /** The fixtures folder, from the test classpath. */
    static Path dir() {
        return TopologyFixtures.dir();
    }

    /** The tree names, from hwloc-counts.json. */
    static List<String> names() {
        List<String> names = new ArrayList<>();
        counts().fieldNames().forEachRemaining(names::add);
        return names;
    }

    /** hwloc's counts for every tree. */
    static JsonNode counts() {
        try {
            return new ObjectMapper().readTree(dir().resolve("hwloc-counts.json").toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The unpacked root (holding sys/ and proc/) of tree {@code name}. */
    public static Path root(String name) {
        return UNPACKED.computeIfAbsent(name, Fixtures::unpack);
    }

    private static Path unpack(String name) {
        Path archive = dir().resolve(name + ".tar.bz2");
        Path into = Path.of(System.getProperty("corescope.basedir", "."), "target", "topology-fixtures", name);
        try {
            // unpacked once per build folder: a marker names the archive's size and time
            Path marker = into.resolve(".unpacked-" + Files.size(archive) + "-" + Files.getLastModifiedTime(archive).toMillis());
            if (Files.exists(marker)) return topFolder(into, archive);
            deleteTree(into);
            Files.createDirectories(into);
            try (InputStream in = new BZip2CompressorInputStream(new BufferedInputStream(Files.newInputStream(archive)));
                 TarArchiveInputStream tar = new TarArchiveInputStream(in)) {
                TarArchiveEntry e;
                while ((e = tar.getNextEntry()) != null) {
                    Path target = into.resolve(e.getName()).normalize();
                    if (!target.startsWith(into)) throw new IOException("entry outside the folder: " + e.getName());
                    if (e.isDirectory()) {
                        Files.createDirectories(target);
                    } else if (e.isSymbolicLink()) {
                        Files.createDirectories(target.getParent());
                        Files.createSymbolicLink(target, Path.of(e.getLinkName()));
                    } else if (e.isFile()) {
                        Files.createDirectories(target.getParent());
                        Files.copy(tar, target, StandardCopyOption.REPLACE_EXISTING);
                    }
                }
            }
            Path top = topFolder(into, archive);
            Files.createFile(marker);
            return top;
        } catch (IOException e) {
            throw new UncheckedIOException("unpacking " + archive, e);
        }
    }

    /** The folder inside is named like the archive, but not always exactly. */
    private static Path topFolder(Path into, Path archive) throws IOException {
        try (Stream<Path> s = Files.list(into)) {
            List<Path> tops = s.filter(Files::isDirectory).toList();
            if (tops.size() != 1) throw new IOException(archive + " does not hold exactly one folder: " + tops);
            return tops.getFirst();
        }
    }

    static void deleteTree(Path p) throws IOException {
        if (!Files.exists(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) return;
        try (Stream<Path> s = Files.walk(p)) {
            for (Path x : s.sorted(java.util.Comparator.reverseOrder()).toList()) Files.delete(x);
        }
    }
}
