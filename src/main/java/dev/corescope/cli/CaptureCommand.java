package dev.corescope.cli;

import dev.corescope.topology.Capture;
import dev.corescope.topology.Topology;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code capture -o FILE.tar.gz}: the sysfs and procfs files {@code topology} reads, for replay with {@code --root}. */
@Command(name = "capture",
        mixinStandardHelpOptions = true,
        description = {
                "Saves the sysfs/procfs files topology reads, as a .tar.gz.",
                "",
                "Saves exactly the /sys and /proc files that 'topology' reads (text files only, no symlinks)",
                "as a .tar.gz, to attach to a bug report or to replay elsewhere with 'topology --root'.",
                "Files that cannot be read are skipped and listed.",
                "",
                "Example:",
                "  ./run.sh capture -o box.tar.gz",
                "  tar xzf box.tar.gz && ./run.sh topology --root box"})
final class CaptureCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "FILE.tar.gz", description = "the archive to write (whole or not at all)")
    Path output;

    @Override
    public Integer call() throws IOException {
        TopologyCommand.checkOutputFolder(output, "-o");
        Topology t = Topology.live();
        Capture.Result r;
        try {
            r = Capture.write(t, output);
        } catch (IOException e) {
            throw TopologyCommand.cannotWrite(output, e);
        }
        var out = spec.commandLine().getOut();
        out.println("captured " + r.files() + " files (" + r.bytes() + " bytes) in " + r.directories() + " folders to "
                + output + "; unpack with: tar xzf " + output + " (folder " + r.folder() + "/)");
        if (!r.skipped().isEmpty()) out.println("skipped " + r.skipped().size() + " unreadable: " + shortList(r.skipped()));
        out.flush();
        return Main.EXIT_OK;
    }

    private static String shortList(List<String> files) {
        int n = Math.min(8, files.size());
        String s = String.join(", ", files.subList(0, n));
        return files.size() > n ? s + ", ... " + (files.size() - n) + " more" : s;
    }
}
