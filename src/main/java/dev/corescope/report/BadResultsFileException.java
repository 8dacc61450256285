package dev.corescope.report;

import java.nio.file.Path;

/**
 * A file given as a results file that is not one: missing, unreadable, not JSON, or another
 * schema. Bad input (exit 2); the message names the file and why.
 */
public final class BadResultsFileException extends IllegalArgumentException {

    public BadResultsFileException(Path file, String why) {
        super(file + ": " + why);
    }
}
