package dev.corescope.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The load average ({@code /proc/loadavg}) for a report's header: on a shared machine it
 * tells the reader how many other runnable threads competed for the CPUs while measuring.
 */
public final class MachineLoad {

    private MachineLoad() {
    }

    /** {@code "load average 1.20 0.80 0.50 (1, 5, 15 min) on 2 CPUs"}, read under {@code root}; empty where there is none. */
    public static Optional<String> describe(Path root) {
        try {
            String[] f = Files.readString(root.resolve("proc/loadavg")).trim().split("\\s+");
            if (f.length < 3) return Optional.empty();
            return Optional.of("load average " + f[0] + " " + f[1] + " " + f[2] + " (1, 5, 15 min) on "
                    + Runtime.getRuntime().availableProcessors() + " CPUs");
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** The live machine's. */
    public static Optional<String> describe() {
        return describe(Path.of("/"));
    }
}
