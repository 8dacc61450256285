package dev.corescope.cli;

import dev.corescope.affinity.Holding;
import dev.corescope.affinity.Reservations;
import dev.corescope.report.Json;
import dev.corescope.text.Terminal;
import dev.corescope.text.Width;
import dev.corescope.topology.Topology;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code reservations}: which CPUs corescope users hold ({@code affinity.Reservations}), and who.
 * A read-only view: it creates no directory and no lock file, and locks nothing.
 */
@Command(name = "reservations",
        mixinStandardHelpOptions = true,
        description = {
                "Shows which CPUs are reserved through corescope's library, and by whom.",
                "",
                "A reservation is an flock(2) on cpu-<n>.lock in the reservation directory",
                "(default /tmp/corescope-reservations, shared by every user of the machine;",
                "-Dcorescope.reservations.dir or CORESCOPE_RESERVATIONS_DIR for another one);",
                "it ends when its process does.",
                "held: the pid holds the lock now (from /proc/locks); stale: held for a thread",
                "that has ended; free: nobody does (also a usable CPU with no lock file yet);",
                "unusable: no reservation can use the file",
                "(why); foreign: not a corescope lock file. Looking creates and locks nothing.",
                "",
                "Examples:",
                "  ./run.sh reservations",
                "  ./run.sh reservations --dir /run/corescope --format json",
                "  ./run.sh reservations --wide",
                ""})
final class ReservationsCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--dir", paramLabel = "DIR", description = "the reservation directory; default: the library's")
    String dir;

    @Option(names = "--format", paramLabel = "FMT", description = "text (default) or json", converter = OutputFormat.TextOrJson.class)
    OutputFormat format = OutputFormat.text;

    @Option(names = "--wide", description = "text: every row on one line, however long (by default the text fits the terminal: COLUMNS, else 100)")
    boolean wide;

    /** The JSON form: the directory, the usable CPUs, one entry per lock file (and per foreign file). */
    record Report(String directory, String usable, List<Holding> holdings) {
    }

    @Override
    public Integer call() {
        Path d = dir == null ? Reservations.configuredDirectory() : directory(dir);
        Topology t = Topology.live();
        var out = spec.commandLine().getOut();
        out.print(format == OutputFormat.json
                ? Json.write(new Report(d.toString(), t.usable().toList(), Reservations.holdingsIn(d, t.usable())))
                : Reservations.dumpOf(d, t.usable(), Width.of(wide)));
        out.flush();
        return Main.EXIT_OK;
    }

    /** {@code --dir}: a path that is a directory or does not exist yet (2 otherwise). */
    private static Path directory(String s) {
        if (s.isBlank()) throw new UsageException("--dir '" + Terminal.escape(s) + "': an empty path names no directory");
        Path p;
        try {
            p = Path.of(s).toAbsolutePath().normalize();
        } catch (InvalidPathException e) {
            throw new UsageException("--dir " + Terminal.escape(s) + ": not a path (" + e.getReason() + ")");
        }
        if (Files.exists(p, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS) && !Files.isSymbolicLink(p)) {
            throw new UsageException("--dir " + Terminal.escape(s) + ": not a directory");
        }
        return p;
    }
}
