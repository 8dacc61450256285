package dev.corescope.cli;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A JVM that denies native access gets one line with the flag to use, not an ExceptionInInitializerError. */
class NativeAccessDeniedTest {

    @Test
    void deniedNativeAccessIsOneLineWithTheHint() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(List.of(java, "--illegal-native-access=deny", "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"), Launcher.class.getName(), "affinity"))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(1, p.exitValue(), err);
        List<String> lines = err.lines().filter(l -> !l.startsWith("WARNING")).toList();
        assertEquals(1, lines.size(), err);
        assertTrue(lines.get(0).startsWith("corescope: the JVM denies corescope native access (--illegal-native-access=deny): start it with"
                + " --enable-native-access=ALL-UNNAMED"), err);
    }
}
