package dev.corescope.cli;

import dev.corescope.fleet.NfdFeatures;
import dev.corescope.fleet.PrometheusText;
import dev.corescope.report.ResultsFile;
import dev.corescope.report.RowIdentity;
import dev.corescope.topology.Topology;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code export [RESULTS.json] --format prometheus|nfd [-o FILE]}: the machine and a results
 * file's summaries for node_exporter's textfile collector or node-feature-discovery.
 */
@Command(name = "export",
        mixinStandardHelpOptions = true,
        description = {
                "Writes metrics for node_exporter, or node labels for node-feature-discovery.",
                "",
                "--format prometheus (default): node_exporter's textfile-collector format: CPU counts by",
                "state, cores, packages, NUMA nodes, SMT, and from RESULTS.json core-to-core latency by",
                "relation (p50, p99), each CPU's jitter, each seed claim's finding, the probe time.",
                "--format nfd: a node-feature-discovery feature file (key=value for features.d/), with",
                "bucketed values. -o writes the file atomically (a temporary file in its folder, renamed),",
                "as node_exporter asks; name it *.prom for the textfile collector. docs/fleet.md lists",
                "every series and key.",
                "",
                "Examples:",
                "  ./run.sh export -o /var/lib/prometheus/node-exporter/corescope.prom",
                "  ./run.sh export results.json --format nfd \\",
                "      -o /etc/kubernetes/node-feature-discovery/features.d/corescope"})
final class ExportCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", arity = "0..1", paramLabel = "RESULTS.json", description = "a results file (bench, the tour or jitter -o) whose summaries to add")
    Path results;

    @Option(names = "--format", paramLabel = "FMT", converter = OutputFormat.PrometheusOrNfd.class,
            description = "prometheus (default) or nfd")
    OutputFormat format = OutputFormat.prometheus;

    @Option(names = "--root", paramLabel = "DIR", description = "describe a saved tree (holding sys/ and proc/) instead of the live machine")
    Path root;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "write FILE atomically instead of stdout")
    Path output;

    @Override
    public Integer call() {
        List<Path> inputs = new ArrayList<>();
        if (results != null) inputs.add(results);
        if (root != null) inputs.add(root);
        OutputFile file = output == null ? null : OutputFile.check(output, "-o", inputs);
        ResultsFile r = results == null ? null : RowIdentity.read(results);
        Topology t = topology();
        String text = format == OutputFormat.nfd ? NfdFeatures.render(t, r) : PrometheusText.render(t, r, Instant.now());
        PrintWriter out = spec.commandLine().getOut();
        if (file != null) {
            try {
                file.write(text);
            } catch (IOException e) {
                throw file.cannotWrite(e);
            }
        } else {
            out.print(text);
        }
        out.flush();
        return Main.EXIT_OK;
    }

    private Topology topology() {
        if (root == null) return Topology.live();
        try {
            return Topology.read(root);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--root " + e.getMessage());
        }
    }
}
