package dev.corescope.topology;

import org.junit.jupiter.api.Test;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.compressors.bzip2.BZip2CompressorInputStream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * corescope's reading of hwloc's own test trees against what {@code lstopo} printed for them
 * (the {@code .console} beside each {@code .tar.bz2}): the number of packages, cores, PUs, NUMA
 * nodes and caches of each kind, and whether each NUMA node sits inside something (a package,
 * an L3, a group) or at the top of the machine.
 *
 * <p>In CI it runs on every tree of the fixtures folder ({@code src/test/resources/fixtures/topology})
 * that has a console. Locally, with
 * {@code -Dcorescope.hwloc.dir=DIR} (an unpacked {@code tests/hwloc/linux} of hwloc's
 * repository), it runs on every tree there too; the trees are unpacked under
 * {@code target/hwloc-trees}. Where corescope differs from hwloc on purpose the tree is
 * skipped with the reason ({@link #DIFFERS_ON_PURPOSE}, and docs/topology.md).
 */
class HwlocComparisonTest {

    /** Trees where corescope and hwloc differ on purpose, with why. */
    static final Map<String, String> DIFFERS_ON_PURPOSE = Map.of();

    static List<Path> trees() throws IOException {
        List<Path> out = new ArrayList<>();
        out.addAll(consoleTrees(Fixtures.dir()));
        String hwloc = System.getProperty("corescope.hwloc.dir");
        if (hwloc != null) out.addAll(consoleTrees(Path.of(hwloc)));
        return out;
    }

    private static List<Path> consoleTrees(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) return List.of();
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".tar.bz2"))
                    .filter(p -> Files.exists(console(p)))
                    .sorted().toList();
        }
    }

    private static Path console(Path archive) {
        String n = archive.getFileName().toString();
        return archive.resolveSibling(n.substring(0, n.length() - ".tar.bz2".length()) + ".console");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("trees")
    void countsAndNumaPlacementAgreeWithLstopo(Path archive) throws IOException {
        String name = archive.getFileName().toString().replace(".tar.bz2", "");
        Assumptions.assumeFalse(DIFFERS_ON_PURPOSE.containsKey(name), () -> DIFFERS_ON_PURPOSE.get(name));
        HwlocConsole want = HwlocConsole.parse(Files.readString(console(archive)));
        Topology t = Topology.read(unpack(archive));
        Topology.Summary s = t.summary();
        List<org.junit.jupiter.api.function.Executable> checks = new ArrayList<>(List.of(
                () -> assertEquals(want.count("Package"), s.packages(), "packages"),
                () -> assertEquals(want.count("Core"), s.cores(), "cores"),
                () -> assertEquals(want.count("PU"), s.pus(), "PUs"),
                () -> assertEquals(want.count("NUMANode"), s.numaNodes(), "NUMA nodes"),
                () -> assertEquals(want.count("L1dCache"), Fixtures.cacheCount(t, "L1d"), "L1d"),
                () -> assertEquals(want.count("L1iCache"), Fixtures.cacheCount(t, "L1i"), "L1i"),
                () -> assertEquals(want.count("L2Cache"), Fixtures.cacheCount(t, "L2"), "L2"),
                () -> assertEquals(want.count("L3Cache"), Fixtures.cacheCount(t, "L3"), "L3")));
        DisplayTree tree = DisplayTree.of(t);
        for (var e : want.numaParents().entrySet()) {
            int id = e.getKey();
            boolean hwlocNested = !e.getValue().equals("Machine");
            checks.add(() -> assertEquals(hwlocNested, !atTop(tree, id),
                    "NUMA node " + id + " under " + e.getValue() + " in lstopo"));
        }
        assertAll(name, checks);
    }

    private static boolean atTop(DisplayTree tree, int numaId) {
        for (DisplayTree.Item i : tree.roots()) {
            if (i.kind() == DisplayTree.Kind.NUMA && i.title().equals("NUMANode P#" + numaId)) return true;
        }
        return false;
    }

    /**
     * An AMD Opteron 6276 tree (hwloc's {@code 64amd64-4s2n4ca2co}) whose {@code shared_cpu_list}
     * of the L1i and L2 names one core where {@code shared_cpu_map} names the compute unit's
     * two: the map is followed, as hwloc follows it, so each of the 32 compute units has one
     * L1i and one L2 (the list gave 64 of each, one per core).
     */
    @Test
    void anAmdComputeUnitsL1iAndL2FollowTheMapWhereTheListDisagrees() throws IOException {
        Topology t = Topology.read(unpack(Fixtures.dir().resolve("64amd64-4s2n4ca2co.tar.bz2")));
        assertEquals(32, Fixtures.cacheCount(t, "L1i"));
        assertEquals(32, Fixtures.cacheCount(t, "L2"));
        assertEquals(64, Fixtures.cacheCount(t, "L1d"));
        assertEquals(List.of("0", "0-1", "0-1", "0-7"), t.caches().stream().filter(c -> c.cpus().test(0)).map(c -> c.cpus().toList()).sorted().toList(),
                "CPU 0's L1d, L1i, L2 and L3");
    }

    /** Unpacked once under target/hwloc-trees/NAME; the root holding sys/. */
    static Path unpack(Path archive) throws IOException {
        String name = archive.getFileName().toString().replace(".tar.bz2", "");
        Path into = Path.of(System.getProperty("corescope.basedir", "."), "target", "hwloc-trees", name);
        Path marker = into.resolve(".unpacked-" + Files.size(archive));
        if (!Files.exists(marker)) {
            Fixtures.deleteTree(into);
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
                        Files.deleteIfExists(target);
                        Files.createSymbolicLink(target, Path.of(e.getLinkName()));
                    } else if (e.isFile()) {
                        Files.createDirectories(target.getParent());
                        Files.copy(tar, target, StandardCopyOption.REPLACE_EXISTING);
                    }
                }
            }
            Files.createFile(marker);
        }
        try (Stream<Path> s = Files.list(into)) {
            return s.filter(Files::isDirectory).findFirst().orElseThrow(() -> new IOException(archive + " holds no folder"));
        }
    }
}
