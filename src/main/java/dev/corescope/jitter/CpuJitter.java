package dev.corescope.jitter;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.List;

/**
 * One CPU's row: the gaps its pinned spinning thread saw, and what happened on the CPU over the
 * same window. A row of the results file's {@code jitter.rows} (docs/jitter.md).
 *
 * @param cpu               the logical CPU
 * @param rank              1 for the quietest CPU of the run
 * @param batch             the CPUs measured at the same time as this one (itself only, in turn)
 * @param seconds           the length of the spinning window
 * @param clockCostNs       one loop turn (a clock read) in ns
 * @param thresholdNs       gaps above this were recorded
 * @param gaps              gaps recorded
 * @param over1usPerSecond  gaps longer than 1 µs, per second; likewise 10 and 100 µs
 * @param p99Ns             99th percentile of the recorded gaps; {@code p9999Ns} the 99.99th
 * @param maxNs             the longest gap
 * @param lostPercent       the recorded gaps' sum as a share of the window
 * @param stealPercent      steal time of this CPU over the window (/proc/stat); null when not known
 * @param contextSwitches   of the spinning thread (perf_event_open software counter); null when not counted
 * @param migrations        of the spinning thread; null when not counted
 * @param kernelFlags       {@code isolated}, {@code nohz_full}, {@code rcu_nocbs} as the kernel was told for this CPU
 * @param causes            interrupts, softirqs, steal and scheduling on this CPU over the window, most frequent first
 * @param likelyCause       the report's reading of the worst gaps: {@code local timer 250/s, steal 4.0%}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CpuJitter(int cpu, int rank, String batch, double seconds, long clockCostNs, long thresholdNs, long gaps,
                        double over1usPerSecond, double over10usPerSecond, double over100usPerSecond,
                        long p99Ns, long p9999Ns, long maxNs, double lostPercent,
                        Double stealPercent, Long contextSwitches, Long migrations, String kernelFlags,
                        List<Cause> causes, String likelyCause) {

    public CpuJitter {
        causes = causes == null ? List.of() : List.copyOf(causes);
    }

    /** Recorded gaps (those above the run's threshold) per second of spinning. */
    public double interruptionsPerSecond() {
        return seconds > 0 ? gaps / seconds : 0;
    }

    CpuJitter withRank(int r) {
        return new CpuJitter(cpu, r, batch, seconds, clockCostNs, thresholdNs, gaps, over1usPerSecond, over10usPerSecond,
                over100usPerSecond, p99Ns, p9999Ns, maxNs, lostPercent, stealPercent, contextSwitches, migrations,
                kernelFlags, causes, likelyCause);
    }
}
