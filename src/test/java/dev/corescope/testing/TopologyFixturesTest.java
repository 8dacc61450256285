package dev.corescope.testing;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertTrue;

class TopologyFixturesTest {

    @Test
    void theFixturesAndTheirLicenceComeFromInsideTheRepository() throws IOException {
        Path repo = Path.of(System.getProperty("corescope.basedir", ".")).toRealPath();
        Path dir = TopologyFixtures.dir().toRealPath();
        assertTrue(dir.startsWith(repo), dir + " is outside " + repo);
        assertTrue(Files.isRegularFile(dir.resolve("COPYING.hwloc")), "hwloc's licence is kept beside its trees");
    }
}
