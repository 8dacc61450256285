package dev.corescope.report;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.sys.internal.Affinity;
import dev.corescope.topology.Topology;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class EnvironmentProbeTest {

    private static final Instant T0 = Instant.parse("2025-01-02T03:04:05Z");
    private static final Instant T1 = Instant.parse("2025-01-02T03:05:05Z");
    private static final EnvironmentProbe.Facts FACTS = new EnvironmentProbe.Facts(
            "TestJDK 25", List.of("-Xmx1g"), CpuMask.parseList("0-3", 8), "perf_event_open(cycles) failed: ENOENT (2)");

    @TempDir
    Path root;

    private void write(String rel, String text) throws IOException {
        Path p = root.resolve(rel);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
    }

    /** /proc/stat with {@code ticks} in all on the total line, {@code steal} of them stolen. */
    private static String stat(long cpu4Busy, long cpu4Idle, long ticks, long steal) {
        return "cpu  " + (ticks - steal) + " 0 0 0 0 0 0 " + steal + " 0 0\n"
                + "cpu0 100 0 50 900 0 0 0 0 0 0\n"
                + "cpu4 " + cpu4Busy + " 0 0 " + cpu4Idle + " 0 0 0 0 0 0\n"
                + "intr 0\n";
    }

    /** An 8-CPU SMT machine (siblings n and n+4) under KVM, in a cgroup v2 with a quota, cpufreq on powersave. */
    private void smtMachineUnderCgroupV2() throws IOException {
        write("proc/cpuinfo", "processor\t: 0\nmodel name\t: Test CPU @ 3.00GHz\nflags\t\t: fpu sse hypervisor avx\ncpu MHz\t\t: 2999.5\n\n"
                + "processor\t: 1\nmodel name\t: Test CPU @ 3.00GHz\nflags\t\t: fpu sse hypervisor avx\n\n");
        write("proc/sys/kernel/ostype", "Linux\n");
        write("proc/sys/kernel/osrelease", "6.1.0-test\n");
        write("sys/devices/system/cpu/online", "0-7\n");
        write("sys/devices/system/cpu/isolated", "\n");
        write("sys/devices/system/cpu/smt/active", "1\n");
        write("sys/devices/system/clocksource/clocksource0/current_clocksource", "kvm-clock\n");
        for (int cpu = 0; cpu < 8; cpu++) {
            String d = "sys/devices/system/cpu/cpu" + cpu + "/";
            write(d + "topology/thread_siblings_list", (cpu % 4) + "," + (cpu % 4 + 4) + "\n");
            write(d + "cpufreq/scaling_governor", cpu < 4 ? "powersave\n" : "performance\n");
            write(d + "cpufreq/scaling_cur_freq", (cpu < 4 ? "1200000" : "3000000") + "\n");
        }
        write("proc/self/cgroup", "0::/user.slice/bench.scope\n");
        write("proc/self/mountinfo", "30 23 0:26 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n");
        write("sys/fs/cgroup/user.slice/cpu.max", "max 100000\n");
        write("sys/fs/cgroup/user.slice/bench.scope/cpu.max", "150000 100000\n");
        write("sys/fs/cgroup/user.slice/bench.scope/cpuset.cpus.effective", "0-3\n");
    }

    @Test
    void readsEveryFieldFromACgroupV2Tree() throws IOException {
        smtMachineUnderCgroupV2();
        write("proc/stat", stat(0, 0, 10000, 0));
        EnvironmentProbe probe = probe(root, FACTS);
        EnvironmentProbe.Start start = probe.start(T0);
        write("proc/stat", stat(0, 100, 20000, 0));
        Environment env = probe.finish(start, T1, null);

        assertEquals("Test CPU @ 3.00GHz", env.cpuModel());
        assertEquals("Linux 6.1.0-test", env.kernel());
        assertEquals("TestJDK 25", env.jdk());
        assertEquals(List.of("-Xmx1g"), env.jvmFlags());
        assertEquals("0-3", env.allowed());
        assertEquals("0-7", env.online());
        assertEquals("", env.isolated());
        assertEquals("", env.nohzFull(), "no nohz_full file: the kernel has none");
        assertEquals(Boolean.TRUE, env.smt());
        assertEquals("0-3", env.cgroupCpuset());
        assertEquals("/user.slice/bench.scope", env.cgroup());
        assertEquals(1.5, env.cpuQuotaCpus());
        assertEquals("1.50 CPUs (cgroup v2 cpu.max 150000 100000)", env.cpuQuota());
        assertEquals("performance,powersave", env.governor());
        assertEquals(1200.0, env.frequencyMHz().get("lowest"));
        assertEquals(3000.0, env.frequencyMHz().get("highest"));
        assertEquals("cpufreq scaling_cur_freq", env.frequencyMHz().get("source"));
        assertEquals("KVM (kvm-clock)", env.hypervisor());
        assertEquals(Boolean.FALSE, env.hardwareCounters());
        assertEquals("perf_event_open(cycles) failed: ENOENT (2)", env.hardwareCountersReason());
        assertEquals("2025-01-02T03:04:05Z", env.startedAt());
        assertEquals("2025-01-02T03:05:05Z", env.endedAt());
        assertEquals(0.0, env.stealPercent());
    }

    @Test
    void warnsAboutGovernorAllowedSubsetQuotaAndHypervisor() throws IOException {
        smtMachineUnderCgroupV2();
        write("proc/stat", stat(0, 0, 10000, 0));
        EnvironmentProbe probe = probe(root, FACTS);
        EnvironmentProbe.Start start = probe.start(T0);
        write("proc/stat", stat(0, 100, 20000, 50));
        List<String> w = probe.finish(start, T1, null).warnings();

        assertTrue(w.stream().anyMatch(s -> s.startsWith("the cpufreq governor is performance,powersave, not performance")), w::toString);
        assertTrue(w.contains("only CPUs 0-3 of the online 0-7 are allowed (affinity or cpuset): the benchmarks see part of the machine"), w::toString);
        assertTrue(w.stream().anyMatch(s -> s.startsWith("a CPU quota of 1.50 CPUs (cgroup v2 cpu.max 150000 100000)")), w::toString);
        assertTrue(w.stream().anyMatch(s -> s.startsWith("running under a hypervisor, KVM (kvm-clock): ") && s.contains("0.5% of CPU time was stolen")), w::toString);
        assertEquals(4, w.size(), w::toString);
    }

    @Test
    void warnsWhenTheSmtSiblingOfAPinnedCpuWasBusy() throws IOException {
        smtMachineUnderCgroupV2();
        write("proc/stat", stat(1000, 1000, 10000, 0));
        EnvironmentProbe probe = probe(root, FACTS);
        EnvironmentProbe.Start start = probe.start(T0);
        write("proc/stat", stat(1060, 1040, 20000, 0));
        Environment env = probe.finish(start, T1, CpuMask.of(8, 0));

        assertEquals("0", env.pinnedCpus());
        assertTrue(env.warnings().contains("CPU 4, the SMT sibling of pinned CPU 0, was 60% busy during the run: the two share one core's execution units"),
                env.warnings()::toString);
    }

    @Test
    void anIdleSiblingOrOnePinnedTooIsNoWarning() throws IOException {
        smtMachineUnderCgroupV2();
        write("proc/stat", stat(1000, 1000, 10000, 0));
        EnvironmentProbe probe = probe(root, FACTS);
        EnvironmentProbe.Start start = probe.start(T0);
        write("proc/stat", stat(1005, 1095, 20000, 0));
        assertFalse(probe.finish(start, T1, CpuMask.of(8, 0)).warnings().stream().anyMatch(s -> s.contains("SMT sibling")));

        write("proc/stat", stat(1100, 1000, 20000, 0));
        assertFalse(probe.finish(start, T1, CpuMask.of(8, 0, 4)).warnings().stream().anyMatch(s -> s.contains("SMT sibling")),
                "CPU 4 is pinned by the run itself");
    }

    @Test
    void cgroupV1QuotaIsTheTightestOnThePathAndCpusetComesFromV1() throws IOException {
        write("proc/self/cgroup", "4:cpu,cpuacct:/docker/abc\n3:cpuset:/docker/abc\n0::/\n");
        write("proc/self/mountinfo", String.join("\n",
                "31 23 0:28 / /sys/fs/cgroup rw - tmpfs tmpfs rw",
                "32 31 0:29 / /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct",
                "34 31 0:31 / /sys/fs/cgroup/cpuset rw - cgroup cgroup rw,cpuset",
                "41 31 0:38 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw", ""));
        write("sys/fs/cgroup/cpu,cpuacct/docker/cpu.cfs_quota_us", "50000\n");
        write("sys/fs/cgroup/cpu,cpuacct/docker/cpu.cfs_period_us", "100000\n");
        write("sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_quota_us", "200000\n");
        write("sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_period_us", "100000\n");
        write("sys/fs/cgroup/cpuset/docker/abc/cpuset.effective_cpus", "2,3,4,5\n");
        Files.createDirectories(root.resolve("sys/fs/cgroup/unified"));

        EnvironmentProbe probe = probe(root, FACTS);
        Environment env = probe.finish(probe.start(T0), T1, null);

        assertEquals("2-5", env.cgroupCpuset());
        assertEquals(0.5, env.cpuQuotaCpus(), "the parent's 0.5 CPUs binds the child's 2");
        assertEquals("0.50 CPUs (cgroup v1 cpu.cfs_quota_us 50000 / cpu.cfs_period_us 100000)", env.cpuQuota());
        assertEquals("cpuset:/docker/abc, cpu:/docker/abc", env.cgroup());
    }

    @Test
    void anUnlimitedQuotaIsNoneAndNoWarning() throws IOException {
        write("proc/self/cgroup", "0::/\n");
        write("proc/self/mountinfo", "30 23 0:26 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n");
        write("sys/fs/cgroup/cpu.max", "max 100000\n");
        EnvironmentProbe probe = probe(root, new EnvironmentProbe.Facts("j", List.of(), null, null));
        Environment env = probe.finish(probe.start(T0), T1, null);
        assertEquals("none", env.cpuQuota());
        assertNull(env.cpuQuotaCpus());
        assertEquals(List.of(), env.warnings());
        assertEquals(Boolean.TRUE, env.hardwareCounters());
    }

    @Test
    void anEmptyTreeGivesUnknownsAndNoWarnings() {
        EnvironmentProbe probe = probe(root, new EnvironmentProbe.Facts("j", List.of(), null, null));
        Environment env = probe.finish(probe.start(T0), T1, CpuMask.of(4, 1));
        assertNull(env.cpuModel());
        assertNull(env.online());
        assertNull(env.smt());
        assertNull(env.governor());
        assertNull(env.hypervisor());
        assertNull(env.cpuQuota());
        assertEquals(List.of(), env.warnings());
    }

    @Test
    void aSavedArmBoardHasItsGovernorAndNoHypervisor() throws Exception {
        Path tree = Fixtures.unpack("2arm-2c", root);
        EnvironmentProbe probe = probe(tree, new EnvironmentProbe.Facts("j", List.of(), null, null));
        Environment env = probe.finish(probe.start(T0), T1, null);
        assertEquals("0-1", env.online());
        assertNotNull(env.governor(), "the tree has cpufreq");
        assertNotNull(env.frequencyMHz());
        assertNull(env.hypervisor());
        assertEquals(Boolean.FALSE, env.smt());
    }

    @Test
    void theEnvironmentAndTheTopologyOfASavedTreeAgree() throws Exception {
        for (String name : List.of("2arm-2c", "16em64t-4s2c2t-offlines", "128arm-2pa2n8cluster4co")) {
            Path tree = Fixtures.unpack(name, Files.createDirectories(root.resolve(name)));
            Topology t = Topology.read(tree);
            Environment env = probe(tree, new EnvironmentProbe.Facts("j", List.of(), null, null)).finish(
                    new EnvironmentProbe.Start(T0, null), T1, null);
            assertEquals(t.cpuModel().orElse(null), env.cpuModel(), name);
            assertEquals(t.online().toList(), env.online(), name);
            assertEquals(t.isolated().toList(), env.isolated(), name);
            assertEquals(t.nohzFull().toList(), env.nohzFull(), name);
            assertEquals(t.smt().orElse(null), env.smt(), name);
            assertEquals(t.cgroupCpus().map(CpuMask::toList).orElse(null), env.cgroupCpuset(), name);
        }
    }

    @Test
    void anOldArmBoardIsNamedByItsProcessorNotItsBoard() throws Exception {
        Path tree = Fixtures.unpack("2arm-2c", root);
        Environment env = probe(tree, new EnvironmentProbe.Facts("j", List.of(), null, null)).finish(
                new EnvironmentProbe.Start(T0, null), T1, null);
        assertEquals("ARMv7 Processor rev 1 (v7l)", env.cpuModel());
    }

    @Test
    void aSavedSmtServerIsSeenAsSmt() throws Exception {
        Path tree = Fixtures.unpack("16em64t-4s2c2t", root);
        EnvironmentProbe probe = probe(tree, new EnvironmentProbe.Facts("j", List.of(), null, null));
        Environment env = probe.finish(probe.start(T0), T1, null);
        assertEquals(Boolean.TRUE, env.smt());
        assertEquals("0-15", env.online());
        assertNotNull(env.cpuModel());
    }

    @Test
    void theLiveMachineHasItsAllowedSetKernelAndTimes() {
        assumeTrue(Files.isDirectory(Path.of("/sys/devices/system/cpu")), "needs Linux sysfs");
        EnvironmentProbe probe = EnvironmentProbe.live(Topology.live());
        Environment env = probe.finish(probe.start(T0), T1, null);
        assertEquals(Affinity.processAllowed().toList(), env.allowed());
        assertTrue(env.kernel().startsWith("Linux "), env.kernel());
        assertNotNull(env.online());
        assertEquals(env.hardwareCounters(), env.hardwareCountersReason() == null);
        assertTrue(env.jdk().contains(System.getProperty("java.runtime.version")));
    }

    /** A probe of a saved or built tree, its topology read there (none when the tree has no CPUs). */
    private static EnvironmentProbe probe(Path root, EnvironmentProbe.Facts facts) {
        Topology t;
        try {
            t = Topology.read(root);
        } catch (RuntimeException e) {
            t = null;
        }
        return new EnvironmentProbe(root, facts, t);
    }
}
