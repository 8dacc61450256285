package dev.corescope.library;

import dev.corescope.testing.Approved;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The library artifact as a user on the module path gets it (issue #24 points 3, 4 and 15): its
 * compiled module ({@code build/affinity/target/classes}, module-info included) ALONE on the module
 * path, granted native access as the docs say ({@code --enable-native-access=dev.corescope}), and
 * {@link LibraryModuleProbe} in the unnamed module without native access.
 */
class LibraryModuleTest {

    /** The probe's lines with the library alone on the module path, and with JMH beside it. */
    private static List<String> lines;
    private static List<String> withJmh;

    @BeforeAll
    static void runTheProbe() throws Exception {
        Path library = Path.of(System.getProperty("corescope.library.classes", "build/affinity/target/classes"));
        assertTrue(Files.exists(library.resolve("module-info.class")), "the library module is built: " + library);
        lines = probe(library.toString());
        // corescope-jmh (a jar: it is an automatic module), JMH and what it needs, from this test's class path
        Path jmh = Path.of(System.getProperty("corescope.jmh.jar", "build/jmh/target/corescope-jmh-0.1.0.jar"));
        assertTrue(Files.exists(jmh), "corescope-jmh is built: " + jmh);
        List<String> path = new ArrayList<>(List.of(library.toString(), jmh.toString()));
        for (String e : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            if (e.contains("jmh-core") || e.contains("jopt-simple") || e.contains("commons-math3")) path.add(e);
        }
        assertEquals(5, path.size(), "JMH's jars on the test class path: " + path);
        withJmh = probe(String.join(java.io.File.pathSeparator, path));
    }

    private static List<String> probe(String modulePath) throws Exception {
        Path probeClasses = Path.of(LibraryModuleProbe.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=dev.corescope", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "--module-path", modulePath, "--add-modules", "ALL-MODULE-PATH",
                "-cp", probeClasses.toString(), LibraryModuleProbe.class.getName()));
        Path err = Files.createTempFile("probe", ".err");
        Process p = new ProcessBuilder(cmd).redirectError(err.toFile()).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        String stderr = Files.readString(err);
        Files.delete(err);
        assertEquals(0, p.exitValue(), "probe failed:\n" + out + stderr);
        // no JDK warning: the grant the docs give is enough, and nobody else needed one
        assertEquals("", stderr, "the probe's JVM printed warnings");
        return out.lines().toList();
    }

    /**
     * Also: the classes that pin by pid, read the current CPU another way or touch raw file
     * descriptors ({@code Affinity}, {@code CurrentCpu}, {@code Flock}, ...) are in the library
     * but in no exported package, so {@code ThreadAffinity} is the one public way to pin and to
     * read the current CPU, and a module without native access gets no handle to them.
     */
    @Test
    void nothingExportedHandsOutRawMemoryOrANativeCapability() {
        assertEquals(List.of(), lines.stream().filter(l -> l.startsWith("PROBLEM")).toList());
        assertEquals(List.of(), withJmh.stream().filter(l -> l.startsWith("PROBLEM")).toList());
        assertTrue(lines.contains("DENIED Flock.close"), String.join("\n", lines));
    }

    @Test
    void everyExportedSignatureResolvesWithTheLibraryAlone() {
        assertEquals(List.of(), lines.stream().filter(l -> l.startsWith("MISSING")).toList());
        assertEquals(List.of(), withJmh.stream().filter(l -> l.startsWith("MISSING")).toList());
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("API dev.corescope.affinity.ThreadAffinity ")), String.join("\n", lines));
    }

    /** The profiler is its own artifact: the library names no JMH type, and corescope-jmh works on the module path beside it. */
    @Test
    void theLibraryRequiresNoAutomaticModuleAndTheProfilerIsItsOwnModule() {
        assertTrue(lines.stream().noneMatch(l -> l.startsWith("API module requires")), String.join("\n", lines));
        assertTrue(withJmh.contains("JMH dev.corescope.jmh.PinningProfiler loads in dev.corescope.jmh"), String.join("\n", withJmh));
    }

    @Test
    void theCallsThatNeededJacksonWorkWithTheJarAlone() {
        assertEquals(List.of("WORKS TopologyJson.render true", "WORKS Capture.write true", "WORKS ThreadAffinity.currentCpu true"),
                lines.stream().filter(l -> l.startsWith("WORKS")).toList());
    }

    /**
     * The exported API, printed to a committed file: a change to it shows in review as a change
     * to {@code src/test/resources/approved/api/corescope-affinity.txt} (docs/library.md, "What is API").
     */
    @Test
    void theExportedApiIsTheApprovedOne() throws IOException {
        String api = withJmh.stream().filter(l -> l.startsWith("API ")).map(l -> l.substring(4))
                .collect(Collectors.joining("\n", "", "\n"));
        Approved.verify("api/corescope-affinity.txt", api);
    }
}
