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
            topology --format bogus                | expected text, json, svg or hwloc-xml but was 'bogus' | html
            jitter --format bogus                  | expected text or json but was 'bogus'          | svg
            reservations --format svg              | expected text or json but was 'svg'            | html
            bench --format html                    | expected text, json or svg but was 'html'      | yaml
            compare --format bogus a.json b.json   | expected text, json or html but was 'bogus'    | svg
            report --format bogus a.json           | expected html, text or svg but was 'bogus'     | json
            """)
    void theFormatErrorListsOnlyWhatTheCommandAccepts(String args, String fragment, String notListed) {
        CliRun r = CliRun.run(args.split(" ")).badInput(fragment);
        assertFalse(r.err().contains(notListed), r.err());
    }
}
