package dev.corescope;

import dev.corescope.testing.Sources;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * docs/architecture.md's package map is the code's: each package it names exists, each package
 * of the code is named, and no package uses (imports or names inline) one of a higher layer, nor
 * library code tool code.
 */
class ArchitectureTest {

    private static final Pattern ROW = Pattern.compile("^\\| `([a-z.<>]+)` \\| (\\d+) \\| (library|tool) \\|", Pattern.MULTILINE);
    /** A use of another package: an import or a name written inline ({@code dev.corescope.report.Result.builder()}). */
    private static final Pattern REFERENCE = Pattern.compile("(?<![\\w.])dev\\.corescope\\.([a-z0-9.]+?)\\.[A-Z]");

    private record Layer(int rank, boolean library) {
    }

    private static Map<String, Layer> map() throws IOException {
        Map<String, Layer> out = new TreeMap<>();
        Matcher m = ROW.matcher(Files.readString(Path.of("docs/architecture.md")));
        while (m.find()) out.put(m.group(1), new Layer(Integer.parseInt(m.group(2)), m.group(3).equals("library")));
        return out;
    }

    /** Every package with a Java file, as {@code topology.proc}. */
    private static Map<String, List<Path>> packages() throws IOException {
        Map<String, List<Path>> out = new TreeMap<>();
        Sources.files().forEach((file, p) -> {
            String pkg = file.substring(0, file.lastIndexOf('/')).replace('/', '.');
            out.computeIfAbsent(pkg, k -> new ArrayList<>()).add(p);
        });
        return out;
    }

    /** {@code bench.c2c} is the map's {@code bench.<family>}. */
    private static String entry(String pkg) {
        return pkg.startsWith("bench.") ? "bench.<family>" : pkg;
    }

    @Test
    void theMapNamesEveryPackageAndOnlyThose() throws IOException {
        TreeSet<String> inCode = new TreeSet<>();
        for (String p : packages().keySet()) inCode.add(entry(p));
        assertEquals(inCode, new TreeSet<>(map().keySet()));
    }

    @Test
    void eachPackageLivesInItsArtifactsFolder() throws IOException {
        Map<String, Layer> map = map();
        List<String> wrong = new ArrayList<>();
        for (var e : packages().entrySet()) {
            Layer layer = map.get(entry(e.getKey()));
            String folder = e.getKey().equals("jmh") ? "src/jmh/java" : layer != null && layer.library() ? "src/affinity/java" : "src/main/java";
            for (Path f : e.getValue()) if (!f.startsWith(folder)) wrong.add(f + " belongs in " + folder);
        }
        assertEquals(List.of(), wrong);
    }

    @Test
    void noPackageImportsOneAboveIt() throws IOException {
        Map<String, Layer> map = map();
        List<String> wrong = new ArrayList<>();
        for (var e : packages().entrySet()) {
            Layer from = map.get(entry(e.getKey()));
            if (from == null) continue;
            for (Path f : e.getValue()) {
                Matcher m = REFERENCE.matcher(Files.readString(f));
                while (m.find()) {
                    String to = m.group(1);
                    if (to.equals(e.getKey())) continue;
                    Layer used = map.get(entry(to));
                    if (used == null) continue;
                    if (used.rank() > from.rank() || (from.library() && !used.library())) {
                        wrong.add(f + " uses " + to);
                    }
                }
            }
        }
        assertEquals(List.of(), wrong);
    }
}
