package dev.corescope.topology;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.topology.proc.SysfsReader;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The one rule for usable CPUs on the saved isolcpus host (isolated and nohz_full 4-7 with
 * {@code isolcpus=managed_irq,domain,4-7}, CPU 7 offline, cgroup cpuset 0-5 wider than the start
 * mask 0-3, a 1.5-CPU quota, IRQ 24 on CPUs 0 and 5).
 */
class UsableCpusTest {

    private static final Path HOST = Path.of("src/test/resources/fixtures/isolcpus");
    private static final CpuMask START = CpuMask.parseList("0-3", 8);

    @Test
    void usableIsTheStartMaskPlusTheIsolatedCpusTheCpusetAllows() {
        UsableCpus u = UsableCpus.of(Topology.read(HOST), START);
        assertEquals("0-5", u.usable().toList());
        assertEquals("4-5", u.quiet().toList());
        assertEquals("0-5", u.pinnable().toList());
    }

    @Test
    void aNarrowerStartMaskNarrowsTheDefaultButNotWhatMayBeNamed() {
        UsableCpus u = UsableCpus.of(Topology.read(HOST), CpuMask.parseList("0", 8));
        assertEquals("0,4-5", u.usable().toList(), "CPUs 1-3 are in the cpuset but not isolated: not chosen by default");
        assertEquals("0-5", u.pinnable().toList(), "but a pin may name them, as taskset -c 0 taskset -c 1 does");
        assertTrue(u.refusal(CpuMask.parseList("1", 8)).isEmpty());
    }

    @Test
    void aSavedTreeStartsWhereAProcessStartedNormallyThereWould() {
        Topology t = Topology.read(HOST);
        assertEquals("0-3", UsableCpus.of(t).start().toList(), "the cpuset without the isolated CPUs");
        assertEquals("0-5", t.usable().toList());
    }

    @Test
    void refusalsNameTheCpusetAndOfflineCpus() {
        UsableCpus u = UsableCpus.of(Topology.read(HOST), START);
        String six = u.refusal(CpuMask.parseList("5-6", 8)).orElseThrow();
        assertEquals("CPU 6 is not in the allowed set 0-5 (outside the cgroup's cpuset 0-5, /bench.slice/latency.scope; affinity --why 6)", six);
        String seven = u.refusal(CpuMask.parseList("7", 8)).orElseThrow();
        assertTrue(seven.startsWith("CPU 7 is not in the allowed set 0-5 (offline"), seven);
    }

    @Test
    void whyGivesEveryReasonForEachCpu() {
        Topology t = Topology.read(HOST);
        List<UsableCpus.Why> why = UsableCpus.of(t, START).why(CpuMask.parseList("0,5-7", 8), new SysfsReader(HOST));
        assertEquals(List.of(0, 5, 6, 7), why.stream().map(UsableCpus.Why::cpu).toList());
        UsableCpus.Why zero = why.get(0);
        assertTrue(zero.usable());
        assertEquals(List.of("startMask", "cpuQuota", "deviceIrqs"), codes(zero));
        assertTrue(zero.reasons().get(2).detail().contains("IRQ 24 nvme0q1 1200"), zero.reasons().get(2).detail());
        UsableCpus.Why five = why.get(1);
        assertTrue(five.usable());
        assertEquals(List.of("isolated", "managedIrq", "nohzFull", "outsideStartMask", "cpuQuota", "deviceIrqs"), codes(five));
        assertTrue(five.reasons().get(0).detail().contains("isolcpus=managed_irq,domain,4-7"), five.reasons().get(0).detail());
        assertTrue(five.reasons().get(4).detail().contains("1.50 CPUs"), five.reasons().get(4).detail());
        UsableCpus.Why six = why.get(2);
        assertFalse(six.usable());
        assertFalse(six.pinnable());
        assertEquals("outsideCpuset", codes(six).getFirst());
        UsableCpus.Why seven = why.get(3);
        assertFalse(seven.pinnable());
        assertEquals("offline", codes(seven).getFirst());
    }

    private static List<String> codes(UsableCpus.Why w) {
        return w.reasons().stream().map(UsableCpus.Reason::reason).toList();
    }
}
