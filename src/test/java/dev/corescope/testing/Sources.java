package dev.corescope.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** The main Java sources of every artifact (library, profiler, tool), for tests that read the code. */
public final class Sources {

    /** One folder per artifact: corescope-affinity, corescope-jmh, corescope (build/*). */
    public static final List<Path> ROOTS = List.of(Path.of("src/affinity/java"), Path.of("src/jmh/java"), Path.of("src/main/java"));

    private Sources() {
    }

    /** Every main {@code .java} file under {@code dev/corescope} of each root, by its path from there ({@code topology/Topology.java}). */
    public static Map<String, Path> files() {
        Map<String, Path> out = new TreeMap<>();
        for (Path root : ROOTS) {
            Path base = root.resolve("dev/corescope");
            try (Stream<Path> s = Files.walk(base)) {
                s.filter(f -> f.toString().endsWith(".java")).forEach(f -> out.put(base.relativize(f).toString().replace('\\', '/'), f));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return out;
    }

    /** The folder of a package's files ({@code "report"}, {@code "affinity"}), in whichever root holds it. */
    public static Path packageDir(String pkg) {
        return ROOTS.stream().map(r -> r.resolve("dev/corescope").resolve(pkg.replace('.', '/'))).filter(Files::isDirectory)
                .findFirst().orElseThrow(() -> new IllegalArgumentException("no package " + pkg));
    }
}
