package dev.corescope.topology.proc;

import java.util.Optional;

/**
 * The kernel's current clocksource ({@code tsc}, {@code kvm-clock}, {@code hyperv_clocksource_tsc_page},
 * {@code xen}): the first line of {@code sys/devices/system/clocksource/clocksource0/current_clocksource}.
 */
public final class Clocksource {

    /** The file, relative to a root. */
    private static final String FILE = "sys/devices/system/clocksource/clocksource0/current_clocksource";

    private Clocksource() {
    }

    /** {@return the clocksource's name through {@code r}; empty when the file is absent or empty} */
    public static Optional<String> read(SysfsReader r) {
        return r.readLines(FILE).filter(l -> !l.isEmpty()).map(l -> l.getFirst().strip());
    }
}
