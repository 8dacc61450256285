package dev.corescope.report;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A noisy row's likely cause comes from the file's fields, never from the words of its warnings. */
class NoisyRowsTest {

    private static ResultsFile file(String governor, String quota, Double quotaCpus, List<Environment.BusySibling> busy,
                                    List<String> warnings) {
        Environment e = new Environment("CPU", "Linux 6.1", "JDK 25", List.of(), "0-1", "0-1", "", "", true, "0-1", quota,
                governor, null, null, false, null, null, warnings, null, quotaCpus, null, "0", null, busy);
        return ResultsFile.builder().environment(e).build();
    }

    @Test
    void theGovernorAQuotaAndABusySiblingAreCausesFromTheirFieldsWithTheWarningsWords() {
        ResultsFile f = file("powersave", "1.50 CPUs (cpu.max 150000 100000)", 1.5, List.of(new Environment.BusySibling(0, 1, 35.0)), null);
        assertEquals("the cpufreq governor is powersave, not performance: the clock moves with load, and so do the numbers; "
                + "a CPU quota of 1.50 CPUs (cpu.max 150000 100000): threads are throttled when it runs out; "
                + "CPU 1, the SMT sibling of pinned CPU 0, was 35% busy during the run: the two share one core's execution units",
                NoisyRows.cause(f, "cpumask"));
    }

    @Test
    void aWarningThatOnlyMentionsLoadOrBusyIsNoCause() {
        ResultsFile f = file("performance", "none", null, null,
                List.of("only CPUs 0 of the online 0-1 are allowed: a busy, loaded machine under a quota"));
        assertEquals("nothing recorded; other work on the machine or a short run are the usual causes", NoisyRows.cause(f, "cpumask"));
    }
}
