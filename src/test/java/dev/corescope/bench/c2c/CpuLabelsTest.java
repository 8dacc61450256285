package dev.corescope.bench.c2c;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

class CpuLabelsTest {

    private static void write(Path root, String file, String text) throws IOException {
        Path p = root.resolve(file);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text + "\n");
    }

    private static void cache(Path root, int cpu, int index, int level, String type, Integer id, String shared) throws IOException {
        String dir = "sys/devices/system/cpu/cpu" + cpu + "/cache/index" + index + "/";
        write(root, dir + "level", String.valueOf(level));
        write(root, dir + "type", type);
        if (id != null) write(root, dir + "id", String.valueOf(id));
        write(root, dir + "shared_cpu_list", shared);
    }

    @Test
    void labelNamesCoreLastLevelCacheAndPackage(@TempDir Path root) throws IOException {
        write(root, "sys/devices/system/cpu/cpu5/topology/core_id", "2");
        write(root, "sys/devices/system/cpu/cpu5/topology/physical_package_id", "1");
        cache(root, 5, 0, 1, "Data", 5, "5");
        cache(root, 5, 1, 1, "Instruction", 5, "5");
        cache(root, 5, 2, 2, "Unified", 5, "5");
        cache(root, 5, 3, 3, "Unified", 1, "4-7");

        CpuLabels.Place p = new CpuLabels(root).of(5);

        assertEquals(new CpuLabels.Place(5, Optional.of(2), Optional.of("L3#1"), Optional.of(1)), p);
        assertEquals("cpu5 c2 L3#1 p1", p.shortLabel());
        assertEquals("CPU 5: core 2, L3 #1, package 1", p.longLabel());
    }

    @Test
    void cacheWithoutIdIsNamedByItsFirstCpuAndMissingFilesAreLeftOut(@TempDir Path root) throws IOException {
        cache(root, 3, 0, 2, "Unified", null, "2-3");
        CpuLabels.Place p = new CpuLabels(root).of(3);
        assertEquals("cpu3 L2#2", p.shortLabel());
        assertEquals("cpu9", new CpuLabels(root).of(9).shortLabel());
    }
}
