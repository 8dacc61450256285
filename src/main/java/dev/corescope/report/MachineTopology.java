package dev.corescope.report;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * The topology of the machine a results file was measured on, as {@code topology} in the
 * results file, so {@code report} can draw the machine the numbers came from rather than the
 * one it runs on.
 *
 * @param summary the topology's summary line, e.g. {@code 1 package, 2 cores, 2 PUs, 1 NUMA node; L1d 32K ×2, ...}
 * @param svg     the picture ({@code topology --format svg}); null when it could not be drawn
 * @param error   why the topology could not be read; null when it was
 * @param counts  the counts of {@code topology --format json}'s summary, for comparing machines; null in older files
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record MachineTopology(String summary, String svg, String error, MachineSummary.TopologyCounts counts) {

    /** Without counts. */
    public MachineTopology(String summary, String svg, String error) {
        this(summary, svg, error, null);
    }
}
