package dev.corescope.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.Callable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Only corescope's own input checks are exit 2; a bug is exit 1 in one line, its stack trace only on request. */
class ExitCodeTest {

    @CommandLine.Command(name = "boom")
    static final class Boom implements Callable<Integer> {
        @CommandLine.Option(names = "--kind")
        String kind = "state";

        @Override
        public Integer call() {
            throw switch (kind) {
                case "argument" -> new IllegalArgumentException("a library refused a value");
                case "usage" -> new UsageException("--kind usage: bad on purpose");
                default -> new IllegalStateException("something impossible happened");
            };
        }
    }

    private static CliRun run(String... args) {
        CommandLine cl = Main.commandLine();
        cl.addSubcommand("boom", new Boom());
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return new CliRun(cl.execute(args), out.toString(), err.toString());
    }

    @Test
    void anUnexpectedExceptionIsExit1InOneLineNamingItWithoutAStackTrace() {
        CliRun r = run("boom");
        assertEquals(1, r.exitCode());
        assertEquals("corescope: internal error: java.lang.IllegalStateException: something impossible happened"
                + " (a bug in corescope; --debug or CORESCOPE_DEBUG=1 prints where)\n", r.err());
    }

    @Test
    void anIllegalArgumentFromOutsideCorescopesChecksIsNotBadUsage() {
        CliRun r = run("boom", "--kind", "argument");
        assertEquals(1, r.exitCode(), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().contains("internal error: java.lang.IllegalArgumentException"), r.err());
    }

    @Test
    void corescopesOwnInputCheckIsExit2() {
        run("boom", "--kind", "usage").badInput("--kind usage: bad on purpose");
    }

    @Test
    void debugAddsTheStackTrace() {
        for (String[] args : new String[][] {{"--debug", "boom"}, {"boom", "--debug"}}) {
            CliRun r = run(args);
            assertEquals(1, r.exitCode());
            assertTrue(r.err().startsWith("corescope: internal error: java.lang.IllegalStateException"), r.err());
            assertTrue(r.err().contains("\tat dev.corescope.cli.ExitCodeTest$Boom.call"), r.err());
        }
    }

    @Test
    void theHelpSaysHowToGetTheStackTrace() {
        String help = CliRun.run("--help").out();
        assertTrue(help.contains("--debug"), help);
        assertTrue(help.contains("CORESCOPE_DEBUG=1"), help);
        assertFalse(CliRun.run("topology", "--help").out().isEmpty());
    }

    @Test
    void longInputsAreQuotedShortAndNumbersTakeAsciiDigitsOnly() {
        String huge = "9".repeat(10_000);
        CliRun r = CliRun.run("mask", "0-" + huge);
        assertEquals(2, r.exitCode());
        assertTrue(r.err().length() < 400, r.err().length() + " characters: " + r.err());
        assertTrue(r.err().contains("...(10005 characters)"), r.err());

        CliRun.run("affinity", "--pid", "\u0661").badInput("is not a whole number (ASCII digits 0-9)");
        CliRun.run("mask", "--nbits", "\u0664\u0660").badInput("ASCII digits");
    }

    @Test
    void anUnknownCommandIsNamedInOneLineWithTheClosestCommands() {
        CliRun.run("topolgy").badInput("unknown command: topolgy (did you mean topology");
        CliRun r = CliRun.run("frobnicate", "--now").badInput("unknown command: frobnicate");
        assertFalse(r.err().contains("Unmatched argument"), r.err());
        // an unknown option is still picocli's line
        CliRun.run("--nosuch").badInput("Unknown option");
    }

    @Test
    void aBadRegularExpressionForJmhIsBadInputNotABug() {
        CliRun.run("jmh", "[").badInput("jmh '[': not a regular expression (Unclosed character class at character 1)");
        CliRun.run("jmh", "-e", "(", "Cpumask").badInput("jmh -e '(': not a regular expression");
    }

    @Test
    void theHelpStatesTheDefaultWidthAsEveryCommandDoes() {
        String help = CliRun.run("--help").out();
        assertFalse(help.contains("120 columns"), help);
        assertTrue(help.replaceAll("\\s+", " ").contains("COLUMNS, else 100"), help);
    }
}
