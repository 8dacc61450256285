package dev.corescope.cli;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertFalse;

/** Each command's {@code --format} error lists what that command accepts, and nothing it would refuse. */
class FormatOptionTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            mask --format bogus 1                  | expected text or json but was 'bogus'          | svg
            mask --format svg 1                    | expected text or json but was 'svg'            | html
            affinity --format bogus                | expected text or json but was 'bogus'          | svg
            affinity --format svg                  | expected text or json but was 'svg'            | html
            topology --format bogus                | expected text, json, svg or hwloc-xml           | html
            jitter --format bogus                  | jitter prints text or json                     | svg
            compare --format bogus a.json b.json   | compare prints text, json or html              | svg
            report --format bogus a.json           | report writes html or text                     | svg
            """)
    void theFormatErrorListsOnlyWhatTheCommandAccepts(String args, String fragment, String notListed) {
        CliRun r = CliRun.run(args.split(" ")).badInput(fragment);
        assertFalse(r.err().contains(notListed), r.err());
    }
}
