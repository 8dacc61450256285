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

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code export [RESULTS.json...] --format prometheus|nfd [-o FILE] [--nfd-output FILE]}: the
 * machine and results files' summaries for node_exporter's textfile collector and
 * node-feature-discovery, both from one start when asked.
 */
@Command(name = "export",
        mixinStandardHelpOptions = true,
        description = {
                "Writes metrics for node_exporter, or node labels for node-feature-discovery.",
                "",
                "--format prometheus (default): node_exporter's textfile-collector format: CPU counts by",
                "state, cores, packages, NUMA nodes, SMT, and from RESULTS.json core-to-core latency by",
                "relation (p50, p99), each CPU's jitter, each seed claim's finding, the probe time.",
                "--format nfd: a node-feature-discovery feature file (name=value for features.d/), with",
                "bucketed values, names under feature.node.kubernetes.io/ (--nfd-prefix). Several results",
                "files merge into one file, each series once (the last file's). --nfd-output writes the",
                "NFD file too, from the same reading. -o writes the file atomically (a temporary file in",
                "its folder, renamed), as node_exporter asks; name it *.prom for the textfile collector.",
                "docs/fleet.md lists every series and key.",
                "",
                "Examples:",
                "  ./run.sh export -o /var/lib/prometheus/node-exporter/corescope.prom",
                "  ./run.sh export bench.json jitter.json -o corescope.prom \\",
                "      --nfd-output /etc/kubernetes/node-feature-discovery/features.d/corescope"})
final class ExportCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(arity = "0..*", paramLabel = "RESULTS.json", description = "results files (bench, the tour or jitter -o) whose summaries to add; a series in several: the last file's")
    List<Path> results = new ArrayList<>();

    @Option(names = "--format", paramLabel = "FMT", converter = OutputFormat.PrometheusOrNfd.class,
            description = "prometheus (default) or nfd")
    OutputFormat format = OutputFormat.prometheus;

    @Option(names = "--root", paramLabel = "DIR", description = "describe a saved tree (holding sys/ and proc/) instead of the live machine")
    Path root;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "write FILE atomically instead of stdout")
    Path output;

    @Option(names = "--nfd-output", paramLabel = "FILE", description = "also write the node-feature-discovery file to FILE (atomically), from the same reading")
    Path nfdOutput;

    @Option(names = "--nfd-prefix", paramLabel = "PREFIX", description = "the NFD label names' prefix (default: feature.node.kubernetes.io/; empty: none)")
    String nfdPrefix = NfdFeatures.PREFIX;

    @Override
    public Integer call() {
        String prefix;
        try {
            prefix = NfdFeatures.checkPrefix(nfdPrefix);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--nfd-prefix " + e.getMessage());
        }
        if (nfdOutput != null && format == OutputFormat.nfd) throw new UsageException("--nfd-output goes with --format prometheus (the NFD file is -o)");
        if (nfdOutput != null && nfdOutput.equals(output)) throw new UsageException("--nfd-output " + nfdOutput + ": the same file as -o");
        List<Path> inputs = new ArrayList<>(results);
        if (root != null) inputs.add(root);
        OutputFile file = output == null ? null : OutputFile.check(output, "-o", inputs);
        OutputFile nfdFile = nfdOutput == null ? null : OutputFile.check(nfdOutput, "--nfd-output", inputs);
        List<ResultsFile> r = new ArrayList<>();
        for (Path p : results) r.add(RowIdentity.read(p));
        Topology t = TopologyCommand.read(root, null);
        String text = format == OutputFormat.nfd ? NfdFeatures.render(t, r, prefix) : PrometheusText.render(t, r, Instant.now());
        PrintWriter out = spec.commandLine().getOut();
        if (file != null) file.save(text);
        else out.print(text);
        if (nfdFile != null) nfdFile.save(NfdFeatures.render(t, r, prefix));
        out.flush();
        return Main.EXIT_OK;
    }
}
