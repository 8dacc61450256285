package dev.corescope.bench.syscalls;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.sys.tool.NativeLibrary;
import dev.corescope.sys.NativeUnavailableException;
import dev.corescope.sys.Pinning;
import dev.corescope.sys.internal.Affinity;
import dev.corescope.sys.internal.Os;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The C twins of the affinity calls run and leave the thread as they found it. No timing is
 * asserted: only that each loop made its calls and reported a per-call figure.
 */
class SysTwinsTest {

    @BeforeEach
    void needsTheLibrary() {
        assumeTrue(SysTwins.available(), () -> "C twins not built: " + SysTwins.unavailableReason().orElse("?"));
    }

    @Test
    void eachLoopReportsAPositivePerCallTime() {
        assertTrue(SysTwins.getcpuLoop(1000) > 0);
        assertTrue(SysTwins.getaffinityLoop(10) > 0);
        CpuMask before = Affinity.allowed();
        assertTrue(SysTwins.setaffinityLoop(10) > 0);
        assertEquals(before, Affinity.allowed(), "the C loop sets the mask the thread already had");
    }

    @Test
    void theUntimedGetcpuLoopSumsTheCpusItRanOn() {
        int cpu = Affinity.allowed().last();
        try (var pin = Os.live().pinChecked(cpu)) {
            assertEquals(1000L * cpu, SysTwins.getcpuCalls(1000));
            assertEquals(0L, SysTwins.getcpuCalls(0));
        }
    }

    @Test
    void zeroCallsTakeNoTime() {
        assertEquals(0.0, SysTwins.getcpuLoop(0));
        assertEquals(0.0, SysTwins.getaffinityLoop(0));
    }

    @Test
    void theCLoopsSeeThePinnedMask() {
        int cpu = Affinity.allowed().last();
        try (Pinning p = Affinity.pin(cpu)) {
            assertTrue(SysTwins.setaffinityLoop(5) > 0);
            assertEquals(p.pinned(), Affinity.allowed());
        }
    }

    @Test
    void cpusetSizeIsWholeLongsCoveringNrCpuIds() {
        long bytes = SysTwins.cpusetBytes();
        assertEquals(0, bytes % 8);
        assertTrue(bytes * 8 >= Affinity.nrCpuIds());
        assertFalse(bytes * 8 - 64 >= Affinity.nrCpuIds(), "one long too many");
    }

    @Test
    void theLibraryIsTheOneNativeLibraryLoaded() {
        assertTrue(NativeLibrary.available());
        assertTrue(NativeLibrary.file().isPresent());
        assertThrows(NativeUnavailableException.class, () -> NativeLibrary.downcall("cs_sys_no_such_symbol",
                java.lang.foreign.FunctionDescriptor.ofVoid()));
    }
}
