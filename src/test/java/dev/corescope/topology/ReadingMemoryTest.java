package dev.corescope.topology;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.testing.BigTrees;
import dev.corescope.topology.proc.SysfsReader;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 28: what a big tree's read keeps in the heap. At 8192 CPUs a mask is 1 KiB and a tree
 * is ~200,000 files: equal masks are one instance (a package's 1024 CPUs and a core's L1d, L1i
 * and L2 each read the same text), and a command that saves nothing records no file paths.
 * Counts instances and entries, never bytes of a live heap or time.
 */
class ReadingMemoryTest {

    @TempDir
    static Path tmp;

    static Path tree;

    @BeforeAll
    static void tree() {
        tree = BigTrees.write(tmp.resolve("t512"), BigTrees.shapeFor(512));
    }

    private static List<CpuMask> masksOf(Topology t) {
        List<CpuMask> masks = new ArrayList<>();
        for (List<TopologyNode> kind : List.of(t.packages(), t.dies(), t.clusters(), t.cores(), t.pus())) {
            for (TopologyNode n : kind) masks.add(n.cpus());
        }
        for (Cache c : t.caches()) masks.add(c.cpus());
        return masks;
    }

    @Test
    void equalMasksInTheTreeAreOneInstance() {
        Topology t = Topology.read(tree);
        List<CpuMask> masks = masksOf(t);
        Set<CpuMask> byValue = new HashSet<>(masks);
        Set<CpuMask> byInstance = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        byInstance.addAll(masks);
        // 256 cores x (core, L1d, L1i, L2) share one mask each; before, each object had its own
        assertTrue(masks.size() > 2 * byValue.size(), masks.size() + " masks, " + byValue.size() + " distinct");
        assertEquals(byValue.size(), byInstance.size(), "masks of equal CPUs are one instance");
    }

    @Test
    void theSameTextReadTwiceIsTheSameMask() throws IOException {
        Path root = tmp.resolve("two");
        Files.createDirectories(root);
        Files.writeString(root.resolve("a"), "0-3,8\n");
        Files.writeString(root.resolve("b"), "0-3,8\n");
        Files.writeString(root.resolve("c"), "0000010f\n");
        Files.writeString(root.resolve("d"), "0000010f\n");
        SysfsReader r = new SysfsReader(root);
        CpuMask a = r.readList("a", 16).orElseThrow();
        assertSame(a, r.readList("b", 16).orElseThrow());
        assertEquals(CpuMask.parseList("0-3,8", 16), a);
        CpuMask c = r.readMap("c", 16).orElseThrow();
        assertSame(c, r.readMap("d", 16).orElseThrow());
        assertEquals(a, c, "the list and the map name the same CPUs");
        // another width is another mask, the list text is not read as a map
        assertEquals(64, r.readList("a", 64).orElseThrow().nbits());
        assertEquals(CpuMask.parseHex("0000010f", 64), r.readMap("c", 64).orElseThrow());
    }

    @Test
    void anUnrecordedReadRecordsNoFileYetReadsTheSameAndCaptureStillSavesEveryFile() throws IOException {
        Topology recorded = Topology.read(tree);
        Topology unrecorded = Topology.read(SysfsReader.unrecorded(tree));
        assertTrue(recorded.filesRead().size() > 10_000, recorded.filesRead().size() + " files");
        assertEquals(List.of(), unrecorded.filesRead());
        assertFalse(unrecorded.readRecorded());
        assertEquals(TopologyText.render(recorded), TopologyText.render(unrecorded));
        assertEquals(TopologyJson.render(recorded), TopologyJson.render(unrecorded));

        // capture of a topology read without a record reads the tree again, keeping the bytes
        Capture.Result r = Capture.write(unrecorded, tmp.resolve("u.tar.gz"));
        assertEquals(recorded.filesRead().size(), r.files());
    }
}
