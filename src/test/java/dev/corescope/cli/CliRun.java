package dev.corescope.cli;

import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One run of corescope's command line in this JVM ({@link Main#commandLine()}), with stdout
 * and stderr captured apart, plus the checks every command shares.
 */
record CliRun(int exitCode, String out, String err) {

    static CliRun run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(args);
        return new CliRun(code, out.toString(), err.toString());
    }

    /** Exit 0, stderr empty. */
    CliRun succeeded() {
        assertEquals(0, exitCode, "exit code; stderr: " + err);
        assertEquals("", err, "stderr");
        return this;
    }

    /** Exit 2, nothing on stdout, one stderr line {@code corescope: ...} containing {@code fragment}. */
    CliRun badInput(String fragment) {
        assertEquals(2, exitCode, "exit code; stdout: " + out + " stderr: " + err);
        assertEquals("", out, "stdout must stay empty on bad input");
        assertTrue(err.startsWith("corescope: "), err);
        assertTrue(err.endsWith("\n") && err.indexOf('\n') == err.length() - 1, "one stderr line: " + err);
        assertTrue(err.contains(fragment), "stderr '" + err.strip() + "' should contain '" + fragment + "'");
        return this;
    }

    /**
     * Compares {@code actual} with {@code src/test/resources/approved/NAME}, after replacing
     * each {@code {key}} in the approved text with its value (for lines that depend on the
     * machine). On a mismatch the received text is written next to it as
     * {@code target/approved-received/NAME} for a diff.
     */
    static void assertApproved(String name, String actual, Map<String, String> values) {
        dev.corescope.testing.Approved.verify(name, actual, values);
    }
}
