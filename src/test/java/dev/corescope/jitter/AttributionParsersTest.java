package dev.corescope.jitter;

import dev.corescope.topology.proc.CounterTable;
import dev.corescope.topology.proc.CpuTimes;
import dev.corescope.topology.proc.KernelHints;
import dev.corescope.topology.proc.SysfsReader;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.StringReader;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The /proc parsers on saved files: this KVM guest's own {@code /proc/interrupts} and
 * {@code /proc/softirqs}, and crafted ones for a host with an offline CPU, NIC queues pinned by
 * {@code smp_affinity_list} and an isolated {@code nohz_full} CPU, and an Arm server (GICv3, IPIn rows).
 */
class AttributionParsersTest {

    static Reader resource(String name) {
        return new InputStreamReader(Objects.requireNonNull(AttributionParsersTest.class.getResourceAsStream("/jitter/" + name), name),
                StandardCharsets.UTF_8);
    }

    static Path resourceDir(String name) throws URISyntaxException {
        return Path.of(Objects.requireNonNull(AttributionParsersTest.class.getResource("/jitter/" + name)).toURI());
    }

    @Test
    void thisKvmGuestsInterruptsParseWithDeviceAndArchitectureRows() throws IOException {
        CounterTable t = CounterTable.parse(resource("kvm-2cpu/interrupts"));
        assertArrayEquals(new int[] {0, 1}, t.cpus());
        CounterTable.Row req = t.row("36").orElseThrow();
        assertEquals(60559, req.count(1));
        assertEquals("virtio1-req.0", req.displayName());
        assertTrue(req.isDeviceIrq());
        CounterTable.Row loc = t.row("LOC").orElseThrow();
        assertEquals(82060, loc.count(0));
        assertEquals("local timer", loc.displayName());
        assertEquals("TLB shootdowns", t.row("TLB").orElseThrow().displayName());
        // ERR: and MIS: hold a single total, no per-CPU counts
        assertEquals(0, t.row("ERR").orElseThrow().counts().length);
        assertFalse(t.row("ERR").orElseThrow().isDeviceIrq());
    }

    @Test
    void thisKvmGuestsSoftirqsParse() throws IOException {
        CounterTable t = CounterTable.parse(resource("kvm-2cpu/softirqs"));
        assertArrayEquals(new int[] {0, 1}, t.cpus());
        assertEquals(10, t.rows().size());
        assertEquals(60551, t.row("BLOCK").orElseThrow().count(1));
        assertEquals("RCU", t.row("RCU").orElseThrow().displayName());
    }

    @Test
    void anOfflineCpuHasNoColumnAndDeltasMatchColumnsByCpuNumber() throws IOException {
        CounterTable before = CounterTable.parse(resource("host-7of8-mlx5/interrupts.before"));
        CounterTable after = CounterTable.parse(resource("host-7of8-mlx5/interrupts.after"));
        assertArrayEquals(new int[] {0, 1, 2, 4, 5, 6, 7}, after.cpus());
        assertEquals(-1, after.column(3));
        CounterTable d = after.minus(before);
        assertEquals(12000, d.row("120").orElseThrow().count(d.column(0)));
        assertEquals(2500, d.row("LOC").orElseThrow().count(d.column(4)));
        assertEquals(2, d.row("LOC").orElseThrow().count(d.column(2)));
        assertEquals("mlx5_comp0@pci:0000:3b:00.0", d.row("120").orElseThrow().displayName());
    }

    @Test
    void softirqRowsAreMatchedByNameNotByPosition() throws IOException {
        CounterTable d = CounterTable.parse(resource("host-7of8-mlx5/softirqs.after"))
                .minus(CounterTable.parse(resource("host-7of8-mlx5/softirqs.before")));
        assertEquals(11000, d.row("NET_RX").orElseThrow().count(0));
        assertEquals(0, d.row("NET_TX").orElseThrow().count(0));
    }

    @Test
    void armInterruptsNameTheActionAfterAGicTrigger() throws IOException {
        CounterTable t = CounterTable.parse(resource("arm-4cpu/interrupts"));
        assertArrayEquals(new int[] {0, 1, 2, 3}, t.cpus());
        assertEquals("arch_timer", t.row("11").orElseThrow().displayName());
        assertEquals("eth0-TxRx-1", t.row("41").orElseThrow().displayName());
        assertEquals("rescheduling", t.row("IPI0").orElseThrow().displayName());
        assertEquals(4, CounterTable.parse(resource("arm-4cpu/softirqs")).cpus().length);
    }

    @Test
    void aCounterThatWentBackwardsCountsAsZero() throws IOException {
        CounterTable a = CounterTable.parse(new StringReader("  CPU0\nLOC: 100 Local timer interrupts\n"));
        CounterTable b = CounterTable.parse(new StringReader("  CPU0\nLOC: 40 Local timer interrupts\n"));
        assertEquals(0, b.minus(a).row("LOC").orElseThrow().count(0));
    }

    @Test
    void malformedFilesAreRefusedWithTheLineNumber() {
        var noHeader = assertThrows(IllegalArgumentException.class, () -> CounterTable.parse(new StringReader("LOC: 1 2\n")));
        assertTrue(noHeader.getMessage().startsWith("line 1:"), noHeader.getMessage());
        var shortRow = assertThrows(IllegalArgumentException.class,
                () -> CounterTable.parse(new StringReader("  CPU0 CPU1\n 5: 1 2 x\n 6: 7 y\n")));
        assertTrue(shortRow.getMessage().startsWith("line 3 (6): 1 counts for 2"), shortRow.getMessage());
        assertThrows(IllegalArgumentException.class, () -> CounterTable.parse(new StringReader("")));
    }

    @Test
    void stealIsTheShareOfEachCpusTicksOverTheWindow() throws IOException {
        CpuTimes before = CpuTimes.parse(resource("stat.before"));
        CpuTimes after = CpuTimes.parse(resource("stat.after"));
        assertEquals(0.0, after.stealPercentSince(before, 0).orElseThrow(), 1e-9);
        assertEquals(100.0 * 20 / 300, after.stealPercentSince(before, 1).orElseThrow(), 1e-9);
        assertTrue(after.stealPercentSince(before, 7).isEmpty());
    }

    @Test
    void kernelHintsReadTheCommandLineTheSysfsSetsAndEachIrqsAffinity() throws URISyntaxException {
        KernelHints h = KernelHints.read(new SysfsReader(resourceDir("host-7of8-mlx5")), 8);
        assertEquals("managed_irq,domain,2", h.cmdline().get("isolcpus"));
        assertEquals("0-1,4-7", h.cmdline().get("irqaffinity"));
        assertEquals("2", h.isolated().toList());
        assertEquals("2", h.nohzFull().toList());
        assertEquals("2", h.rcuNocbs().toList());
        assertEquals("isolated, nohz_full, rcu_nocbs", h.flagsOf(2));
        assertEquals("", h.flagsOf(0));
        assertEquals("0", h.affinityOf(120).orElseThrow().toList());
        assertEquals("0-1,4-7", h.affinityOf(122).orElseThrow().toList());
        assertTrue(h.affinityOf(9).isEmpty());
    }

    @Test
    void optionsAfterTheDoubleDashBelongToInit() {
        assertEquals(List.of("nohz_full"), List.copyOf(KernelHints.parseCmdline("quiet nohz_full=1 -- isolcpus=1").keySet()));
        assertEquals("3-5", KernelHints.cpusOf("domain,managed_irq,3-5", 8).toList());
        assertTrue(KernelHints.cpusOf("nohz", 8).isEmpty());
    }

    @Test
    void causesOnTheHostNameTheNicQueuePinnedToEachCpu() throws IOException, URISyntaxException {
        CounterTable irqs = CounterTable.parse(resource("host-7of8-mlx5/interrupts.after"))
                .minus(CounterTable.parse(resource("host-7of8-mlx5/interrupts.before")));
        CounterTable soft = CounterTable.parse(resource("host-7of8-mlx5/softirqs.after"))
                .minus(CounterTable.parse(resource("host-7of8-mlx5/softirqs.before")));
        KernelHints hints = KernelHints.read(new SysfsReader(resourceDir("host-7of8-mlx5")), 8);
        List<Cause> cpu0 = Attribution.causes(0, 10.0, irqs, soft, 0.0, 0L, hints);
        assertEquals("mlx5_comp0@pci:0000:3b:00.0 1.2k/s (IRQ 120, may go to 0)", cpu0.get(0).describe());
        assertEquals("softirq NET_RX 1.1k/s", cpu0.get(1).describe());
        assertEquals("local timer 250/s", cpu0.get(2).describe());
        List<Cause> cpu2 = Attribution.causes(2, 10.0, irqs, soft, null, 0L, hints);
        assertEquals(List.of("local timer 0.2/s"), cpu2.stream().map(Cause::describe).toList());
        assertTrue(Attribution.causes(3, 10.0, irqs, soft, null, null, hints).isEmpty(), "CPU 3 was offline: no column");
    }

    @Test
    void theLikelyCauseOfLongGapsIsOtherTasksThenStealThenTheHost() {
        List<Cause> causes = List.of(
                new Cause("steal", "steal", null, null, 4.0, null),
                new Cause("irq", "local timer", "LOC", 250.0, null, null),
                new Cause("sched", "other tasks (context switches)", null, 5.0, null, null));
        assertEquals("other tasks (context switches) 5.0/s, steal 4.0%, local timer 250/s",
                Attribution.likelyCause(causes, 20, 10, 1.0, null));
        // no long gaps: the switches are named by their rate only
        assertEquals("steal 4.0%, local timer 250/s, other tasks (context switches) 5.0/s",
                Attribution.likelyCause(causes, 0, 0, 1.0, null));
        List<Cause> quietGuest = List.of(new Cause("irq", "local timer", "LOC", 2.0, null, null));
        assertTrue(Attribution.likelyCause(quietGuest, 50, 0, 1.0, "KVM").startsWith("host scheduling (50 gaps over 10 µs, more than the 2"));
        assertEquals("local timer 2.0/s", Attribution.likelyCause(quietGuest, 50, 0, 1.0, null));
        assertEquals("nothing counted", Attribution.likelyCause(List.of(), 0, 0, 1.0, null));
    }
}
