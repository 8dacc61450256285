package dev.corescope.topology.proc;

import java.nio.file.Path;
import java.util.OptionalLong;

/**
 * The kernel's TSC frequency, {@code sys/devices/system/cpu/cpu0/tsc_freq_khz}, where the
 * kernel exposes it (some x86 kernels; {@code bench locks} turns cycles into nanoseconds with it).
 */
public final class TscFrequency {

    /** The file, relative to a root. */
    public static final String FILE = "sys/devices/system/cpu/cpu0/tsc_freq_khz";

    private TscFrequency() {
    }

    /** {@return the frequency in kHz under {@code root}, as {@link #readKhz(SysfsReader)}} */
    public static OptionalLong readKhz(Path root) {
        return readKhz(new SysfsReader(root));
    }

    /** {@return the frequency in kHz through {@code r}; empty when the file is absent, unreadable or not positive} */
    public static OptionalLong readKhz(SysfsReader r) {
        OptionalLong khz = r.readLong(FILE);
        return khz.isPresent() && khz.getAsLong() > 0 ? khz : OptionalLong.empty();
    }
}
