package dev.corescope.report;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.testing.Approved;
import dev.corescope.testing.TopologyFixtures;
import dev.corescope.topology.Topology;
import dev.corescope.topology.proc.SysfsReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * The environment of committed machines, as a results file holds it (JSON) and as {@code report}
 * and the run text print it, plus the files the probe read (what {@code capture} saves): approved
 * before {@link EnvironmentProbe} was split into its readings (issue #26), so the split is shown
 * to change nothing. The fake roots in {@code fixtures/environment} reach every branch of the
 * readings (cgroup v1 and v2 quotas, cpufreq with mixed governors and an unreadable frequency,
 * a hypervisor named by {@code sys/hypervisor}, by DMI, by the clocksource and by the cpuinfo
 * flag alone, the kernel from {@code /proc/sys/kernel} and from {@code /proc/version}, steal
 * time, a busy SMT sibling, no topology); the saved trees of {@link TopologyFixtures} add real
 * machines' cpuinfo and cpufreq.
 */
class EnvironmentApprovedTest {

    private static final Instant T0 = Instant.parse("2026-12-01T16:00:00Z");
    private static final Instant T1 = Instant.parse("2026-12-01T16:01:30Z");
    private static final Path FAKE_ROOTS = Path.of(System.getProperty("corescope.basedir", "."))
            .resolve("src/test/resources/fixtures/environment");

    @TempDir
    Path tmp;

    /** {@code fixtures/environment/NAME} copied, its {@code stat.after} put in place of {@code proc/stat} after the start. */
    private String fakeRoot(String name, CpuMask allowed, CpuMask pinned) throws IOException {
        Path root = copy(FAKE_ROOTS.resolve(name), tmp.resolve(name));
        Path after = root.resolve("stat.after");
        return describe(root, allowed, pinned, () -> {
            if (Files.exists(after)) Files.copy(after, root.resolve("proc/stat"), StandardCopyOption.REPLACE_EXISTING);
        });
    }

    private interface Step {
        void run() throws IOException;
    }

    private static String describe(Path root, CpuMask allowed, CpuMask pinned, Step betweenStartAndFinish) throws IOException {
        Topology topology = Files.isDirectory(root.resolve("sys/devices/system/cpu")) ? Topology.read(root) : null;
        EnvironmentProbe.Facts facts = new EnvironmentProbe.Facts("TestJDK 25+36 (Test VM)", List.of("-Xmx1g", "-XX:+UseParallelGC"),
                allowed, allowed == null ? null : "perf_event_open(cycles) failed: ENOENT (2)");
        SysfsReader reader = new SysfsReader(root);
        EnvironmentProbe probe = new EnvironmentProbe(reader, facts, topology);
        EnvironmentProbe.Start start = probe.start(T0);
        betweenStartAndFinish.run();
        Environment env = probe.finish(start, T1, pinned);
        return "== json\n" + Json.write(env)
                + "== document\n" + ResultsText.environmentDocument(env).render(100)
                + "== files read\n" + String.join("\n", new TreeSet<>(reader.filesRead().keySet())) + "\n";
    }

    private static Path copy(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path q = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) Files.createDirectories(q);
                else Files.copy(p, q);
            }
        }
        return to;
    }

    @Test
    void aKvmGuestWithANestedCgroupV1Quota() throws IOException {
        Approved.verify("environment/kvm-cgroup1.txt", fakeRoot("kvm-cgroup1", CpuMask.parseList("0-1", 2), CpuMask.of(2, 1)));
    }

    @Test
    void anSmtGuestNamedByDmiWithMixedGovernorsAndABusySibling() throws IOException {
        Approved.verify("environment/smt-qemu-cgroup2.txt", fakeRoot("smt-qemu-cgroup2", CpuMask.parseList("0-1", 4), CpuMask.of(4, 0, 1)));
    }

    @Test
    void aXenGuestOnPerformanceWithoutCgroupFiles() throws IOException {
        Approved.verify("environment/xen-performance.txt", fakeRoot("xen-performance", null, null));
    }

    @Test
    void aHyperVGuestWithoutTopology() throws IOException {
        Approved.verify("environment/hyperv-no-topology.txt", fakeRoot("hyperv-no-topology", CpuMask.of(1, 0), CpuMask.of(1, 0)));
    }

    @Test
    void guestsKnownByTheirClocksourceWithABlankDmiProductAndABlankHypervisorType() throws IOException {
        Approved.verify("environment/clocksources.txt", "#### kvm-clock\n" + fakeRoot("kvm-clock", null, null)
                + "#### xen-clock\n" + fakeRoot("xen-clock", null, null));
    }

    @Test
    void theSavedMachines() throws Exception {
        StringBuilder all = new StringBuilder();
        for (String name : List.of("2arm-2c", "16amd64-8n2c", "16em64t-4s2c2t", "16em64t-4s2c2t-offlines",
                "20em64t-hybrid-1p6c2t+2ca4co1t", "128arm-2pa2n8cluster4co")) {
            Path tree = Fixtures.unpack(name, Files.createDirectories(tmp.resolve(name)));
            all.append("#### ").append(name).append('\n').append(describe(tree, null, null, () -> { }));
        }
        Approved.verify("environment/saved-machines.txt", all.toString());
    }
}
