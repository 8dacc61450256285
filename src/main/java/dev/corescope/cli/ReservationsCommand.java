package dev.corescope.cli;

import dev.corescope.affinity.Holding;
import dev.corescope.affinity.Reservations;
import dev.corescope.report.Json;
import dev.corescope.topology.Topology;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code reservations}: which CPUs corescope users hold ({@code affinity.Reservations}), and who. */
@Command(name = "reservations",
        mixinStandardHelpOptions = true,
        description = {
                "Shows which CPUs are reserved through corescope's library, and by whom.",
                "",
                "A reservation is an flock(2) on cpu-<n>.lock in the reservation directory",
                "(default /tmp/corescope-reservations, shared by every user of the machine;",
                "-Dcorescope.reservations.dir or CORESCOPE_RESERVATIONS_DIR for another one);",
                "it ends when its process does.",
                "held: the pid holds the lock now (from /proc/locks); free: nobody does.",
                "",
                "Examples:",
                "  ./run.sh reservations",
                "  ./run.sh reservations --dir /run/corescope --format json",
                ""})
final class ReservationsCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--dir", paramLabel = "DIR", description = "the reservation directory; default: the library's")
    Path dir;

    @Option(names = "--format", paramLabel = "FMT", description = "text (default) or json", converter = OutputFormat.TextOrJson.class)
    OutputFormat format = OutputFormat.text;

    /** The JSON form: the directory, the usable CPUs, one entry per CPU with a lock file. */
    record Report(String directory, String usable, List<Holding> holdings) {
    }

    @Override
    public Integer call() {
        Reservations r;
        if (dir == null) {
            r = Reservations.shared();
        } else {
            Topology t = Topology.live();
            r = Reservations.of(dir, t, t.usable());
        }
        var out = spec.commandLine().getOut();
        out.print(format == OutputFormat.json
                ? Json.write(new Report(r.directory().toString(), r.usable().toList(), r.holdings()))
                : r.dump());
        out.flush();
        return Main.EXIT_OK;
    }
}
