package dev.corescope.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Approved-file checks, for every test package: output is compared with {@code src/test/resources/approved/NAME}. On a
 * difference the received text is written next to the build ({@code target/approved/NAME}) and
 * the failure says how to approve it after looking at it.
 */
public final class Approved {

    private Approved() {
    }

    public static void verify(String name, String received) {
        verify(name, received, Map.of());
    }

    /**
     * As {@link #verify(String, String)}, after replacing each {@code {key}} in the approved
     * text with its value (for lines that depend on the machine, such as a pid).
     */
    public static void verify(String name, String received, Map<String, String> values) {
        Path base = Path.of(System.getProperty("corescope.basedir", "."));
        Path approved = base.resolve("src/test/resources/approved").resolve(name);
        Path out = base.resolve("target/approved").resolve(name);
        try {
            String want = Files.exists(approved) ? Files.readString(approved, StandardCharsets.UTF_8) : null;
            if (want != null) for (var e : values.entrySet()) want = want.replace("{" + e.getKey() + "}", e.getValue());
            if (received.equals(want)) return;
            Files.createDirectories(out.getParent());
            Files.writeString(out, received, StandardCharsets.UTF_8);
            fail((want == null ? "no approved file " : "output differs from ") + approved
                    + "\n  look: diff " + approved + " " + out + "\n  approve: cp " + out + " " + approved
                    + (want == null ? "" : "\n  first difference at line " + firstDiffLine(want, received)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int firstDiffLine(String a, String b) {
        String[] x = a.split("\n", -1);
        String[] y = b.split("\n", -1);
        for (int i = 0; i < Math.min(x.length, y.length); i++) if (!x[i].equals(y[i])) return i + 1;
        return Math.min(x.length, y.length) + 1;
    }
}
