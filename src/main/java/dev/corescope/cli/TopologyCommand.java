package dev.corescope.cli;

import dev.corescope.topology.HwlocXmlReader;
import dev.corescope.topology.HwlocXmlWriter;
import dev.corescope.topology.Topology;
import dev.corescope.topology.TopologyJson;
import dev.corescope.topology.TopologySvg;
import dev.corescope.topology.TopologyText;
import dev.corescope.topology.proc.SysfsReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code topology}: the machine's CPU topology as text, JSON or SVG, live or from a saved tree. */
@Command(name = "topology",
        mixinStandardHelpOptions = true,
        description = {
                "Shows the machine's CPU topology (text, JSON, SVG or hwloc XML).",
                "",
                "Shows the CPU topology: packages, dies, clusters, cores and PUs with their caches,",
                "NUMA nodes, core kinds, and the online/offline/allowed CPU sets, read from sysfs.",
                "With --root it reads a saved tree instead of / (an unpacked 'capture', or any folder",
                "holding sys/devices/system/cpu); the allowed set is then not shown. With --from it",
                "reads hwloc's XML (v2, or v1 as hwloc 1.x wrote it), e.g. from 'lstopo --of xml' or",
                "hwloc-gather-topology on a machine where corescope never ran. --format hwloc-xml",
                "writes hwloc's v2 XML, which 'lstopo -i FILE.xml' reads as it reads the machine.",
                "",
                "Examples:",
                "  ./run.sh topology",
                "  ./run.sh topology --format json | jq .summary",
                "  ./run.sh topology -o machine.svg       (the format from the name)",
                "  ./run.sh topology --format hwloc-xml -o box.xml",
                "  lstopo-no-graphics -i box.xml",
                "  ./run.sh topology --from box.xml --format svg -o box.svg",
                "  ./run.sh capture -o box.tar.gz && tar xzf box.tar.gz",
                "  ./run.sh topology --root box"})
final class TopologyCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--root", paramLabel = "DIR", description = "read a saved tree (holding sys/ and proc/) instead of the live machine")
    Path root;

    @Option(names = "--from", paramLabel = "FILE.xml", description = "read hwloc XML (v2 or v1, as lstopo --of xml writes it) instead of the live machine")
    Path from;

    @Option(names = "--format", paramLabel = "FMT", converter = OutputFormat.ForTopology.class,
            description = "text, json, svg or hwloc-xml; default: from -o FILE's name (.json, .svg, .xml), else text")
    OutputFormat format;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "write the report to FILE (whole or not at all) instead of stdout")
    Path output;

    @Override
    public Integer call() {
        PrintWriter out = ShortCommands.out(spec);
        List<Path> inputs = new ArrayList<>();
        if (from != null) inputs.add(from);
        if (root != null) inputs.add(root);
        OutputFile file = output == null ? null : OutputFile.check(output, "-o", inputs);
        if (format == null) format = OutputFormat.byName(output, OutputFormat.Only.FOR_TOPOLOGY);
        Topology t = read(root, from);
        String report = switch (format) {
            case text -> TopologyText.render(t);
            case json -> TopologyJson.render(t);
            case svg -> TopologySvg.render(t);
            case hwloc_xml -> HwlocXmlWriter.write(t);
            case html, prometheus, nfd -> throw new IllegalStateException("topology --format " + format.word());
        };
        if (file != null) {
            file.save(report);
            out.println("topology (" + format.word() + ") written to " + output);
        } else {
            out.print(report);
        }
        out.flush();
        return Main.EXIT_OK;
    }

    /**
     * The machine in hwloc XML ({@code --from}), in a saved tree ({@code --root}), else this one;
     * the option's input that cannot be read is bad input naming it. Shared by every command that
     * takes {@code --root} or {@code --from}.
     */
    static Topology read(Path root, Path from) {
        if (from != null) {
            if (root != null) throw new UsageException("--from " + from + ": give --root or --from, not both");
            try {
                return HwlocXmlReader.read(from);
            } catch (IllegalArgumentException e) {
                throw new UsageException("--from " + e.getMessage());
            }
        }
        if (root == null) return Topology.live();
        if (Files.isRegularFile(root) && root.getFileName().toString().matches(".*\\.(tar\\.gz|tgz)$")) {
            throw new UsageException("--root " + root + ": a capture archive; unpack it first (tar xzf " + root + ") and pass the folder");
        }
        try {
            // nothing is saved from here: a reader that records no path (a tree of 8192 CPUs is
            // ~200,000 files); "/" as a root stays a saved-tree read, not a live one
            boolean slash = root.toAbsolutePath().normalize().getParent() == null;
            return slash ? Topology.read(root) : Topology.read(SysfsReader.unrecorded(root));
        } catch (IllegalArgumentException e) {
            throw new UsageException("--root " + e.getMessage());
        }
    }
}
