package dev.corescope.sys;

import dev.corescope.testing.Timing;
import dev.corescope.sys.PerfCounters.Count;
import dev.corescope.sys.PerfCounters.Event;
import dev.corescope.sys.internal.Affinity;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class PerfCountersTest {

    private static final List<Event> SOFTWARE = List.of(Event.TASK_CLOCK, Event.CONTEXT_SWITCHES, Event.CPU_MIGRATIONS, Event.PAGE_FAULTS);

    private static Map<Event, Count> byEvent(List<Count> counts) {
        return counts.stream().collect(Collectors.toMap(Count::event, Function.identity()));
    }

    private static void assumeSoftwareCounters(Map<Event, Count> counts) {
        Count clock = counts.get(Event.TASK_CLOCK);
        assumeTrue(clock.available(), () -> "software perf events not available here: " + clock.unavailable());
    }

    @Test
    void softwareCountersSeeSleepsAsContextSwitchesAndFreshPagesAsFaults() throws Exception {
        PerfCounters.Session s = PerfCounters.start(SOFTWARE);
        for (int i = 0; i < 10; i++) Thread.sleep(2);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment fresh = arena.allocate(8 << 20, 4096);
            for (long off = 0; off < fresh.byteSize(); off += 4096) fresh.set(ValueLayout.JAVA_BYTE, off, (byte) 1);
        }
        Map<Event, Count> c = byEvent(s.stop());
        assumeSoftwareCounters(c);

        assertTrue(c.get(Event.TASK_CLOCK).value() > 0, "task-clock counts the time this thread ran");
        assertTrue(c.get(Event.CONTEXT_SWITCHES).value() >= 10, "each sleep gives the CPU away: " + c.get(Event.CONTEXT_SWITCHES));
        assertTrue(c.get(Event.PAGE_FAULTS).value() > 0, "touching fresh memory faults: " + c.get(Event.PAGE_FAULTS));
        assertEquals("ns", Event.TASK_CLOCK.unit());
    }

    @Test
    void aThreadPinnedToOneCpuIsNeverMigrated() throws Exception {
        int cpu = Affinity.processAllowed().first();
        try (Pinning ignored = Affinity.pin(cpu)) {
            PerfCounters.Session s = PerfCounters.start(SOFTWARE);
            for (int i = 0; i < 20; i++) Thread.sleep(1);
            Map<Event, Count> c = byEvent(s.stop());
            assumeSoftwareCounters(c);
            assertEquals(0L, c.get(Event.CPU_MIGRATIONS).value(), "pinned to CPU " + cpu);
            assertTrue(c.get(Event.CONTEXT_SWITCHES).value() >= 20);
        }
    }

    @Test
    @Timing
    void threadsStartedAfterStartAreCountedThroughInherit() throws Exception {
        PerfCounters.Session s = PerfCounters.start(List.of(Event.TASK_CLOCK));
        long burnNanos = 300_000_000L;
        Thread burner = new Thread(() -> {
            var mx = ManagementFactory.getThreadMXBean();
            long x = 0;
            while (mx.getCurrentThreadCpuTime() < burnNanos) x += System.nanoTime() & 1;
            if (x == 42) System.out.print("");
        });
        burner.start();
        burner.join();
        Count clock = s.stop().getFirst();
        assumeTrue(clock.available(), () -> "software perf events not available here: " + clock.unavailable());
        assertTrue(clock.value() >= burnNanos * 9 / 10,
                "the burner thread's " + burnNanos + " ns of CPU must be in the inherited task-clock, got " + clock.value());
    }

    @Test
    void hardwareEventsAreEitherCountedOrNotAvailableWithTheErrno() {
        PerfCounters.Session s = PerfCounters.start(List.of(Event.CYCLES, Event.INSTRUCTIONS, Event.CACHE_MISSES));
        long x = 0;
        for (int i = 0; i < 1_000_000; i++) x += i ^ x;
        for (Count c : s.stop()) {
            if (c.available()) {
                assertNull(c.unavailable());
                assertTrue(c.value() >= 0, c + " " + x);
            } else {
                assertNotNull(c.unavailable());
                assertTrue(c.unavailable().matches("perf_event_open\\(" + c.event().perfName() + "\\) failed: E[A-Z]+ \\(\\d+\\).*"),
                        c.unavailable());
            }
        }
        String reason = PerfCounters.hardwareUnavailableReason();
        assertTrue(reason == null || reason.startsWith("perf_event_open(cycles) failed: "), String.valueOf(reason));
    }

    @Test
    void stoppingTwiceIsAnError() {
        PerfCounters.Session s = PerfCounters.start(List.of(Event.TASK_CLOCK));
        s.stop();
        assertThrows(IllegalStateException.class, s::stop);
    }
}
