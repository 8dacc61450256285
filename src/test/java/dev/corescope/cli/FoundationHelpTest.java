package dev.corescope.cli;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code --help} on mask, affinity and pin explains the command with a runnable example, on stdout, exit 0. */
class FoundationHelpTest {

    @ParameterizedTest
    @ValueSource(strings = {"mask", "affinity", "pin"})
    void helpExplainsTheCommandWithAnExample(String command) {
        CliRun r = CliRun.run(command, "--help").succeeded();
        assertTrue(r.out().startsWith("Usage: corescope " + command), r.out());
        assertTrue(r.out().contains("Example"), r.out());
        assertTrue(r.out().contains("./run.sh " + command + " "), r.out());
        for (String line : r.out().split("\n")) assertTrue(line.length() <= 80, "help line over 80 columns: " + line);
    }
}
