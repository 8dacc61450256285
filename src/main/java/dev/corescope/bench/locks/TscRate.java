package dev.corescope.bench.locks;

import dev.corescope.sys.NativeException;
import dev.corescope.sys.tool.NativeLibrary;
import dev.corescope.topology.proc.Clocksource;
import dev.corescope.topology.proc.CpuInfo;
import dev.corescope.topology.proc.SysfsReader;
import dev.corescope.topology.proc.TscFrequency;
import org.openjdk.jmh.util.ListStatistics;

import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;

/**
 * How fast the TSC ticks, to turn ns into cycles and back, as time_bench reports both.
 *
 * <p>Sources, in order: {@code /sys/devices/system/cpu/cpu0/tsc_freq_khz} (not in mainline
 * sysfs, but some kernels carry it); the kernel log's "tsc: Refined TSC clocksource calibration"
 * or "tsc: Detected ... MHz processor" line (readable with CAP_SYSLOG or when
 * {@code kernel.dmesg_restrict=0}); else a calibration of {@code rdtsc} against
 * {@code CLOCK_MONOTONIC} in the C twin. The calibration runs whenever the C twin is there, so the
 * kernel's figure is checked, not just trusted.
 *
 * @param mhz            the rate used; NaN when unknown (no C twin and no kernel figure)
 * @param source         where {@code mhz} came from
 * @param evidence       the line or file that gave it, or why the kernel's figure was not found
 * @param calibratedMhz  rdtsc against CLOCK_MONOTONIC here (NaN without the C twin or a TSC)
 * @param calibratedErr  half-width of its 99.9% confidence interval
 * @param calibrations   how many calibration windows
 * @param flags          the TSC flags /proc/cpuinfo shows (constant_tsc, nonstop_tsc, ...)
 * @param clocksource    the kernel's current clocksource ({@code tsc} means it trusts the TSC)
 */
record TscRate(double mhz, Source source, String evidence, double calibratedMhz, double calibratedErr,
               int calibrations, List<String> flags, String clocksource) {

    enum Source {
        SYSFS("sysfs"), KERNEL_LOG("the kernel log"), CALIBRATED("rdtsc calibrated against CLOCK_MONOTONIC"), NONE("unknown");

        final String text;

        Source(String text) {
            this.text = text;
        }
    }

    /** The /proc/cpuinfo flags that say whether the TSC is usable as a clock. */
    static final List<String> TSC_FLAGS = List.of("tsc", "rdtscp", "constant_tsc", "nonstop_tsc", "tsc_known_freq", "tsc_reliable");

    TscRate {
        flags = List.copyOf(flags);
    }

    boolean known() {
        return !Double.isNaN(mhz);
    }

    /** ns to TSC cycles at this rate (NaN when unknown). */
    double cycles(double ns) {
        return ns * mhz / 1000.0;
    }

    /** Whether the TSC ticks at a constant rate through frequency changes and idle states. */
    boolean invariant() {
        return invariant(flags);
    }

    /** Whether these /proc/cpuinfo flags say the TSC ticks at one rate through frequency changes and idle. */
    static boolean invariant(List<String> flags) {
        return flags.contains("constant_tsc") && flags.contains("nonstop_tsc");
    }

    /**
     * Reads the kernel's figure and calibrates; the calling thread should be pinned (TSCs of
     * different CPUs need not agree).
     */
    static TscRate detect(Path root, int calibrations, long windowNs) {
        List<String> flags = readFlags(root);
        String clocksource = Clocksource.read(new SysfsReader(root)).orElse(null);

        double calibrated = Double.NaN;
        double calibratedErr = Double.NaN;
        boolean twin = NativeLibrary.available();
        if (twin && LocksTwins.hasTsc() && calibrations > 0) {
            double[] samples = new double[calibrations];
            for (int i = 0; i < calibrations; i++) samples[i] = LocksTwins.calibrateTscMhz(windowNs);
            ListStatistics stats = new ListStatistics(samples);
            calibrated = stats.getMean();
            calibratedErr = calibrations > 1 ? stats.getMeanErrorAt(0.999) : Double.NaN;
        }

        OptionalLong sysfs = TscFrequency.readKhz(root);
        if (sysfs.isPresent()) {
            return new TscRate(sysfs.getAsLong() / 1000.0, Source.SYSFS, "cpu0/tsc_freq_khz = " + sysfs.getAsLong(),
                    calibrated, calibratedErr, calibrations, flags, clocksource);
        }
        String why;
        if (twin) {
            try {
                LocksTwins.KernelTscRate k = LocksTwins.kernelTscRate();
                if (k.khz() > 0) {
                    return new TscRate(k.khz() / 1000.0, Source.KERNEL_LOG, "\"" + k.line() + "\"",
                            calibrated, calibratedErr, calibrations, flags, clocksource);
                }
                why = "no \"tsc:\" rate line in the kernel log (the ring buffer may have wrapped)";
            } catch (NativeException e) {
                why = "kernel log not readable: " + e.getMessage();
            }
        } else {
            why = "the C twin is not available: " + NativeLibrary.unavailableReason().orElse("?");
        }
        String noSysfs = "no cpu0/tsc_freq_khz in sysfs; " + why;
        if (!Double.isNaN(calibrated)) {
            return new TscRate(calibrated, Source.CALIBRATED, noSysfs, calibrated, calibratedErr, calibrations, flags, clocksource);
        }
        return new TscRate(Double.NaN, Source.NONE, noSysfs, calibrated, calibratedErr, calibrations, flags, clocksource);
    }

    static List<String> readFlags(Path root) {
        return tscFlags(CpuInfo.read(root));
    }

    private static List<String> tscFlags(CpuInfo info) {
        return TSC_FLAGS.stream().filter(info.flags()::contains).toList();
    }
}
