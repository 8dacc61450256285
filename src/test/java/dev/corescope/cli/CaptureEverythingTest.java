package dev.corescope.cli;

import dev.corescope.testing.Archives;
import dev.corescope.jitter.ProcSnapshot;
import dev.corescope.report.EnvironmentProbe;
import dev.corescope.topology.Topology;
import dev.corescope.topology.TopologyText;
import dev.corescope.topology.proc.CgroupCpuset;
import dev.corescope.topology.proc.CgroupQuota;
import dev.corescope.topology.proc.CpuInfo;
import dev.corescope.topology.proc.EventSources;
import dev.corescope.topology.proc.KernelHints;
import dev.corescope.topology.proc.LoadAvg;
import dev.corescope.topology.proc.Mountinfo;
import dev.corescope.topology.proc.ProcLocks;
import dev.corescope.topology.proc.SysfsReader;
import dev.corescope.topology.proc.TscFrequency;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Issue 26: {@code capture} saves every /proc and /sys file any command reads, and
 * {@code --root} on the capture gives the same answers as live. Each reading a command does
 * (topology; the environment with cgroup, quota and governors; kernel hints; the CPU-time and
 * interrupt counters of jitter and quiet CPUs; the load; /proc/locks; bench locks' TSC
 * frequency and perf event sources) runs here on the live
 * machine through a reader of its own; every file it read must be in the archive the
 * {@code capture} command wrote, and the same reading on the unpacked archive must answer as
 * it did live (for what does not move between two reads: not the counters or the load).
 */
class CaptureEverythingTest {

    @TempDir
    Path tmp;

    private static final java.util.Set<String> MAY_READ_NOTHING = java.util.Set.of("locks", "bench locks' TSC frequency",
            "bench locks' perf event sources");

    /** What one command reads, through {@code r}. */
    private static Map<String, Consumer<SysfsReader>> readings() {
        return Map.of(
                "topology", r -> Topology.read(r),
                "environment", r -> {
                    EnvironmentProbe probe = new EnvironmentProbe(r, EnvironmentProbe.Facts.live(), Topology.live());
                    probe.finish(probe.start(Instant.now()), Instant.now(), null);
                },
                "kernel hints", r -> KernelHints.read(r, Topology.live().nbits()),
                "counters", ProcSnapshot::read,
                "load", LoadAvg::read,
                "locks", ProcLocks::read,
                "bench locks' TSC frequency", TscFrequency::readKhz,
                "bench locks' perf event sources", EventSources::read);
    }

    @Test
    void aLiveCaptureHoldsEveryFileEachCommandReadsAndReplaysItsAnswers() throws IOException {
        assumeTrue(Files.isDirectory(Path.of("/sys/devices/system/cpu")) && Files.isRegularFile(Path.of("/proc/stat")),
                "no /sys or /proc here");
        Path archive = tmp.resolve("box.tar.gz");
        CliRun run = CliRun.run("capture", "-o", archive.toString());
        assertEquals(0, run.exitCode(), run.err());
        Path root = Archives.unpack(archive, tmp.resolve("x"));
        TreeSet<String> saved = new TreeSet<>();
        try (var s = Files.walk(root)) {
            s.filter(Files::isRegularFile).forEach(p -> saved.add(root.relativize(p).toString()));
        }

        for (var e : readings().entrySet()) {
            SysfsReader live = new SysfsReader(Path.of("/"), true);
            e.getValue().accept(live);
            List<String> missing = new ArrayList<>();
            for (String f : live.filesRead().keySet()) {
                if (!saved.contains(f)) missing.add(f);
            }
            assertTrue(missing.isEmpty(), e.getKey() + " reads files the capture did not save: " + missing);
            // no lock is held, no cpu0/tsc_freq_khz, no perf event source: nothing to read on some machines
            assertTrue(!live.filesRead().isEmpty() || MAY_READ_NOTHING.contains(e.getKey()), e.getKey() + " read nothing live");
        }

        // the replay answers as live did, for what does not change between two reads
        SysfsReader live = new SysfsReader(Path.of("/"));
        SysfsReader replay = new SysfsReader(root);
        Topology liveTopology = Topology.live();
        Topology replayTopology = Topology.read(root);
        String liveText = TopologyText.render(liveTopology).lines()
                .filter(l -> !l.startsWith("Allowed: ") && !l.contains("(sched_getaffinity)"))
                .reduce("", (a, b) -> a + b + "\n");
        assertEquals(liveText, TopologyText.render(replayTopology));
        int nbits = liveTopology.nbits();
        assertEquals(KernelHints.read(live, nbits), KernelHints.read(replay, nbits));
        assertEquals(CgroupCpuset.read(live, nbits), CgroupCpuset.read(replay, nbits));
        assertEquals(CgroupQuota.read(live), CgroupQuota.read(replay));
        assertEquals(Mountinfo.read(live).map(List::size), Mountinfo.read(replay).map(List::size));
        assertEquals(CpuInfo.read(live).model(), CpuInfo.read(replay).model());
        assertEquals(LoadAvg.read(live).isPresent(), LoadAvg.read(replay).isPresent());
        assertEquals(TscFrequency.readKhz(live), TscFrequency.readKhz(replay));
        assertEquals(EventSources.read(live), EventSources.read(replay), "the same perf event sources, with their types");
    }

}
