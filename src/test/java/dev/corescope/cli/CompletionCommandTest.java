package dev.corescope.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** {@code completion}: bash completes the commands and options it prints; the man page names every command. */
class CompletionCommandTest {

    @TempDir
    Path tmp;

    /** bash itself is the oracle: it sources the script and completes a partial line. */
    private String complete(Path script, String... words) throws Exception {
        String line = "source " + script + "; COMP_WORDS=(" + String.join(" ", words) + "); COMP_CWORD=" + (words.length - 1)
                + "; COMP_LINE='" + String.join(" ", words) + "'; COMP_POINT=${#COMP_LINE}; _complete_corescope; printf '%s\\n' \"${COMPREPLY[@]}\"";
        Process p = new ProcessBuilder("bash", "-c", line).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        return out;
    }

    @Test
    void bashCompletesCommandsAndOptionsFromTheScript() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/bin/bash")), "needs bash");
        Path script = Files.writeString(tmp.resolve("corescope.bash"), CliRun.run("completion").succeeded().out());
        assertEquals("topology\n", complete(script, "corescope", "topo"));
        assertTrue(complete(script, "corescope", "topology", "--fo").contains("--format"));
        assertTrue(complete(script, "./run.sh", "jit").contains("jitter"), "run.sh is completed as corescope");
    }

    @Test
    void theManPageHasEveryCommandAndNoStrayRequest() {
        String man = CliRun.run("completion", "--man").succeeded().out();
        assertTrue(man.startsWith(".TH CORESCOPE 1 "), man);
        for (String c : Main.commandLine().getSubcommands().keySet()) {
            if (!c.equals("help")) assertTrue(man.contains(".SS \"corescope " + c + "\""), c);
        }
        for (String l : man.lines().toList()) {
            if (l.startsWith(".") || l.startsWith("'")) assertTrue(l.matches("\\.(TH|SH|SS|TP|PP|nf|fi|B)( .*)?"), "not a request of this page: " + l);
        }
        assertTrue(man.contains(".SH EXIT STATUS"));
    }
}
