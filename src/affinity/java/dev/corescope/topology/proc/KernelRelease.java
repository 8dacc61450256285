package dev.corescope.topology.proc;

import java.util.Optional;

/**
 * The running kernel's name and release, {@code Linux 6.1.0-13-amd64}: from
 * {@code /proc/sys/kernel/ostype} and {@code osrelease} ({@code Linux} when only the release is
 * there), else the first and third words of {@code /proc/version}.
 */
public final class KernelRelease {

    private static final String RELEASE = "proc/sys/kernel/osrelease";
    private static final String TYPE = "proc/sys/kernel/ostype";
    /** The banner older trees have instead. */
    private static final String VERSION = "proc/version";

    private KernelRelease() {
    }

    /** {@return the kernel through {@code r}, e.g. {@code Linux 6.1.0-13-amd64} (a short banner whole); empty without either file} */
    public static Optional<String> read(SysfsReader r) {
        Optional<String> release = r.read(RELEASE);
        if (release.isPresent()) {
            String type = r.read(TYPE).orElse("Linux");
            return Optional.of(type.strip() + " " + release.get().strip());
        }
        return r.read(VERSION).map(version -> {
            String[] words = version.strip().split("\\s+");
            return words.length >= 3 ? words[0] + " " + words[2] : version.strip();
        });
    }
}
