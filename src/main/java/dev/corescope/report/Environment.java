package dev.corescope.report;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Where a results file was measured, as {@code environment} in the results file. Fields are
 * null where the machine does not say; {@code warnings} lists what undermines the numbers.
 * {@link EnvironmentProbe} fills it from {@code /proc} and {@code /sys}.
 *
 * @param cpuModel               {@code /proc/cpuinfo}'s model name
 * @param kernel                 {@code Linux 6.1.0-...} from {@code /proc/sys/kernel}
 * @param jdk                    vendor and runtime version of the JVM that ran corescope
 * @param jvmFlags               that JVM's input arguments
 * @param allowed                the CPUs this process may run on (cpulist)
 * @param online                 the online CPUs
 * @param isolated               {@code isolcpus=} CPUs
 * @param nohzFull               {@code nohz_full=} CPUs ({@code ""} when the kernel has none)
 * @param smt                    whether SMT (hyper-threading) is active
 * @param cgroupCpuset           the cgroup's effective cpuset
 * @param cpuQuota               {@code none}, or the quota as the cgroup states it, e.g. {@code 1.50 CPUs (cpu.max 150000 100000)}
 * @param governor               the cpufreq scaling governor(s) of the online CPUs, comma-separated when they differ
 * @param frequencyMHz           {@code lowest}, {@code mean}, {@code highest} current frequency of the online CPUs and its {@code source}
 * @param hypervisor             null on bare metal; else what is known of the hypervisor
 * @param hardwareCounters       whether {@code perf_event_open} counts hardware events (cycles) here
 * @param startedAt              ISO-8601 instant the run started
 * @param endedAt                ISO-8601 instant the run ended
 * @param warnings               what in this environment undermines the numbers, one sentence each
 * @param hardwareCountersReason why not, when {@code hardwareCounters} is false
 * @param cpuQuotaCpus           the quota in CPUs (quota / period); null when there is none
 * @param stealPercent           share of CPU time the hypervisor stole during the run ({@code /proc/stat})
 * @param pinnedCpus             the CPUs the measuring threads were pinned to, over all results
 * @param cgroup                 the process's cgroup path(s) the cpuset and quota were read from
 * @param busySiblings           the SMT siblings of pinned CPUs that were busy during the run ({@link BusySiblings}); null for none
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Environment(String cpuModel, String kernel, String jdk, List<String> jvmFlags,
                          String allowed, String online, String isolated, String nohzFull, Boolean smt,
                          String cgroupCpuset, String cpuQuota, String governor, Map<String, Object> frequencyMHz,
                          String hypervisor, Boolean hardwareCounters,
                          String startedAt, String endedAt, List<String> warnings,
                          String hardwareCountersReason, Double cpuQuotaCpus, Double stealPercent,
                          String pinnedCpus, String cgroup, List<BusySibling> busySiblings) {

    /** An SMT sibling of pinned CPU {@code cpu}, itself not pinned, {@code busyPercent} busy during the run. */
    public record BusySibling(int cpu, int sibling, double busyPercent) {
        /** Its warning: the sibling shared the core's execution units with the measurement. */
        public String warning() {
            return String.format(Locale.ROOT, "CPU %d, the SMT sibling of pinned CPU %d, was %.0f%% busy during the run: "
                    + "the two share one core's execution units", sibling, cpu, busyPercent);
        }
    }

    /** The warning a cpufreq governor other than {@code performance} gets; empty for performance or none read. */
    static Optional<String> governorWarning(String governor) {
        return Optional.ofNullable(governor).filter(g -> !g.equals("performance"))
                .map(g -> "the cpufreq governor is " + g + ", not performance: the clock moves with load, and so do the numbers");
    }

    /** The warning a CPU quota ({@code cpuQuota}, limiting when {@code cpuQuotaCpus} is not null) gets; empty without one. */
    static Optional<String> quotaWarning(String cpuQuota, Double cpuQuotaCpus) {
        return Optional.ofNullable(cpuQuotaCpus).map(q -> "a CPU quota of " + cpuQuota + ": threads are throttled when it runs out");
    }
}
