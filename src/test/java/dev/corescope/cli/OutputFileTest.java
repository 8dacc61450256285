package dev.corescope.cli;

import dev.corescope.report.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.File;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code -o FILE} never destroys what the user did not ask to replace: devices and FIFOs are
 * written through, symlinks are followed (the link stays), inputs are refused, and a folder
 * that cannot take the file is found before any work; a broken stdout is exit 1.
 */
class OutputFileTest {

    @TempDir
    Path tmp;

    /** A tiny saved tree for {@code topology --root}: one package, two cores. */
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

    private static boolean run(String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        return p.waitFor() == 0;
    }

    private static String kind(Path p) {
        return OutputFile.kind(p);
    }

    @Test
    void aCharacterDeviceIsWrittenThroughNotReplaced() throws Exception {
        Path fakeNull = tmp.resolve("fakenull");
        assumeTrue(run("mknod", fakeNull.toString(), "c", "1", "3"), "mknod needs root (CAP_MKNOD)");
        CliRun r = CliRun.run("topology", "--root", tree().toString(), "-o", fakeNull.toString());
        assertEquals(0, r.exitCode(), r.err());
        assertEquals("character device", kind(fakeNull), "still the device, not a regular file");
        try (var s = Files.list(tmp)) {
            assertEquals(List.of("fakenull", "tree"), s.map(p -> p.getFileName().toString()).sorted().toList(), "no temporary file left");
        }
    }

    @Test
    void aBlockDeviceIsRefused() throws Exception {
        Path fakeDisk = tmp.resolve("fakedisk");
        assumeTrue(run("mknod", fakeDisk.toString(), "b", "7", "200"), "mknod needs root (CAP_MKNOD)");
        CliRun.run("topology", "--root", tree().toString(), "-o", fakeDisk.toString()).badInput("is a block device");
        assertEquals("block device", kind(fakeDisk));
    }

    @Test
    void aFifoIsWrittenThroughToItsReader() throws Exception {
        Path fifo = tmp.resolve("pipe");
        assumeTrue(run("mkfifo", fifo.toString()), "mkfifo is missing");
        CompletableFuture<byte[]> reader = CompletableFuture.supplyAsync(() -> {
            try {
                return Files.readAllBytes(fifo);
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        }, dev.corescope.testing.OwnThread.EACH);
        CliRun r = CliRun.run("topology", "--root", tree().toString(), "--format", "json", "-o", fifo.toString());
        assertEquals(0, r.exitCode(), r.err());
        String json = new String(reader.get(30, TimeUnit.SECONDS), StandardCharsets.UTF_8);
        assertTrue(json.contains("\"summary\""), json);
        assertEquals("FIFO", kind(fifo), "still a FIFO");
    }

    @Test
    void aSymlinkIsFollowedAndStaysALink() throws Exception {
        Path target = tmp.resolve("real.json");
        Files.writeString(target, "old");
        Path link = tmp.resolve("link.json");
        Files.createSymbolicLink(link, target.getFileName());
        CliRun r = CliRun.run("topology", "--root", tree().toString(), "--format", "json", "-o", link.toString());
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(Files.isSymbolicLink(link), "the link is still a link");
        assertTrue(Files.readString(target).contains("\"summary\""), "its target got the output");
    }

    @Test
    void aSymlinkToNothingIsRefusedAndKept() throws Exception {
        Path link = tmp.resolve("dangling.json");
        Files.createSymbolicLink(link, tmp.resolve("nowhere/x.json"));
        CliRun.run("topology", "--root", tree().toString(), "-o", link.toString()).badInput("which does not exist");
        assertTrue(Files.isSymbolicLink(link));
    }

    @Test
    void aReportOverItsOwnInputIsRefusedAlsoThroughLinks() throws Exception {
        Path results = tmp.resolve("corescope-results.json");
        Files.copy(ReportCommandTest.fixture("tour-before.json"), results);
        byte[] before = Files.readAllBytes(results);
        Path hard = tmp.resolve("hard.json");
        Files.createLink(hard, results);
        Path soft = tmp.resolve("soft.json");
        Files.createSymbolicLink(soft, results);
        for (Path out : List.of(results, hard, soft, tmp.resolve(".").resolve("corescope-results.json"))) {
            CliRun.run("report", results.toString(), "-o", out.toString()).badInput("is also an input");
        }
        CliRun.run("report", ReportCommandTest.fixture("tour-after.json").toString(), results.toString(), "-o", hard.toString())
                .badInput("is also an input (" + results + ")");
        assertArrayEquals(before, Files.readAllBytes(results), "the input is untouched");
    }

    @Test
    void topologyFromAFileNeverWritesOverThatFileAlsoThroughLinks() throws Exception {
        Path xml = tmp.resolve("own.xml");
        CliRun.run("topology", "--root", tree().toString(), "--format", "hwloc-xml", "-o", xml.toString()).succeeded();
        byte[] before = Files.readAllBytes(xml);
        Path hard = tmp.resolve("hard.xml");
        Files.createLink(hard, xml);
        Path soft = tmp.resolve("soft.xml");
        Files.createSymbolicLink(soft, xml.getFileName());
        for (String format : List.of("text", "hwloc-xml")) {
            for (Path out : List.of(xml, hard, soft)) {
                CliRun.run("topology", "--from", xml.toString(), "--format", format, "-o", out.toString()).badInput("is also an input (" + xml + ")");
            }
        }
        assertArrayEquals(before, Files.readAllBytes(xml), "the input is untouched");
    }

    @Test
    void aFileOfTheRootTreeIsAnInputToTopologyAndExportAlsoThroughAHardLink() throws Exception {
        Path root = tree();
        Path inTree = root.resolve("sys/devices/system/cpu/online");
        Path hard = tmp.resolve("online-link");
        Files.createLink(hard, inTree);
        for (Path out : List.of(inTree, hard)) {
            CliRun.run("topology", "--root", root.toString(), "-o", out.toString()).badInput("is also an input (" + root + " holds it)");
            CliRun.run("export", "--root", root.toString(), "-o", out.toString()).badInput("is also an input (" + root + " holds it)");
        }
        assertEquals("0-1\n", Files.readString(inTree));
        // a new file beside the tree's files replaces nothing
        CliRun.run("topology", "--root", root.toString(), "-o", root.resolve("topology.txt").toString()).succeeded();
    }

    @Test
    void anEmptyPathIsRefusedAsEmptyByEveryPathOption() throws Exception {
        CliRun.run("export", "-o", "").badInput("--output': an empty string names no file");
        CliRun.run("topology", "--root", "").badInput("--root': an empty string names no file");
        CliRun.run("topology", "--from", "").badInput("--from': an empty string names no file");
        CliRun.run("report", "").badInput("an empty string names no file");
        CliRun.run("compare", "", "").badInput("an empty string names no file");
        CliRun.run("capture", "-o", "").badInput("an empty string names no file");
        CliRun.run("bench", "c2c", "--plan", "--root", "").badInput("an empty string names no file");
    }

    @Test
    void theFormatFollowsTheOutputsNameWhenNoneIsGiven() throws Exception {
        Path root = tree();
        for (String name : List.of("t.svg", "t.json", "t.xml", "t.txt", "t")) {
            Path out = tmp.resolve(name);
            CliRun r = CliRun.run("topology", "--root", root.toString(), "-o", out.toString()).succeeded();
            String text = Files.readString(out);
            String want = name.endsWith(".svg") ? "<svg" : name.endsWith(".json") ? "\"summary\"" : name.endsWith(".xml") ? "<topology version=\"2" : "Machine";
            assertTrue(text.contains(want), name + ": " + text.substring(0, Math.min(200, text.length())));
            assertTrue(r.out().contains("(" + (name.endsWith(".svg") ? "svg" : name.endsWith(".json") ? "json" : name.endsWith(".xml") ? "hwloc-xml" : "text") + ")"), r.out());
        }
        // --format wins over the name
        Path svg = tmp.resolve("forced.svg");
        CliRun.run("topology", "--root", root.toString(), "--format", "json", "-o", svg.toString()).succeeded();
        assertTrue(Files.readString(svg).contains("\"summary\""));
    }

    @Test
    void anOutputThatCannotBeCreatedIsFoundBeforeAnyBenchmarkRuns() {
        assumeTrue(Files.isDirectory(Path.of("/proc/self")), "needs Linux /proc");
        AtomicBoolean ran = new AtomicBoolean();
        var sleeping = new TestFamilies.Sleeping("one");
        var family = new dev.corescope.bench.BenchFamily() {
            @Override
            public String name() {
                return "one";
            }

            @Override
            public String summary() {
                return sleeping.summary();
            }

            @Override
            public dev.corescope.bench.FamilyRun run(dev.corescope.bench.BenchContext ctx) throws Exception {
                ran.set(true);
                return sleeping.run(ctx);
            }
        };
        CommandLine cl = Main.commandLine(() -> List.of(family), tmp.resolve("unused.json"));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute("bench", "one", "-o", "/proc/corescope-x.json");
        new CliRun(code, out.toString(), err.toString()).badInput("-o /proc/corescope-x.json: no file can be created in folder /proc");
        assertFalse(ran.get(), "nothing ran");
    }

    @Test
    void aReadOnlyFileIsNotReplaced() throws Exception {
        Path ro = tmp.resolve("ro.json");
        Files.writeString(ro, "keep");
        assertTrue(ro.toFile().setWritable(false, false));
        // as root too: root may write anything, but a 0444 file says it is not to be replaced
        CliRun.run("topology", "--root", tree().toString(), "-o", ro.toString()).badInput("read-only");
        assertEquals("keep", Files.readString(ro));
    }

    /** A new file gets 0666 less the umask, as a shell's {@code >} would: umask 077 gives 0600, not 0644. */
    @Test
    void aNewFileTakesTheUmask() throws Exception {
        Path out = tmp.resolve("private.json");
        List<String> cmd = new ArrayList<>(List.of("/bin/sh", "-c", "umask 077 && exec \"$@\"", "sh",
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"), Main.class.getName(),
                "topology", "--root", tree().toString(), "-o", out.toString()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), said);
        assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(out)));
    }

    /** Root replacing another user's file leaves it theirs (owner, group and mode kept). */
    @Test
    void rootReplacingAnotherUsersFileLeavesItTheirs() throws Exception {
        assumeTrue(isRoot(), "needs root to give a file to another user");
        Path theirs = tmp.resolve("theirs.txt");
        Files.writeString(theirs, "old");
        Files.setAttribute(theirs, "unix:uid", 54321);
        Files.setAttribute(theirs, "unix:gid", 54322);
        assertEquals(0, CliRun.run("topology", "--root", tree().toString(), "-o", theirs.toString()).exitCode());
        assertTrue(Files.readString(theirs).contains("CPUs"), "replaced");
        assertEquals(54321, (Integer) Files.getAttribute(theirs, "unix:uid"));
        assertEquals(54322, (Integer) Files.getAttribute(theirs, "unix:gid"));
    }

    /**
     * In a sticky folder anyone may write, a link another user planted is not followed (as
     * fs.protected_symlinks): it cannot aim root's output at root's own files. A link of this
     * user's own is followed as before.
     */
    @Test
    void aLinkAnotherUserPlantedInAStickyFolderIsRefused() throws Exception {
        assumeTrue(isRoot(), "needs root to make a link of another user");
        Path shared = Files.createDirectory(tmp.resolve("shared"));
        assertTrue(run("chmod", "1777", shared.toString()));
        Path victim = tmp.resolve("victim.txt");
        Files.writeString(victim, "precious");
        Path planted = Files.createSymbolicLink(shared.resolve("out.txt"), victim);
        assertTrue(run("chown", "-h", "54321", planted.toString()));
        CliRun.run("topology", "--root", tree().toString(), "-o", planted.toString()).badInput("protected_symlinks");
        assertEquals("precious", Files.readString(victim));
        Path mine = Files.createSymbolicLink(shared.resolve("mine.txt"), victim);
        assertEquals(0, CliRun.run("topology", "--root", tree().toString(), "-o", mine.toString()).exitCode());
        assertTrue(Files.isSymbolicLink(mine));
        assertTrue(Files.readString(victim).contains("CPUs"), "one's own link is followed");
    }

    private static boolean isRoot() throws Exception {
        return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid") == 0;
    }

    /** Runs {@link Main#main} in a child JVM with stdout going to {@code stdout}. */
    private static CliRun child(File stdout, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectOutput(stdout).start();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        return new CliRun(p.exitValue(), "", err);
    }

    @Test
    void aFullStdoutIsExit1WithOneLine() throws Exception {
        File full = new File("/dev/full");
        assumeTrue(full.exists() && full.canWrite(), "no /dev/full here");
        Path results = tmp.resolve("r.json");
        Files.writeString(results, Json.write(dev.corescope.report.ResultsFile.builder().build()));
        for (String[] args : List.of(new String[] {"topology", "--root", tree().toString()}, new String[] {"mask", "1"},
                new String[] {"affinity"}, new String[] {"compare", results.toString(), results.toString()})) {
            CliRun r = child(full, args);
            assertEquals(1, r.exitCode(), String.join(" ", args) + ": " + r.err());
            assertEquals("corescope: cannot write to standard output (No space left on device); the output is lost\n", r.err(),
                    String.join(" ", args));
        }
    }
}
