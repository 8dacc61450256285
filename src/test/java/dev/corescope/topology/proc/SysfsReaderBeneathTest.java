package dev.corescope.topology.proc;

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
        assertTrue(new SysfsReader(tree(), false, true).containment().startsWith("real-path check"));
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
                SysfsReader fallback = new SysfsReader(tree, false, true);
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
