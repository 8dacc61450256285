package dev.corescope.report;

import dev.corescope.testing.TopologyFixtures;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The saved machine trees of {@link TopologyFixtures}, unpacked with {@code tar}. */
final class Fixtures {

    private Fixtures() {
    }

    /** Unpacks {@code NAME.tar.bz2} into {@code into} and returns the folder holding its {@code sys/} and {@code proc/}. */
    static Path unpack(String name, Path into) throws IOException, InterruptedException {
        Path archive = TopologyFixtures.dir().resolve(name + ".tar.bz2");
        if (!Files.isRegularFile(archive)) throw new IOException("fixture " + archive + " is missing");
        Process p = new ProcessBuilder("tar", "-xjf", archive.toString(), "-C", into.toString())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assumeTrue(p.waitFor() == 0, () -> "tar could not unpack " + archive + ": " + out);
        try (Stream<Path> s = Files.walk(into, 2)) {
            return s.filter(d -> Files.isDirectory(d.resolve("sys")) && Files.isDirectory(d.resolve("proc")))
                    .findFirst().orElseThrow(() -> new IOException(archive + " has no folder with sys/ and proc/"));
        }
    }
}
