package dev.corescope.topology;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A saved tree is read as if it were the root (issue 23, points 6 and 7): links out of it are
 * refused and named, never followed and quoted; what it holds reaches the text escaped.
 */
class HostileTreeTest {

    @TempDir
    Path tmp;

    private static final String SECRET = "s3cr3t-machine-id-4242";

    private Path secret(String name, String content) throws Exception {
        Path outside = Files.createDirectories(tmp.resolve("outside")).resolve(name);
        Files.writeString(outside, content + "\n");
        return outside;
    }

    private static void link(Path tree, String rel, Path target) throws Exception {
        Path p = tree.resolve(rel);
        Files.deleteIfExists(p);
        Files.createSymbolicLink(p, target);
    }

    @Test
    void linksThatLeaveTheTreeAreRefusedAndTheWarningNamesThePathNotTheContent() throws Exception {
        Path tree = FakeSysfs.twoCores(tmp.resolve("tree")).root();
        link(tree, "sys/devices/system/cpu/cpu0/topology/core_id", secret("machine-id", SECRET));
        link(tree, "proc/cpuinfo", secret("cpuinfo", "model name\t: " + SECRET));
        link(tree, "sys/devices/system/cpu/online", Path.of("../../../../../outside/online"));  // relative, still outside
        Files.writeString(tmp.resolve("outside/online"), SECRET + ":x:0\n");
        Topology t = Topology.read(tree);
        String text = TopologyText.render(t);
        assertFalse(text.contains(SECRET), text);
        assertFalse(String.join("\n", t.warnings()).contains(SECRET), t.warnings().toString());
        assertTrue(t.cpuModel().isEmpty(), "no model from a file outside the tree: " + t.cpuModel());
        assertTrue(t.warnings().stream().anyMatch(w -> w.contains("sys/devices/system/cpu/cpu0/topology/core_id")
                && w.contains("leads out of the tree")), t.warnings().toString());
        assertTrue(t.warnings().stream().anyMatch(w -> w.contains("proc/cpuinfo") && w.contains("leads out of the tree")), t.warnings().toString());
        assertTrue(t.warnings().stream().anyMatch(w -> w.contains("sys/devices/system/cpu/online") && w.contains("leads out of the tree")), t.warnings().toString());
    }

    @Test
    void linksInsideTheTreeAreFollowedAsSysfsHasThem() throws Exception {
        Path tree = FakeSysfs.twoCores(tmp.resolve("tree")).root();
        Files.move(tree.resolve("proc/cpuinfo"), tree.resolve("proc/cpuinfo.real"));
        link(tree, "proc/cpuinfo", Path.of("cpuinfo.real"));
        assertEquals("Test CPU", Topology.read(tree).cpuModel().orElseThrow());
    }

    /** A file inside the tree that is not a number is named, and what it holds is not repeated. */
    @Test
    void aBadValueIsNamedNotQuoted() throws Exception {
        Path tree = FakeSysfs.twoCores(tmp.resolve("tree")).root();
        Files.writeString(tree.resolve("sys/devices/system/cpu/cpu1/topology/core_id"), SECRET + "\n");
        Files.writeString(tree.resolve("sys/devices/system/cpu/online"), SECRET + "\n");
        Topology t = Topology.read(tree);
        assertFalse(String.join("\n", t.warnings()).contains(SECRET), t.warnings().toString());
        assertTrue(t.warnings().stream().anyMatch(w -> w.contains("cpu1/topology/core_id")), t.warnings().toString());
    }

    /** An escape sequence in the model name reaches the text escaped, on one line. */
    @Test
    void theModelNameIsEscaped() throws Exception {
        Path tree = new FakeSysfsHolder(tmp.resolve("tree")).withModel("\u001b]0;PWNED\u0007\u001b[2J FAKE");
        String text = TopologyText.render(Topology.read(tree));
        assertFalse(text.chars().anyMatch(c -> c == 0x1b || c == 7 || c == '\r'), text);
        assertTrue(text.contains("\\e]0;PWNED\\x07\\e[2J FAKE"), text);
    }

    /** FakeSysfs's two-core tree with another model name. */
    private record FakeSysfsHolder(Path root) {
        Path withModel(String model) {
            FakeSysfs.twoCores(root).cpuinfo(model);
            return root;
        }
    }
}
