package dev.corescope.report;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * The topology of the machine a results file was measured on, as {@code topology} in the
 * results file, so {@code report} can draw the machine the numbers came from rather than the
 * one it runs on. The machine is kept as a model, hwloc's XML ({@code topology --format hwloc-xml}),
 * and the page draws its picture from it, as {@code lstopo -i FILE.xml} does; files written
 * before that kept the rendered picture in {@code svg} instead.
 *
 * @param summary  the topology's summary line, e.g. {@code 1 package, 2 cores, 2 PUs, 1 NUMA node; L1d 32K ×2, ...}
 * @param svg      the picture an older corescope saved ({@code topology --format svg}); null in new files
 * @param error    why the topology could not be read; null when it was
 * @param counts   the counts of {@code topology --format json}'s summary, for comparing machines; null in older files
 * @param hwlocXml the machine as hwloc XML, the model the page draws; null when it could not be read, and in older files
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record MachineTopology(String summary, String svg, String error, MachineSummary.TopologyCounts counts, String hwlocXml) {

    /** A machine read now: its summary, counts and model. */
    public static MachineTopology of(String summary, MachineSummary.TopologyCounts counts, String hwlocXml) {
        return new MachineTopology(summary, null, null, counts, hwlocXml);
    }

    /** A machine that could not be read, and why. */
    public static MachineTopology unreadable(String error) {
        return new MachineTopology(null, null, error, null, null);
    }
}
