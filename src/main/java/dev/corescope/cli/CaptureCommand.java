package dev.corescope.cli;

import dev.corescope.jitter.ProcSnapshot;
import dev.corescope.report.EnvironmentProbe;
import dev.corescope.topology.Capture;
import dev.corescope.topology.Topology;
import dev.corescope.topology.proc.EventSources;
import dev.corescope.topology.proc.KernelHints;
import dev.corescope.topology.proc.LoadAvg;
import dev.corescope.topology.proc.ProcLocks;
import dev.corescope.topology.proc.SysfsReader;
import dev.corescope.topology.proc.TscFrequency;
import java.time.Instant;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code capture -o FILE.tar.gz}: every sysfs and procfs file the commands read, for replay with {@code --root}. */
@Command(name = "capture",
        mixinStandardHelpOptions = true,
        description = {
                "Saves the sysfs/procfs files corescope reads, as a .tar.gz.",
                "",
                "Saves exactly the /sys and /proc files corescope's readings read (text files only, no",
                "symlinks): the topology, the environment (cgroup cpuset and quota, mounts, CPU model,",
                "governors, hypervisor), the kernel hints (command line, isolated and nohz_full CPUs, IRQ",
                "affinity), the interrupt and CPU-time counters, the load, /proc/locks, the TSC frequency",
                "and perf's event sources; as a .tar.gz, to attach to a bug report or to replay elsewhere",
                "with 'topology --root'.",
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
        OutputFile file = OutputFile.check(output, "-o");
        // one reader for every parser, keeping what it reads: the archive holds every /proc and /sys
        // file any command reads (topology, environment, cgroup, kernel hints, counters, locks, and
        // bench locks' TSC frequency and perf event sources)
        SysfsReader reader = new SysfsReader(Path.of("/"), true);
        Topology t = Topology.read(reader);
        EnvironmentProbe probe = new EnvironmentProbe(reader, EnvironmentProbe.Facts.live(), t);
        probe.finish(probe.start(Instant.now()), Instant.now(), null);
        KernelHints.read(reader, t.nbits());
        ProcSnapshot.read(reader);
        LoadAvg.read(reader);
        ProcLocks.read(reader);
        TscFrequency.readKhz(reader);  // bench locks: the kernel's TSC rate
        EventSources.read(reader);     // bench locks: whether perf has a hardware PMU
        String folder = Capture.folderName(output.toAbsolutePath().normalize().getFileName().toString());
        Capture.Result[] r = new Capture.Result[1];
        try {
            file.write(os -> r[0] = Capture.write(reader, folder, os));
        } catch (IOException e) {
            throw file.cannotWrite(e);
        }
        var out = spec.commandLine().getOut();
        out.println("captured " + r[0].files() + " files (" + r[0].bytes() + " bytes) in " + r[0].directories() + " folders to "
                + output + "; unpack with: tar xzf " + output + " (folder " + r[0].folder() + "/)");
        if (!r[0].skipped().isEmpty()) out.println("skipped " + r[0].skipped().size() + " unreadable: " + shortList(r[0].skipped()));
        out.flush();
        return Main.EXIT_OK;
    }

    private static String shortList(List<String> files) {
        int n = Math.min(8, files.size());
        String s = String.join(", ", files.subList(0, n));
        return files.size() > n ? s + ", ... " + (files.size() - n) + " more" : s;
    }
}
