package dev.corescope.cli;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** stdout as the last guard of the terminal: no control character but newline and tab reaches it raw. */
class StandardOutputTest {

    private static String through(String... writes) throws Exception {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        StandardOutput out = new StandardOutput(sink);
        for (String w : writes) {
            byte[] b = w.getBytes(StandardCharsets.UTF_8);
            out.write(b, 0, b.length);
        }
        out.drain();
        return sink.toString(StandardCharsets.UTF_8);
    }

    @Test
    void controlCharactersAreEscapedNewlinesAndTabsKept() throws Exception {
        assertEquals("\\e]0;PWNED\\x07\\e[2J\\r\nFAKE\tLINE\n", through("\u001b]0;PWNED\u0007\u001b[2J\r\nFAKE\tLINE\n"));
        assertEquals("a\\u009bb\\u202ec\\x7f", through("a\u009bb\u202ec\u007f"));
        assertEquals("1.0 ± 0.2 µs … ×2 — ok\n", through("1.0 ± 0.2 µs … ×2 — ok\n"), "ordinary text untouched");
    }

    /** A C1 control whose two UTF-8 bytes are cut between two writes (a full buffer) is still caught. */
    @Test
    void aSequenceCutBetweenWritesIsStillEscaped() throws Exception {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        StandardOutput out = new StandardOutput(sink);
        byte[] csi = "x\u009by".getBytes(StandardCharsets.UTF_8);  // 78 c2 9b 79
        out.write(csi, 0, 2);
        out.write(csi, 2, 2);
        byte[] bidi = "\u202e".getBytes(StandardCharsets.UTF_8);
        out.write(bidi, 0, 1);
        out.write(bidi, 1, 2);
        out.drain();
        assertEquals("x\\u009by\\u202e", sink.toString(StandardCharsets.UTF_8));
    }

    /**
     * {@code corescope ... | head}: the reader goes away; that is a quiet stop with exit 141
     * (128 + SIGPIPE, what a shell reports for cat), not "the output is lost" with exit 1.
     */
    @Test
    void aClosedPipeIsAQuietStop() throws Exception {
        java.util.List<String> cmd = java.util.List.of(java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"), Launcher.class.getName(),
                "mask", "0-3");
        Process p = new ProcessBuilder(cmd).start();
        p.getInputStream().close();  // the reader is gone before the first write
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        org.junit.jupiter.api.Assertions.assertTrue(p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS));
        assertEquals("", err);
        assertEquals(Main.EXIT_BROKEN_PIPE, p.exitValue());
    }

    @Test
    void afterAnInterruptNothingMoreReachesStdout() throws Exception {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        StandardOutput out = new StandardOutput(sink);
        out.write("before\n".getBytes(StandardCharsets.UTF_8));
        java.lang.reflect.Field f = StandardOutput.class.getDeclaredField("muted");
        f.setAccessible(true);
        f.set(out, true);
        out.write("java.lang.InterruptedException\n".getBytes(StandardCharsets.UTF_8));
        assertEquals("before\n", sink.toString(StandardCharsets.UTF_8));
    }
}
