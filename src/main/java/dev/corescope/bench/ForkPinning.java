package dev.corescope.bench;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.sys.Pinning;
import dev.corescope.sys.internal.Os;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * How {@code --cpus} reaches a JMH benchmark: the system property {@value #PROPERTY}
 * (a cpulist) on the forked JVM, or on this one while a {@code forks(0)} run lasts. The
 * benchmark's {@code @Setup(Level.Trial)} calls {@link #pinFromProperty()} and its
 * {@code @TearDown} closes the returned {@link Pinning}.
 *
 * <p>By hand: {@code ./run.sh jmh CpumaskBenchmark -jvmArgsAppend -Dcorescope.bench.cpus=1}.
 */
public final class ForkPinning {

    public static final String PROPERTY = "corescope.bench.cpus";

    private ForkPinning() {
    }

    /**
     * The extra JVM arguments of a forked benchmark JVM, for {@link Jmh#run}: {@code cpus} as
     * {@value #PROPERTY}, none when unpinned.
     */
    public static List<String> jvmArgs(Optional<CpuMask> cpus) {
        return cpus.map(m -> List.of("-D" + PROPERTY + "=" + m.toList())).orElse(List.of());
    }

    /** Runs {@code body} with {@value #PROPERTY} set in this JVM too (for {@code forks(0)}). */
    public static <T> T withProperty(Optional<CpuMask> cpus, Callable<T> body) throws Exception {
        if (cpus.isEmpty()) return body.call();
        String old = System.getProperty(PROPERTY);
        System.setProperty(PROPERTY, cpus.get().toList());
        try {
            return body.call();
        } finally {
            if (old == null) System.clearProperty(PROPERTY);
            else System.setProperty(PROPERTY, old);
        }
    }

    /**
     * Pins the calling thread to the CPUs in {@value #PROPERTY}, or returns null when the
     * property is absent (an unpinned run). For a forked JVM's {@code @Setup}, which has no
     * family context: through {@link Os#live()}.
     *
     * @return the pin, or null when unpinned
     */
    public static Pinning pinFromProperty() {
        return pinFromProperty(Os.live());
    }

    /**
     * {@link #pinFromProperty()} through {@code os}.
     *
     * @param os the OS seam to pin through
     * @return the pin, or null when {@value #PROPERTY} is absent
     */
    public static Pinning pinFromProperty(Os os) {
        String list = System.getProperty(PROPERTY);
        if (list == null || list.isBlank()) return null;
        return os.pin(CpuMask.parseList(list, Math.max(os.nrCpuIds(), os.processAllowed().nbits())));
    }

    /** The CONTRACT's {@code cpus} field: the cpulist pinned to, {@code ""} when unpinned. */
    public static String cpusField(Optional<CpuMask> cpus) {
        return cpus.map(CpuMask::toList).orElse("");
    }
}
