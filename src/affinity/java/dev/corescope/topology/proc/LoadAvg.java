package dev.corescope.topology.proc;

import java.util.Optional;

/**
 * {@code /proc/loadavg}: {@code 5.38 5.49 3.52 2/617 12345}, the 1-, 5- and 15-minute load
 * averages as the kernel prints them, then runnable/total tasks and the last pid.
 *
 * @param oneMinute     the 1-minute load average
 * @param text          the three averages as written ({@code 5.38 5.49 3.52})
 */
public record LoadAvg(double oneMinute, String[] text) {

    /** The file, relative to a root. */
    public static final String FILE = "proc/loadavg";

    /** A reading; {@code text} is copied. */
    public LoadAvg {
        text = text.clone();
    }


    /** {@return the reading through {@code r}, or empty when absent, unreadable or not three numbers first} */
    public static Optional<LoadAvg> read(SysfsReader r) {
        return r.read(FILE).flatMap(LoadAvg::parse);
    }

    /** {@return the reading of the file's line, or empty when it does not start with three numbers} */
    public static Optional<LoadAvg> parse(String line) {
        String[] f = line.strip().split("\\s+");
        if (f.length < 3) return Optional.empty();
        try {
            for (int i = 0; i < 3; i++) Double.parseDouble(f[i]);
            return Optional.of(new LoadAvg(Double.parseDouble(f[0]), new String[] {f[0], f[1], f[2]}));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
