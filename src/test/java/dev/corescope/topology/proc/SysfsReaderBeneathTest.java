package dev.corescope.topology.proc;

import java.io.RandomAccessFile;
import java.util.concurrent.atomic.AtomicLong;
import dev.corescope.topology.TopologyJson;
import dev.corescope.topology.Topology;
import dev.corescope.topology.Fixtures;
import dev.corescope.sys.internal.BeneathDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A saved tree is opened beneath its directory (issue 23 point 7): {@code openat2} with
 * {@code RESOLVE_BENEATH}, so a link out of the tree is refused at whichever component it is
 * planted, and a directory swapped for a link while the tree is read leads no open outside.
 * The fallback (real path, then open) is checked against planted links only: it cannot pass the swap test
 * (run against it, that test read the secret 3 times in 0.6 s at load 12).
 */
class SysfsReaderBeneathTest {

    @TempDir
    Path tmp;

    private static final String CORE_ID = "sys/devices/system/cpu/cpu0/topology/core_id";
    private static final String SECRET = "4242";

    /** The tree with {@code core_id} = 0, and outside it a copy of the same folders whose {@code core_id} is the secret. */
    private Path tree() throws Exception {
        Path tree = tmp.resolve("tree");
        Files.createDirectories(tree.resolve(CORE_ID).getParent());
        Files.writeString(tree.resolve(CORE_ID), "0\n");
        Files.createDirectories(tree.resolve("proc"));
        Path outside = tmp.resolve("outside");
        Files.createDirectories(outside.resolve(CORE_ID).getParent());
        Files.writeString(outside.resolve(CORE_ID), SECRET + "\n");
        return tree;
    }

    private static void assumeOpenat2() {
        Optional<String> why = BeneathDirectory.unavailable();
        assumeTrue(why.isEmpty(), () -> "openat2 is not available here: " + why.orElse(""));
    }

    @Test
    void aTreeIsOpenedWithOpenat2WhereTheKernelHasIt() throws Exception {
        assumeOpenat2();
        SysfsReader r = new SysfsReader(tree());
        assertEquals(Optional.of("0"), r.read(CORE_ID));
        assertEquals("openat2 beneath the tree", r.containment());
        assertEquals("root", new SysfsReader(Path.of("/")).containment());
        assertTrue(new SysfsReader(tree(), false, true, true).containment().startsWith("real-path check"));
    }

    /**
     * Each component of {@code sys/devices/system/cpu/cpu0/topology/core_id} in turn is made a
     * link to the same place outside the tree, absolute, relative and through {@code /proc/self/root}.
     */
    @Test
    void aLinkOutOfTheTreeAtEveryLevelIsRefusedAndNamed() throws Exception {
        assumeOpenat2();
        String[] parts = CORE_ID.split("/");
        for (int level = 1; level <= parts.length; level++) {
            String prefix = String.join("/", java.util.Arrays.copyOf(parts, level));
            for (String style : List.of("absolute", "relative", "magic")) {
                deleteTree(tmp);
                Path tree = tree();
                Path outside = tmp.resolve("outside").resolve(prefix);
                Path at = tree.resolve(prefix);
                deleteTree(at);
                Path target = switch (style) {
                    case "absolute" -> outside;
                    case "relative" -> at.getParent().relativize(outside);
                    default -> Path.of("/proc/self/root" + outside);
                };
                Files.createSymbolicLink(at, target);
                SysfsReader r = new SysfsReader(tree);
                String where = prefix + " (" + style + " link to " + target + ")";
                assertEquals(Optional.empty(), r.read(CORE_ID), where);
                assertTrue(r.problems().stream().anyMatch(p -> p.contains(CORE_ID) && p.contains("leads out of the tree")),
                        where + ": " + r.problems());
                assertFalse(String.join("\n", r.problems()).contains(SECRET), where + ": " + r.problems());
                assertTrue(r.list(prefix).isEmpty(), where);
                assertFalse(r.isDirectory(prefix), where);
                SysfsReader fallback = new SysfsReader(tree, false, true, true);
                assertEquals(Optional.empty(), fallback.read(CORE_ID), "fallback: " + where);
                assertTrue(fallback.problems().toString().contains("leads out of the tree"), "fallback: " + where + ": " + fallback.problems());
            }
        }
    }

    /** A link whose real path is inside the tree but which climbs above it first is refused too: beneath means beneath. */
    @Test
    void aLinkThatClimbsAboveTheTreeAndBackIsRefused() throws Exception {
        assumeOpenat2();
        Path tree = tree();
        Path link = tree.resolve("proc/cpuinfo");
        Files.writeString(tree.resolve("proc/cpuinfo.real"), "model name\t: X\n");
        Files.createSymbolicLink(link, Path.of("../../tree/proc/cpuinfo.real"));
        SysfsReader r = new SysfsReader(tree);
        assertEquals(Optional.empty(), r.read("proc/cpuinfo"));
        assertTrue(r.problems().toString().contains("leads out of the tree"), r.problems().toString());
        Files.delete(link);
        Files.createSymbolicLink(link, Path.of("cpuinfo.real"));
        assertEquals(Optional.of("model name\t: X"), new SysfsReader(tree).read("proc/cpuinfo"));
    }

    /**
     * While one thread swaps {@code cpu0/topology} between the tree's folder and a link to the
     * copy outside, the reader reads {@code core_id} again and again: it sees 0, nothing (the name
     * is missing for an instant) or a refusal, never the secret. The old check (real path, then
     * open) reads the secret whenever the swap falls between its two steps.
     */
    @Test
    void aDirectorySwappedForALinkWhileTheTreeIsReadNeverLeadsOutside() throws Exception {
        assumeOpenat2();
        Path tree = tree();
        Path topology = tree.resolve(CORE_ID).getParent();
        Path parked = topology.resolveSibling("topology.real");
        Path link = topology.resolveSibling("topology.link");
        Files.createSymbolicLink(link, tmp.resolve("outside").resolve(CORE_ID).getParent());
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<Throwable> swapFailed = new AtomicReference<>();
        Thread swapper = new Thread(() -> {
            try {
                while (!stop.get()) {
                    Files.move(topology, parked, StandardCopyOption.ATOMIC_MOVE);
                    Files.move(link, topology, StandardCopyOption.ATOMIC_MOVE);
                    Files.move(topology, link, StandardCopyOption.ATOMIC_MOVE);
                    Files.move(parked, topology, StandardCopyOption.ATOMIC_MOVE);
                }
            } catch (Throwable t) {
                swapFailed.set(t);
            }
        }, "swapper");
        swapper.start();
        int zeros = 0;
        int refusals = 0;
        List<String> leaked = new ArrayList<>();
        try {
            // Bounded by counts, not time: at least 20 reads of each kind, at most 2 million reads.
            SysfsReader r = new SysfsReader(tree);
            for (int i = 0; i < 2_000_000 && (zeros < 20 || refusals < 20) && swapFailed.get() == null; i++) {
                int problemsBefore = r.problems().size();
                Optional<String> v = r.read(CORE_ID);
                if (v.isPresent() && v.get().equals("0")) zeros++;
                else if (v.isPresent()) leaked.add(v.get());
                else if (r.problems().size() > problemsBefore
                        && r.problems().getLast().contains("leads out of the tree")) refusals++;
            }
        } finally {
            stop.set(true);
            swapper.join();
        }
        assertEquals(null, swapFailed.get(), "the swapping thread failed");
        assertEquals(List.of(), leaked, "read from outside the tree");
        assertTrue(zeros >= 20 && refusals >= 20, "the swap was seen: zeros " + zeros + ", refusals " + refusals);
    }

    /**
     * While a thread renames a folder elsewhere on the file system in a loop, the hybrid tree is
     * read again and again and every reading is the quiet one (core kinds 0-11 and 12-19, no
     * warning more): {@code openat2} beneath a tree answers EAGAIN when any rename races with a
     * lookup through {@code ..} (cpuN/cpufreq -> ../cpufreq/policyN), and an open that is not
     * retried turned such a file into a warning and a wrong topology. Bounded by counts.
     */
    @Test
    void aRenameElsewhereWhileTreesAreReadChangesNoReading() throws Exception {
        assumeOpenat2();
        Path root = Fixtures.root("20em64t-hybrid-1p6c2t+2ca4co1t");
        String quiet = reading(root);
        String kinds = quiet.replace(" ", "");
        assertTrue(kinds.contains("\"cpus\":\"0-11\"") && kinds.contains("\"cpus\":\"12-19\""), quiet);
        Path a = Files.createDirectories(tmp.resolve("elsewhere/a"));
        Path b = tmp.resolve("elsewhere/b");
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<Throwable> renameFailed = new AtomicReference<>();
        AtomicLong renames = new AtomicLong();
        Thread renamer = new Thread(() -> {
            try {
                while (!stop.get()) {
                    Files.move(a, b, StandardCopyOption.ATOMIC_MOVE);
                    Files.move(b, a, StandardCopyOption.ATOMIC_MOVE);
                    renames.addAndGet(2);
                }
            } catch (Throwable t) {
                renameFailed.set(t);
            }
        }, "renamer");
        renamer.start();
        List<String> differing = new ArrayList<>();
        try {
            while (renames.get() == 0 && renameFailed.get() == null) Thread.onSpinWait();
            for (int i = 0; i < 150 && renameFailed.get() == null; i++) {
                String r = reading(root);
                if (!r.equals(quiet)) differing.add("reading " + i + ": " + firstDifference(quiet, r));
            }
        } finally {
            stop.set(true);
            renamer.join();
        }
        assertEquals(null, renameFailed.get(), "the renaming thread failed");
        assertTrue(renames.get() > 0);
        assertEquals(List.of(), differing.size() > 5 ? differing.subList(0, 5) : differing,
                differing.size() + " of 150 readings differ from the quiet one, " + renames.get() + " renames");
    }

    private static String reading(Path root) {
        Topology t = Topology.read(root);
        return TopologyJson.render(t) + "\n" + String.join("\n", t.warnings());
    }

    private static String firstDifference(String want, String got) {
        int i = 0;
        while (i < want.length() && i < got.length() && want.charAt(i) == got.charAt(i)) i++;
        int from = Math.max(0, i - 60);
        return "got ..." + got.substring(from, Math.min(got.length(), i + 120)).replace('\n', ' ') + "...";
    }

    /** A 300 MB sparse proc/cpuinfo is refused from its size, in one line naming it and the cap, and read not at all. */
    @Test
    void aFileOverTheCapIsRefusedInOneLineNamingItAndTheCap() throws Exception {
        Path tree = tree();
        try (RandomAccessFile f = new RandomAccessFile(tree.resolve("proc/cpuinfo").toFile(), "rw")) {
            f.setLength(300L << 20);
        }
        for (SysfsReader r : List.of(new SysfsReader(tree), new SysfsReader(tree, false, true, true))) {
            assertEquals(Optional.empty(), r.readLines("proc/cpuinfo"));
            assertEquals(List.of("could not read proc/cpuinfo: larger than the cap of 64 MiB for a file corescope reads (refused unread)"),
                    r.problems(), r.containment());
        }
    }

    /** A FIFO planted in a tree, a writer holding it with data waiting, is refused and read from not at all. */
    @Test
    void aFifoInATreeIsRefusedWithoutBlockingOrFeedingTheReader() throws Exception {
        Path tree = tree();
        Path fifo = tree.resolve("proc/cpuinfo");
        assumeTrue(new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start().waitFor() == 0, "mkfifo failed");
        try (RandomAccessFile writer = new RandomAccessFile(fifo.toFile(), "rw")) {
            writer.write("model name\t: planted\n".getBytes());
            SysfsReader r = new SysfsReader(tree);
            assertEquals(Optional.empty(), r.readLines("proc/cpuinfo"));
            assertEquals(List.of("could not read proc/cpuinfo: not a regular file"), r.problems());
        }
    }

    private static void deleteTree(Path p) throws Exception {
        if (!Files.exists(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) return;
        if (Files.isDirectory(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            try (var s = Files.list(p)) {
                for (Path c : s.toList()) deleteTree(c);
            }
        }
        Files.delete(p);
    }
}
