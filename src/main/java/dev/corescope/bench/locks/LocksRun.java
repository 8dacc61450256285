package dev.corescope.bench.locks;

import java.util.List;

/**
 * Everything one {@code bench locks} run measured: the model both the text list and the JSON
 * results are made from.
 *
 * @param cpu               the CPU the uncontended rows ran on
 * @param cpuChoice         why that CPU
 * @param tsc               the TSC rate and where it came from
 * @param javaSettings      how JMH ran (forks, iterations)
 * @param nativeSettings    how the C loops ran, or why they did not
 * @param rows              the uncontended figures
 * @param contended         the contended figures
 * @param contendedSkipped  why contended mode did not run, or null
 * @param pmu               what {@code /sys/bus/event_source/devices} says about hardware counters
 * @param notes             anything else a reader needs (missing rows and why)
 */
record LocksRun(int cpu, String cpuChoice, TscRate tsc, String javaSettings, String nativeSettings,
                List<LockMeasurement> rows, List<ContendedMeasurement> contended, String contendedSkipped,
                String pmu, List<String> notes) {

    LocksRun {
        rows = List.copyOf(rows);
        contended = List.copyOf(contended);
        notes = List.copyOf(notes);
    }
}
