package dev.corescope.topology.proc;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** perf's event sources and the kernel's TSC frequency, read from a saved tree. */
class EventSourcesTest {

    @TempDir
    Path root;

    private void write(String rel, String text) throws IOException {
        Path f = root.resolve(rel);
        Files.createDirectories(f.getParent());
        Files.writeString(f, text);
    }

    @Test
    void aHostWithACpuPmuHasHardwareAndEachSourcesType() throws IOException {
        write("sys/bus/event_source/devices/software/type", "1\n");
        write("sys/bus/event_source/devices/cpu/type", "4\n");
        Files.createDirectories(root.resolve("sys/bus/event_source/devices/uprobe")); // no type file
        EventSources s = EventSources.read(new SysfsReader(root)).orElseThrow();
        assertEquals(List.of("cpu", "software", "uprobe"), s.names());
        assertEquals(Map.of("cpu", 4, "software", 1, "uprobe", -1), s.types());
        assertTrue(s.hardware());
    }

    @Test
    void aGuestWithOnlySoftwareSourcesHasNoHardwarePmuAndATreeWithoutTheFolderHasNoReading() throws IOException {
        assertEquals(Optional.empty(), EventSources.read(new SysfsReader(root)));
        write("sys/bus/event_source/devices/software/type", "1\n");
        write("sys/bus/event_source/devices/tracepoint/type", "2\n");
        assertFalse(EventSources.read(new SysfsReader(root)).orElseThrow().hardware());
        write("sys/bus/event_source/devices/armv8_pmuv3_0/type", "8\n");
        assertTrue(EventSources.read(new SysfsReader(root)).orElseThrow().hardware());
    }

    @Test
    void theTscFrequencyIsPositiveKilohertzOrNothing() throws IOException {
        assertEquals(OptionalLong.empty(), TscFrequency.readKhz(root));
        write(TscFrequency.FILE, "2596136\n");
        assertEquals(OptionalLong.of(2596136), TscFrequency.readKhz(root));
        write(TscFrequency.FILE, "0\n");
        assertEquals(OptionalLong.empty(), TscFrequency.readKhz(root));
    }
}
