package dev.corescope.cpumask;

import java.util.Set;
import java.util.HashSet;
import dev.corescope.affinity.ThreadAffinity;
import dev.corescope.sys.Pinning;
import dev.corescope.sys.internal.Affinity;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The obvious calls do the obvious thing (issue #24 point 9): masks of CPUs, sized by the machine. */
class CpuMaskFactoriesTest {

    @Test
    void ofCpusHoldsThoseCpusAndIsSizedByTheMachine() {
        CpuMask m = CpuMask.ofCpus(1);
        assertEquals("1", m.toList());
        assertEquals(Affinity.nrCpuIds(), m.nbits());
        assertEquals(Affinity.nrCpuIds(), CpuMask.machineSize());
        assertEquals("0-1,3", CpuMask.ofCpus(3, 0, 1, 3).toList());
        assertTrue(CpuMask.ofCpus().isEmpty());
    }

    @Test
    void aCpuBeyondTheMachineWidensTheMask() {
        int beyond = CpuMask.machineSize() + 100;
        CpuMask m = CpuMask.ofCpus(beyond);
        assertEquals(beyond + 1, m.nbits());
        assertEquals(String.valueOf(beyond), m.toList());
        assertEquals(m, CpuMask.parse(String.valueOf(beyond)));
    }

    @Test
    void parseReadsAListWithoutABitCount() {
        CpuMask m = CpuMask.parse("0-3,8");
        assertEquals("0-3,8", m.toList());
        assertEquals(Math.max(CpuMask.machineSize(), 9), m.nbits());
        assertEquals(CpuMask.parse("0"), CpuMask.ofCpus(0));
        assertEquals(CpuMask.machineSize() - 1, CpuMask.parse("N").first());
        assertThrows(CpuMaskFormatException.class, () -> CpuMask.parse("3-1"));
        assertThrows(CpuMaskFormatException.class, () -> CpuMask.parse("x"));
    }

    @Test
    void theMachinesMasksCompareEqualToTheseOnes() {
        CpuMask allowed = ThreadAffinity.allowed();
        assertEquals(allowed, CpuMask.parse(allowed.toList()));
    }

    @Test
    @SuppressWarnings("deprecation")
    void ofWithTheBitCountAloneIsRefusedWithTheWayOut() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CpuMask.of(1));
        assertTrue(e.getMessage().contains("CpuMask.ofCpus(1)"), e.getMessage());
        assertTrue(e.getMessage().contains("CpuMask.empty(1)"), e.getMessage());
        assertEquals("1", CpuMask.of(4, 1).toList(), "of(nbits, cpus...) still works");
        assertThrows(IllegalArgumentException.class, () -> CpuMask.ofCpus(-1));
    }

    @Test
    void pinningToOfCpusWorks() {
        int cpu = ThreadAffinity.allowed().first();
        try (Pinning p = ThreadAffinity.pin(CpuMask.ofCpus(cpu))) {
            assertEquals(cpu, ThreadAffinity.currentCpu());
            assertEquals(CpuMask.ofCpus(cpu), p.pinned());
        }
    }

    /**
     * The one-CPU masks of an 8192-CPU machine (its private caches' sets) and its two-CPU
     * sibling masks hash apart: {@code Arrays.hashCode} of the words gave CPU n and CPU n + 32
     * one hash, and a map keyed by them searched tree bins.
     */
    @Test
    void theSmallMasksOfALargeMachineHashApart() {
        Set<Integer> singles = new HashSet<>();
        Set<Integer> pairs = new HashSet<>();
        for (int cpu = 0; cpu < 8192; cpu++) {
            singles.add(CpuMask.of(8192, cpu).hashCode());
            if (cpu % 2 == 0) pairs.add(CpuMask.of(8192, cpu, cpu + 1).hashCode());
        }
        assertTrue(singles.size() >= 8190, "distinct hashes of 8192 one-CPU masks: " + singles.size());
        assertTrue(pairs.size() >= 4094, "distinct hashes of 4096 two-CPU masks: " + pairs.size());
        assertEquals(CpuMask.parseList("0-3,100", 8192).hashCode(), CpuMask.parseHex("00000010,00000000,00000000,0000000f", 8192).hashCode());
    }
}
