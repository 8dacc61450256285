package dev.corescope.topology;

import dev.corescope.testing.Archives;
import dev.corescope.topology.proc.SysfsReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** capture → unpack (with commons-compress, not our own code) → read: the same report. */
class CaptureTest {

    @TempDir
    Path tmp;

    static List<String> trees() {
        return Fixtures.names();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("trees")
    void replayOfACaptureGivesTheSameReport(String name) throws IOException {
        Topology original = Topology.read(Fixtures.root(name));
        Path archive = tmp.resolve("box.tar.gz");
        Capture.Result r = Capture.write(original, archive);
        assertEquals("box", r.folder());
        assertEquals(original.filesRead().size(), r.files());

        Path root = Archives.unpack(archive, tmp.resolve("x"));
        Topology replay = Topology.read(root);
        assertEquals(TopologyText.render(original), TopologyText.render(replay));
        assertEquals(TopologyJson.render(original).replace(original.source(), "ROOT"),
                TopologyJson.render(replay).replace(replay.source(), "ROOT"));
        assertEquals(TopologySvg.render(original), TopologySvg.render(replay));
        assertEquals(new TreeSet<>(original.filesRead()), new TreeSet<>(replay.filesRead()));
    }

    @Test
    void captureHoldsOnlyTheFilesTheReaderRead() throws IOException {
        Topology t = Topology.read(Fixtures.root("20em64t-hybrid-1p6c2t+2ca4co1t"));
        Path archive = tmp.resolve("hybrid.tar.gz");
        Capture.write(t, archive);
        Path root = Archives.unpack(archive, tmp.resolve("x"));
        TreeSet<String> inArchive = new TreeSet<>();
        try (Stream<Path> s = Files.walk(root)) {
            s.filter(Files::isRegularFile).forEach(p -> inArchive.add(root.relativize(p).toString()));
        }
        assertEquals(new TreeSet<>(t.filesRead()), inArchive);
        // the fixture has DMI files, hugepages and cpuidle the reader never looks at
        assertFalse(inArchive.stream().anyMatch(p -> p.startsWith("sys/class/dmi")), "DMI files are not captured");
        assertTrue(inArchive.contains("sys/devices/system/cpu/cpu12/cache/index2/shared_cpu_map"));
    }

    @Test
    void liveCaptureReplaysAsTheLiveReportWithoutTheAllowedLine() throws IOException {
        assumeTrue(Files.isDirectory(Path.of("/sys/devices/system/cpu")), "no /sys here");
        Topology live = Topology.live();
        Path archive = tmp.resolve("live.tar.gz");
        Capture.write(live, archive);
        Topology replay = Topology.read(Archives.unpack(archive, tmp.resolve("x")));
        String liveText = TopologyText.render(live).lines()
                .filter(l -> !l.startsWith("Allowed: ") && !l.contains("(sched_getaffinity)"))
                .reduce("", (a, b) -> a + b + "\n");
        assertEquals(liveText, TopologyText.render(replay));
        assertTrue(replay.allowed().isEmpty());
        assertEquals(live.summary(), replay.summary());
    }

    @Test
    void unreadableFilesAreSkippedAndListed() throws IOException {
        FakeSysfs f = FakeSysfs.twoCores(tmp.resolve("tree"));
        Path coreId = f.root().resolve(FakeSysfs.CPU + "/cpu1/topology/core_id");
        Files.delete(coreId);
        Files.createDirectory(coreId);
        Topology t = Topology.read(f.root());
        Capture.Result r = Capture.write(t, tmp.resolve("c.tar.gz"));
        assertEquals(List.of("sys/devices/system/cpu/cpu1/topology/core_id"), r.skipped());
        Path root = Archives.unpack(tmp.resolve("c.tar.gz"), tmp.resolve("x"));
        assertFalse(Files.isRegularFile(root.resolve(FakeSysfs.CPU + "/cpu1/topology/core_id")));
    }

    @Test
    void missingFolderIsRefusedAndNothingIsWritten() {
        Topology t = Topology.read(FakeSysfs.twoCores(tmp.resolve("tree")).root());
        Path out = tmp.resolve("no/such/folder/c.tar.gz");
        assertThrows(NoSuchFileException.class, () -> Capture.write(t, out));
        assertFalse(Files.exists(tmp.resolve("no")));
    }

    @Test
    void folderThatIsAFileIsRefused() throws IOException {
        Topology t = Topology.read(FakeSysfs.twoCores(tmp.resolve("tree")).root());
        Path file = Files.writeString(tmp.resolve("plain"), "x");
        assertThrows(NotDirectoryException.class, () -> Capture.write(t, file.resolve("c.tar.gz")));
    }

    @Test
    void failedWriteLeavesNoPartialFile() throws IOException {
        Topology t = Topology.read(FakeSysfs.twoCores(tmp.resolve("tree")).root());
        Path out = tmp.resolve("out");
        Files.createDirectories(out.resolve("c.tar.gz/occupied"));
        // the target is a non-empty folder: the final rename fails after the archive was written
        assertThrows(IOException.class, () -> Capture.write(t, out.resolve("c.tar.gz")));
        try (Stream<Path> s = Files.list(out)) {
            assertEquals(List.of("c.tar.gz"), s.map(p -> p.getFileName().toString()).toList(), "no temporary file left");
        }
    }

    @Test
    void longPathsSurviveTheTarFormat() throws IOException {
        String deep = FakeSysfs.CPU + "/cpu0/" + "x".repeat(90) + "/" + "y".repeat(90) + "/" + "z".repeat(120);
        FakeSysfs f = FakeSysfs.twoCores(tmp.resolve("tree"));
        f.file(deep, "42");
        Topology t = Topology.read(f.root());
        // read through the reader so that the file is recorded like any other
        SysfsReader r = new SysfsReader(f.root(), true);
        assertEquals("42", r.read(deep).orElseThrow());
        java.util.Map<String, byte[]> files = new java.util.LinkedHashMap<>(t.fileContents());
        files.putAll(r.filesRead());
        Path archive = tmp.resolve("long.tar.gz");
        try (var os = new java.util.zip.GZIPOutputStream(Files.newOutputStream(archive));
             Capture.TarWriter tar = new Capture.TarWriter(os)) {
            for (var e : files.entrySet()) tar.file("long/" + e.getKey(), e.getValue(), 0);
        }
        Path root = Archives.unpack(archive, tmp.resolve("x"));
        assertEquals("42\n", Files.readString(root.resolve(deep)));
    }
}
