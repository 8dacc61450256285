package dev.corescope.sys.internal;

import dev.corescope.affinity.ThreadAffinity;
import dev.corescope.cpumask.CpuMask;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue #24 point 13: on an isolcpus host the isolated CPUs are outside a normally started
 * JVM's mask; a pin may still ask for them (the kernel checks the cgroup).
 */
class PinnableTest {

    @Test
    void theIsolatedCpusArePinnableBeyondTheStartMask() {
        CpuMask start = CpuMask.parseList("0-1", 8);
        CpuMask isolated = CpuMask.parseList("4-5", 6);
        assertEquals("0-1,4-5", Affinity.pinnable(start, isolated).toList());
        assertEquals(8, Affinity.pinnable(start, isolated).nbits());
        assertEquals("0-1", Affinity.pinnable(start, CpuMask.empty(8)).toList());
    }

    @Test
    void liveTheStartMaskIsAlwaysPinnable() {
        assertTrue(Affinity.processAllowed().isSubsetOf(Affinity.pinnable().resize(Affinity.processAllowed().nbits())));
        CpuMask p = ThreadAffinity.pinnable();
        assertTrue(Affinity.processAllowed().resize(p.nbits()).isSubsetOf(p));
        assertTrue(p.isSubsetOf(Affinity.pinnable().resize(p.nbits())));
    }
}
