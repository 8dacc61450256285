package dev.corescope.bench.locks;

import dev.corescope.topology.proc.TscFrequency;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Where the TSC rate comes from, read from trees the tests build (readers take a root). */
class TscRateTest {

    private static final String CPUINFO = """
            processor\t: 0
            vendor_id\t: AuthenticAMD
            model name\t: AMD EPYC
            flags\t\t: fpu vme de pse tsc msr pae constant_tsc rep_good nopl nonstop_tsc cpuid tsc_known_freq pni rdtscp
            bugs\t\t: sysret_ss_attrs

            processor\t: 1
            flags\t\t: fpu tsc
            """;

    /** The TSC flags of {@code cpuinfo} as {@code proc/cpuinfo} under a root. */
    private static List<String> flags(Path root, String cpuinfo) throws IOException {
        Files.createDirectories(root.resolve("proc"));
        Files.writeString(root.resolve("proc/cpuinfo"), cpuinfo);
        return TscRate.readFlags(root);
    }

    @Test
    void theTscFlagsOfTheFirstCpuAreFoundInTheirCanonicalOrder(@TempDir Path root) throws IOException {
        assertEquals(List.of("tsc", "rdtscp", "constant_tsc", "nonstop_tsc", "tsc_known_freq"), flags(root, CPUINFO));
    }

    @Test
    void noFlagsLineGivesNoFlags(@TempDir Path root) throws IOException {
        assertEquals(List.of(), flags(root, "processor : 0\nmodel name : ARMv8\n"));
    }

    @Test
    void sysfsTscFreqKhzIsReadWhenTheKernelHasIt(@TempDir Path root) throws IOException {
        Path f = root.resolve("sys/devices/system/cpu/cpu0/tsc_freq_khz");
        Files.createDirectories(f.getParent());
        Files.writeString(f, "2596136\n");
        assertEquals(OptionalLong.of(2596136), TscFrequency.readKhz(root));
    }

    @Test
    void aMissingOrGarbledSysfsFileGivesNothing(@TempDir Path root) throws IOException {
        assertEquals(OptionalLong.empty(), TscFrequency.readKhz(root));
        Path f = root.resolve("sys/devices/system/cpu/cpu0/tsc_freq_khz");
        Files.createDirectories(f.getParent());
        Files.writeString(f, "fast\n");
        assertEquals(OptionalLong.empty(), TscFrequency.readKhz(root));
    }

    @Test
    void sysfsWinsOverEverythingElseAndIsCheckedAgainstTheCalibration(@TempDir Path root) throws IOException {
        Path f = root.resolve("sys/devices/system/cpu/cpu0/tsc_freq_khz");
        Files.createDirectories(f.getParent());
        Files.writeString(f, "3000000\n");
        Files.createDirectories(root.resolve("proc"));
        Files.writeString(root.resolve("proc/cpuinfo"), CPUINFO);
        TscRate r = TscRate.detect(root, 2, 1_000_000);
        assertEquals(TscRate.Source.SYSFS, r.source());
        assertEquals(3000.0, r.mhz());
        assertTrue(r.invariant());
        assertEquals(300.0, r.cycles(100.0), 1e-9);
        assertTrue(LocksView.tsc(LocksModel.of(r)).startsWith("3000.000 MHz, from sysfs (cpu0/tsc_freq_khz = 3000000)"), LocksView.tsc(LocksModel.of(r)));
    }

    @Test
    void withoutAnyRateThereAreNoCycles() {
        TscRate r = new TscRate(Double.NaN, TscRate.Source.NONE, "no cpu0/tsc_freq_khz in sysfs; the C twin is not available: x",
                Double.NaN, Double.NaN, 0, List.of(), null);
        assertFalse(r.known());
        assertTrue(Double.isNaN(r.cycles(10)));
        assertTrue(LocksView.tsc(LocksModel.of(r)).startsWith("rate unknown ("), LocksView.tsc(LocksModel.of(r)));
        assertEquals("no TSC flags in /proc/cpuinfo", LocksView.tscFlags(LocksModel.of(r)));
    }
}
