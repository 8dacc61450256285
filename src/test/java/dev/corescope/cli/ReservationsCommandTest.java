package dev.corescope.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.corescope.affinity.Reservation;
import dev.corescope.affinity.Reservations;
import dev.corescope.report.Json;
import dev.corescope.topology.Topology;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code reservations} end to end: what this process holds shows as held by it. */
class ReservationsCommandTest {

    @TempDir
    Path tmp;

    @Test
    void showsAReservationOfThisProcessAsHeld() throws Exception {
        Topology t = Topology.live();
        Reservations r = Reservations.of(tmp.resolve("locks"), t, t.usable());
        int cpu;
        try (Reservation mine = r.reserveAny()) {
            cpu = mine.cpu();
            String text = CliRun.run("reservations", "--dir", tmp.resolve("locks").toString()).succeeded().out();
            assertTrue(text.startsWith("# reservations in " + r.directory()), text);
            assertTrue(text.contains(" " + mine.cpu() + "  held   " + ProcessHandle.current().pid() + "  "), text);
            assertTrue(text.contains("(this process)"), text);

            JsonNode json = Json.MAPPER.readTree(CliRun.run("reservations", "--dir", tmp.resolve("locks").toString(),
                    "--format", "json").succeeded().out());
            JsonNode held = null;
            for (JsonNode h : json.get("holdings")) if (h.get("cpu").asInt() == mine.cpu()) held = h;
            assertEquals("held", held.get("state").asText());
            // every other usable CPU has no lock file yet: shown free, in text and JSON
            for (int other : t.usable().toArray()) {
                if (other == mine.cpu()) continue;
                assertTrue(text.lines().anyMatch(l -> l.matches(" *" + other + "  free +- +no lock file yet")), text);
                boolean listed = false;
                for (JsonNode h : json.get("holdings")) listed |= h.get("cpu").asInt() == other && h.get("state").asText().equals("free");
                assertTrue(listed, json.toString());
            }
        }
        String after = CliRun.run("reservations", "--dir", tmp.resolve("locks").toString()).succeeded().out();
        assertTrue(after.contains(" " + cpu + "  free     -"), after);
        assertTrue(!after.contains("held"), "released: " + after);
    }

    @Test
    void aDirectoryThatCannotBeUsedIsOneLineAndExit1() throws Exception {
        Path open = Files.createDirectory(tmp.resolve("open"));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
        CliRun run = CliRun.run("reservations", "--dir", open.toString());
        assertEquals(1, run.exitCode(), run.err());
        assertEquals("", run.out());
        assertTrue(run.err().startsWith("corescope: cannot use the reservation directory " + open), run.err());
        assertEquals(1, run.err().lines().count(), run.err());
    }

    /** A read-only view: a missing directory is not created (by the default or by --dir), and holds nothing. */
    @Test
    void lookingCreatesNothing() {
        Path missing = tmp.resolve("newdir");
        CliRun run = CliRun.run("reservations", "--dir", missing.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().contains("the directory does not exist: nothing has been reserved here"), run.out());
        assertTrue(!Files.exists(missing), "not created");
        String before = System.getProperty("corescope.reservations.dir");
        System.setProperty("corescope.reservations.dir", missing.toString());
        try {
            assertEquals(0, CliRun.run("reservations", "--format", "json").exitCode());
            assertTrue(!Files.exists(missing), "the configured directory is not created either");
        } finally {
            if (before == null) System.clearProperty("corescope.reservations.dir");
            else System.setProperty("corescope.reservations.dir", before);
        }
    }

    @Test
    void anEmptyDirOrAFileIsBadInputExit2() throws Exception {
        for (String bad : new String[]{"", "/etc/passwd"}) {
            CliRun run = CliRun.run("reservations", "--dir", bad);
            assertEquals(2, run.exitCode(), bad + ": " + run.err());
            assertEquals("", run.out());
            assertEquals(1, run.err().lines().count(), run.err());
        }
    }

    /** A file whose number is no int is listed as foreign, not an internal error for every user. */
    @Test
    void aForeignFileNameIsListedNotAnInternalError() throws Exception {
        Path locks = Files.createDirectory(tmp.resolve("locks"));
        Files.createFile(locks.resolve("cpu-99999999999.lock"));
        CliRun run = CliRun.run("reservations", "--dir", locks.toString());
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().contains("  -  foreign    -  not a corescope lock file: cpu-99999999999.lock"), run.out());
    }

    /**
     * The table is laid out at the terminal's width (else 100): a long, hostile file name wraps
     * (a word longer than the room is cut), a row's first line starts with its CPU and its continuations are blank before the holder; --wide
     * keeps one line per row. The old String.format table printed the name on one line of ~460.
     */
    @Test
    void theTableFitsTheWidthWithEveryLineKeyedAndWideKeepsOneLinePerRow() throws Exception {
        Path locks = Files.createDirectory(tmp.resolve("locks"));
        String spaced = "a hostile \u001b[31mname ".repeat(8).strip();
        String word = "x".repeat(180);
        Files.createFile(locks.resolve(spaced));
        Files.createFile(locks.resolve(word));
        String text = CliRun.run("reservations", "--dir", locks.toString()).succeeded().out();
        int width = dev.corescope.text.Width.of(false);
        List<String> lines = text.lines().toList();
        assertEquals("CPU  state    pid  holder", lines.get(1), text);
        for (String l : lines) assertTrue(l.length() <= width, "wider than " + width + ": " + l);
        int usable = Topology.live().usable().weight();
        int holder = lines.get(1).indexOf("holder");
        for (String l : lines.subList(2 + usable, lines.size())) {
            assertTrue(l.startsWith("  -  ") || l.length() > holder && l.substring(0, holder).isBlank(), "neither a row keyed by its CPU nor its continuation: " + l);
        }
        assertTrue(lines.size() > 4, "the long names wrap: " + text);
        assertTrue(!text.contains("\u001b"), "escaped: " + text);
        assertTrue(text.replaceAll("\n +", "").contains(word), "the long word is all there, cut: " + text);

        String wide = CliRun.run("reservations", "--dir", locks.toString(), "--wide").succeeded().out();
        assertEquals(4 + usable, wide.lines().count(), wide);
        assertTrue(wide.contains("  -  foreign    -  not a corescope lock file: " + spaced.replace("\u001b", "\\e")), wide);
        assertTrue(wide.contains("  -  foreign    -  not a corescope lock file: " + word), wide);
    }
}
