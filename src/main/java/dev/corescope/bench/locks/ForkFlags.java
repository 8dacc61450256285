package dev.corescope.bench.locks;

import java.nio.file.Path;
import java.util.List;

/**
 * JVM flags for the JMH forks of {@code bench locks}. Every Java row is a fork of its own, and
 * starting one took ~1.2 s on the shared 2-core machine, most of it loading classes; a dynamic
 * AppCDS archive of those classes, written by the first fork and mapped by the rest, halved that
 * (JDK 19+ {@code -XX:+AutoCreateSharedArchive}; the JVM rebuilds the archive itself when the jar
 * changes). It changes how classes load, not the code the JIT makes from them.
 */
final class ForkFlags {

    private ForkFlags() {
    }

    static List<String> jvmArgs() {
        return List.of(
                "-XX:+AutoCreateSharedArchive", "-XX:SharedArchiveFile=" + archive(),
                // JMH copies a fork's stdout and stderr to the host's stdout, which may be JSON: the
                // archive's dump notes and its known complaint that --enable-native-access was not
                // recorded at dump time (the classes are still shared) must not land there.
                "-Xlog:cds*=off,aot*=off");
    }

    /** One archive per user and class path, in the temporary directory. */
    static Path archive() {
        String key = System.getProperty("user.name", "") + "\n" + System.getProperty("java.class.path", "");
        return Path.of(System.getProperty("java.io.tmpdir"), "corescope-jmh-" + Integer.toHexString(key.hashCode()) + ".jsa");
    }
}
