package dev.corescope.jitter;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A jitter run: how it was measured, what the kernel was told, one {@link CpuJitter} row per
 * CPU in rank order, and the verdict. The results file's {@code jitter} object (docs/jitter.md).
 *
 * @param mode          {@code in turn} (one CPU at a time) or {@code together} (CPUs sharing no core at once)
 * @param secondsPerCpu the spinning window of each CPU
 * @param hypervisor    the hypervisor's name when under one, else null
 * @param kernel        the boot options of interest ({@code isolcpus}, {@code nohz_full}, {@code rcu_nocbs},
 *                      {@code irqaffinity}) and the kernel's {@code isolated} and {@code nohz_full} sets
 * @param rows          one per measured CPU, quietest first
 * @param quietest      the measured CPUs, quietest first, as a cpulist in that order ({@code 1,0})
 * @param notMeasured   the CPUs that could not be measured, and why
 * @param unread        the /proc files that could not be read, and why
 * @param notes         how to read the run, as sentences, in files written before the fields above ({@link JitterText} words them)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record JitterReport(String mode, double secondsPerCpu, String hypervisor, Map<String, String> kernel,
                           List<CpuJitter> rows, String quietest, @JsonInclude(JsonInclude.Include.NON_EMPTY) List<NotMeasured> notMeasured,
                           @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Unread> unread,
                           @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> notes) {

    public JitterReport {
        kernel = kernel == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(kernel));
        rows = rows == null ? List.of() : List.copyOf(rows);
        notMeasured = notMeasured == null ? List.of() : List.copyOf(notMeasured);
        unread = unread == null ? List.of() : List.copyOf(unread);
        notes = notes == null ? List.of() : List.copyOf(notes);
    }

    /** A CPU whose spinner failed ({@code why}, the failure), or whose batch did not start ({@code why} null). */
    public record NotMeasured(int cpu, String why) {
    }

    /** A file ({@code /proc/stat}, {@code /proc/interrupts}, ...) not read, and {@code why}. */
    public record Unread(String file, String why) {
    }
}
