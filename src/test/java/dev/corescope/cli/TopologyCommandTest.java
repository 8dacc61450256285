package dev.corescope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** {@code topology} and {@code capture} from the command line: output, exit codes, one-line errors. */
class TopologyCommandTest {

    @TempDir
    Path tmp;

    private static void assertOneLineError(CliRun r, int code, String startsWith) {
        assertEquals(code, r.exitCode(), r.err());
        assertEquals("", r.out(), "nothing on stdout");
        assertEquals(1, r.err().lines().count(), "one line on stderr: " + r.err());
        assertTrue(r.err().startsWith(startsWith), r.err());
    }

    /** A tiny saved tree: one package, two cores. */
    private Path tree() throws Exception {
        Path root = tmp.resolve("tree");
        String cpu = "sys/devices/system/cpu/";
        write(root, cpu + "online", "0-1");
        write(root, cpu + "possible", "0-1");
        for (int c = 0; c < 2; c++) {
            write(root, cpu + "cpu" + c + "/topology/core_cpus_list", String.valueOf(c));
            write(root, cpu + "cpu" + c + "/topology/package_cpus_list", "0-1");
            write(root, cpu + "cpu" + c + "/topology/physical_package_id", "0");
            write(root, cpu + "cpu" + c + "/topology/core_id", String.valueOf(c));
        }
        return root;
    }

    private static void write(Path root, String rel, String text) throws Exception {
        Path p = root.resolve(rel);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text + "\n");
    }

    @Test
    void rootThatDoesNotExistIsExit2WithOneLine() {
        CliRun r = CliRun.run("topology", "--root", tmp.resolve("nope").toString());
        assertOneLineError(r, 2, "corescope: --root " + tmp.resolve("nope") + ": no such directory");
    }

    @Test
    void rootThatIsAFileIsExit2() throws Exception {
        Path f = Files.writeString(tmp.resolve("file"), "x");
        assertOneLineError(CliRun.run("topology", "--root", f.toString()), 2, "corescope: --root " + f + ": not a directory");
    }

    @Test
    void rootWithoutSysfsIsExit2() {
        assertOneLineError(CliRun.run("topology", "--root", tmp.toString()), 2, "corescope: --root " + tmp + ": holds no sys/devices/system/cpu");
    }

    @Test
    void captureArchiveAsRootSaysToUnpackIt() throws Exception {
        Path f = Files.writeString(tmp.resolve("box.tar.gz"), "x");
        assertOneLineError(CliRun.run("topology", "--root", f.toString()), 2, "corescope: --root " + f + ": a capture archive; unpack it first");
    }

    @Test
    void unknownFormatIsExit2() throws Exception {
        assertOneLineError(CliRun.run("topology", "--root", tree().toString(), "--format", "xml"), 2, "corescope: ");
    }

    @Test
    void aCpuNumberNoKernelBuildsForIsRefusedInOneLine() throws Exception {
        Path root = tree();
        String cpu = "sys/devices/system/cpu/";
        for (String file : new String[]{"possible", "present", "online", "offline"}) {
            Path t = tmp.resolve("t-" + file);
            copy(root, t);
            write(t, cpu + file, "0-16777215");
            assertOneLineError(CliRun.run("topology", "--root", t.toString()), 2,
                    "corescope: --root " + t.resolve(cpu + file) + ": CPU 16777215 is beyond 65535, the largest CPU number corescope reads");
        }
        Files.createDirectories(root.resolve(cpu + "cpu70000"));
        assertOneLineError(CliRun.run("topology", "--root", root.toString()), 2, "corescope: --root " + root.resolve(cpu + "cpu70000") + ": CPU 70000 is beyond");
    }

    @Test
    void aLargePossibleRangeWithinTheLimitIsReadAndCountedOffline() throws Exception {
        Path root = tree();
        write(root, "sys/devices/system/cpu/possible", "0-65535");
        CliRun r = CliRun.run("topology", "--root", root.toString());
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.out().strip().endsWith("1 package, 2 cores, 2 PUs (+65534 offline), 1 NUMA node; caches unknown"), r.out());
    }

    @Test
    void aFifoPlantedInATreeIsReportedNotOpened() throws Exception {
        Path root = tree();
        Path coreId = root.resolve("sys/devices/system/cpu/cpu1/topology/core_id");
        Files.delete(coreId);
        assumeTrue(new ProcessBuilder("mkfifo", coreId.toString()).start().waitFor() == 0, "mkfifo is missing");
        // Opening the FIFO would block for ever (no writer): the run must end, and say why.
        CliRun r = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(60),
                () -> CliRun.run("topology", "--root", root.toString()));
        assertEquals(0, r.exitCode(), r.err());
        assertFalse(r.err().contains("Exception"), r.err());
        CliRun.assertApproved("cli/topology-fifo-core-id.txt", r.out(), Map.of("root", root.toString()));
    }

    private static void copy(Path from, Path to) throws Exception {
        try (var files = Files.walk(from)) {
            for (Path p : files.toList()) {
                Path q = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) Files.createDirectories(q);
                else Files.copy(p, q);
            }
        }
    }

    @Test
    void savedTreeAsTextEndsWithTheSummary() throws Exception {
        Path root = tree();
        CliRun r = CliRun.run("topology", "--root", root.toString());
        assertEquals(0, r.exitCode(), r.err());
        String out = r.out();
        CliRun.assertApproved("cli/topology-saved-tree.txt", out, Map.of("root", root.toString()));
        assertFalse(out.contains("Allowed:"), "no allowed set for a saved tree");
    }

    @Test
    void savedTreeAsJsonHasNoAllowedSet() throws Exception {
        CliRun r = CliRun.run("topology", "--root", tree().toString(), "--format", "json");
        assertEquals(0, r.exitCode(), r.err());
        JsonNode j = new ObjectMapper().readTree(r.out());
        assertEquals(2, j.get("summary").get("cores").asInt());
        assertFalse(j.get("cpus").has("allowed"));
    }

    @Test
    void liveJsonHasTheAllowedSet() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/sys/devices/system/cpu")), "no /sys here");
        CliRun r = CliRun.run("topology", "--format", "json");
        assertEquals(0, r.exitCode(), r.err());
        JsonNode j = new ObjectMapper().readTree(r.out());
        assertEquals(dev.corescope.sys.internal.Affinity.processAllowed().toList(), j.get("cpus").get("allowed").asText());
    }

    @Test
    void svgGoesToTheOutputFile() throws Exception {
        Path out = tmp.resolve("m.svg");
        CliRun r = CliRun.run("topology", "--root", tree().toString(), "--format", "svg", "-o", out.toString());
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(Files.readString(out).startsWith("<svg "));
        assertTrue(r.out().contains("written to " + out));
    }

    @Test
    void outputIntoAMissingFolderIsExit2AndWritesNothing() throws Exception {
        Path out = tmp.resolve("missing/m.txt");
        assertOneLineError(CliRun.run("topology", "--root", tree().toString(), "-o", out.toString()), 2, "corescope: -o " + out + ": folder");
        assertFalse(Files.exists(tmp.resolve("missing")));
    }

    @Test
    void captureIntoAMissingFolderIsExit2AndWritesNothing() {
        Path out = tmp.resolve("missing/box.tar.gz");
        assertOneLineError(CliRun.run("capture", "-o", out.toString()), 2, "corescope: -o " + out + ": folder " + tmp.resolve("missing") + " does not exist");
        assertFalse(Files.exists(tmp.resolve("missing")));
    }

    @Test
    void captureIntoAFolderThatCannotBeWrittenFailsWithOneLineAndNoFile() throws Exception {
        Path ro = Path.of("/proc/corescope-test.tar.gz");
        assumeTrue(Files.isDirectory(Path.of("/proc/self")), "no /proc here");
        CliRun r = CliRun.run("capture", "-o", ro.toString());
        assertTrue(r.exitCode() == 1 || r.exitCode() == 2, "exit " + r.exitCode());
        assertEquals("", r.out());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().startsWith("corescope: "), r.err());
        try (Stream<Path> s = Files.list(Path.of("/proc"))) {
            assertFalse(s.anyMatch(p -> p.getFileName().toString().contains("corescope-test")));
        }
    }

    @Test
    void captureWithoutOutputIsExit2() {
        CliRun r = CliRun.run("capture");
        assertEquals(2, r.exitCode());
        assertEquals("", r.out());
    }

    @Test
    void liveCaptureWritesAnArchiveAndSaysHowToUnpackIt() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/sys/devices/system/cpu")), "no /sys here");
        Path out = tmp.resolve("box.tar.gz");
        CliRun r = CliRun.run("capture", "-o", out.toString());
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(Files.size(out) > 100);
        assertTrue(r.out().contains("tar xzf " + out), r.out());
    }

    /** Runs the picocli-free path with System.out captured. */
    private static String fast(java.util.OptionalInt[] code, String... args) {
        java.io.PrintStream saved = System.out;
        java.io.ByteArrayOutputStream buf = new java.io.ByteArrayOutputStream();
        System.setOut(new java.io.PrintStream(buf, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            code[0] = ShortCommands.run(args);
        } finally {
            System.setOut(saved);
        }
        return buf.toString(java.nio.charset.StandardCharsets.UTF_8);
    }

    @Test
    void pathWithoutPicocliPrintsWhatPicocliPrints() throws Exception {
        String root = tree().toString();
        for (String[] opts : List.of(new String[] {}, new String[] {"--format", "json"}, new String[] {"--format=svg"})) {
            List<String> args = new java.util.ArrayList<>(List.of("topology", "--root", root));
            args.addAll(List.of(opts));
            java.util.OptionalInt[] code = new java.util.OptionalInt[1];
            String out = fast(code, args.toArray(String[]::new));
            assertEquals(java.util.OptionalInt.of(0), code[0]);
            assertEquals(CliRun.run(args.toArray(String[]::new)).out(), out, String.join(" ", args));
        }
    }

    @Test
    void pathWithoutPicocliLeavesHelpOddOptionsAndErrorsToPicocli() throws Exception {
        String root = tree().toString();
        for (String[] args : List.of(new String[] {"topology", "--help"}, new String[] {"topology", "--format", "xml"},
                new String[] {"topology", "--root", tmp.resolve("nope").toString()}, new String[] {"topology", "--root"},
                new String[] {"topology", "--root", root, "--root", root}, new String[] {"topology", "word"})) {
            java.util.OptionalInt[] code = new java.util.OptionalInt[1];
            assertEquals("", fast(code, args), "nothing printed for " + String.join(" ", args));
            assertTrue(code[0].isEmpty(), String.join(" ", args));
        }
    }

    @Test
    void helpExplainsWithExamples() {
        for (String cmd : List.of("topology", "capture")) {
            CliRun r = CliRun.run(cmd, "--help");
            assertEquals(0, r.exitCode());
            assertTrue(r.out().contains("Example"), r.out());
        }
    }
}
