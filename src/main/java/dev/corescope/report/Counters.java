package dev.corescope.report;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.List;

/**
 * What {@code perf_event_open} counted while one family ran, as {@code counters[]} in the
 * results file: {@code perf stat}'s software events always, hardware events where a PMU exists.
 *
 * @param benchmark the family
 * @param scope     which tasks were counted, in words
 * @param counters  one entry per event, available or not
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Counters(String benchmark, String scope, List<Counter> counters) {

    /** The scope corescope uses: see {@code sys.PerfCounters}. */
    public static final String SCOPE_FAMILY_THREAD_INHERIT =
            "the thread that ran the family and every thread and process it started, forked JMH JVMs included"
                    + " (pid=0 cpu=-1 inherit=1); not this JVM's own JIT and GC threads";

    public Counters {
        counters = counters == null ? List.of() : List.copyOf(counters);
    }

    /**
     * One event.
     *
     * @param name           {@code perf stat}'s name: {@code task-clock}, {@code context-switches}, ...
     * @param unit           {@code ns} or {@code count}
     * @param value          the count; null when not available
     * @param runningPercent below 100 when the kernel multiplexed the counter and the value is scaled
     * @param userOnly       true when only user-space work was counted ({@code perf_event_paranoid})
     * @param unavailable    why there is no value
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Counter(String name, String unit, Long value, Double runningPercent, Boolean userOnly, String unavailable) {
    }

    /** The counter named {@code name}, or null. */
    public Counter get(String name) {
        return counters.stream().filter(c -> c.name().equals(name)).findFirst().orElse(null);
    }
}
