package dev.corescope.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The saved machine trees of {@code corescope.fixtures}, unpacked with {@code tar}. */
final class Fixtures {

    private Fixtures() {
    }

    /** Unpacks {@code NAME.tar.bz2} into {@code into} and returns the folder holding its {@code sys/} and {@code proc/}. */
    static Path unpack(String name, Path into) throws IOException, InterruptedException {
        String dir = System.getProperty("corescope.fixtures");
        assumeTrue(dir != null, "corescope.fixtures is not set (run through Maven)");
        Path archive = Path.of(dir, name + ".tar.bz2");
        assumeTrue(Files.isRegularFile(archive), () -> "fixture " + archive + " is missing");
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
