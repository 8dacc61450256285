package dev.corescope.affinity;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Issue #26's split of {@link Reservations}, kept by a test: reserving (pick in {@code CpuChoice},
 * search in {@code Attempt}, lock in {@code LockTable}, wait in {@code Waiting}) apart from reading holdings
 * ({@code LockView} reads the directory and {@code /proc/locks}, {@code HoldingsText} prints
 * them). {@code Reservations} and {@code Attempt} read no /proc file and walks no directory: its holdings
 * methods only hand over. The reading side never locks, creates or writes: {@code holdingsIn}
 * and {@code dumpOf} must be safe on another user's directory.
 */
class ReservationsSplitTest {

    private static final Path DIR = Path.of("src/affinity/java/dev/corescope/affinity");

    /** Each file and what it must not name. */
    private static final Map<String, List<String>> MUST_NOT_NAME = Map.of(
            "Reservations.java", List.of("ProcLocks", "ProcPid", "Files.", "DirectoryStream", "String.format"),
            "Attempt.java", List.of("ProcLocks", "ProcPid", "Files.", "DirectoryStream"),
            "LockView.java", List.of("tryLock", "openLockFile", "fchmod", "Files.create", "Files.write", "Files.delete", "O_CREAT"),
            "HoldingsText.java", List.of("tryLock", "openLockFile", "fchmod", "LockTable.of(", "Files.create", "Files.write", "Files.delete"));

    @Test
    void reservingNamesNoHoldingsReadingAndReadingNeverLocksOrWrites() throws IOException {
        List<String> wrong = new ArrayList<>();
        for (var e : MUST_NOT_NAME.entrySet()) {
            String src = Files.readString(DIR.resolve(e.getKey()));
            for (String word : e.getValue()) if (src.contains(word)) wrong.add(e.getKey() + " names " + word);
        }
        wrong.sort(null);
        assertEquals(List.of(), wrong);
    }
}
