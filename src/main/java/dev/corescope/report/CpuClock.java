package dev.corescope.report;

import dev.corescope.topology.proc.CpuFreq;
import dev.corescope.topology.proc.CpuInfo;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The environment's clock fields from the readings: the governors, comma-separated, and the
 * lowest, mean and highest current frequency with its source, cpufreq's
 * {@code scaling_cur_freq} first, else cpuinfo's {@code cpu MHz}.
 *
 * @param governor  the governors of the online CPUs ({@code performance,powersave}), or null without cpufreq
 * @param frequency {@code lowest}, {@code mean}, {@code highest} (MHz, one decimal) and {@code source}; null when neither says
 */
record CpuClock(String governor, Map<String, Object> frequency) {

    /** The summary of {@code freq}, falling back on {@code cpuinfo}'s frequencies. */
    static CpuClock of(CpuFreq freq, CpuInfo cpuinfo) {
        List<Double> mhz = freq.currentMHz();
        String source = CpuFreq.SOURCE;
        if (mhz.isEmpty() && !cpuinfo.mhz().isEmpty()) {
            mhz = cpuinfo.mhz();
            source = "/proc/cpuinfo cpu MHz";
        }
        String governor = freq.governors().isEmpty() ? null : String.join(",", freq.governors());
        Map<String, Object> f = null;
        if (!mhz.isEmpty()) {
            f = new LinkedHashMap<>();
            f.put("lowest", round1(mhz.stream().mapToDouble(Double::doubleValue).min().orElseThrow()));
            f.put("mean", round1(mhz.stream().mapToDouble(Double::doubleValue).average().orElseThrow()));
            f.put("highest", round1(mhz.stream().mapToDouble(Double::doubleValue).max().orElseThrow()));
            f.put("source", source);
        }
        return new CpuClock(governor, f);
    }

    private static double round1(double v) {
        return Math.round(v * 10) / 10.0;
    }
}
