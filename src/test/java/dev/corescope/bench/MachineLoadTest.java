package dev.corescope.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MachineLoadTest {

    private static Path loadavg(Path root, String text) throws IOException {
        Files.createDirectories(root.resolve("proc"));
        Files.writeString(root.resolve("proc/loadavg"), text);
        return root;
    }

    @Test
    void busyMachineGetsANoteWithItsLoad(@TempDir Path root) throws IOException {
        loadavg(root, "6.85 5.61 3.27 3/266 20480\n");
        String note = MachineLoad.busyNote(root, 2).orElseThrow();
        assertTrue(note.contains("load average 6.9 for 2 CPUs"), note);
    }

    @Test
    void quietMachineAndUnreadableLoadGetNoNote(@TempDir Path root) throws IOException {
        assertEquals(Optional.empty(), MachineLoad.busyNote(root, 2));
        loadavg(root, "0.40 0.30 0.20 1/100 5\n");
        assertEquals(Optional.empty(), MachineLoad.busyNote(root, 2));
        assertEquals(Optional.of(0.40), MachineLoad.oneMinute(root));
    }
}
