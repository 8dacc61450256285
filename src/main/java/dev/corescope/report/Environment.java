package dev.corescope.report;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.List;
import java.util.Map;

/**
 * Where a results file was measured, as {@code environment} in the results file. Fields are
 * null where the machine does not say; {@code warnings} lists what undermines the numbers.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Environment(String cpuModel, String kernel, String jdk, List<String> jvmFlags,
                          String allowed, String online, String isolated, String nohzFull, Boolean smt,
                          String cgroupCpuset, String cpuQuota, String governor, Map<String, Object> frequencyMHz,
                          String hypervisor, Boolean hardwareCounters,
                          String startedAt, String endedAt, List<String> warnings) {
}
