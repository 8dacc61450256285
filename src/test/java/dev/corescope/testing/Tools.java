package dev.corescope.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Outside programs the tests ask as oracles (hwloc's lstopo, Prometheus' promtool,
 * node_exporter): found on the PATH or the test is skipped with the reason and the Debian
 * package that holds it ({@code .ci/run} installs them).
 */
public final class Tools {

    private Tools() {
    }

    /** The program's path, or the test is skipped naming {@code debianPackage}. */
    public static Path require(String program, String debianPackage) {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
            Path p = Path.of(dir.isEmpty() ? "." : dir, program);
            if (Files.isExecutable(p)) return p;
        }
        assumeTrue(false, program + " is not installed (Debian package " + debianPackage + ", which .ci/run installs)");
        throw new AssertionError("unreachable");
    }

    /** What a finished program printed. */
    public record Output(int exitCode, String out, String err) {
    }

    /** Runs {@code command} with {@code env} added, stdin empty, at most {@code timeoutSeconds}. */
    public static Output run(List<String> command, Map<String, String> env, int timeoutSeconds) throws IOException, InterruptedException {
        Path out = Files.createTempFile("corescope-tool", ".out");
        Path err = Files.createTempFile("corescope-tool", ".err");
        try {
            ProcessBuilder pb = new ProcessBuilder(new ArrayList<>(command));
            pb.environment().putAll(env);
            pb.redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
            pb.redirectOutput(out.toFile());
            pb.redirectError(err.toFile());
            Process p = pb.start();
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor();
                throw new AssertionError(command + " did not finish in " + timeoutSeconds + " s");
            }
            return new Output(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    /** {@link #run} that must exit 0; its stdout. */
    public static String runOk(List<String> command, Map<String, String> env, int timeoutSeconds) throws IOException, InterruptedException {
        Output o = run(command, env, timeoutSeconds);
        if (o.exitCode() != 0) throw new AssertionError(command + " exited " + o.exitCode() + ": " + o.err());
        return o.out();
    }
}
