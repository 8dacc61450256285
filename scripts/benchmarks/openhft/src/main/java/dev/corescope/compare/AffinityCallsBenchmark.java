package dev.corescope.compare;

import dev.corescope.affinity.Reservation;
import dev.corescope.affinity.Reservations;
import dev.corescope.affinity.ThreadAffinity;
import dev.corescope.cpumask.CpuMask;
import net.openhft.affinity.Affinity;
import net.openhft.affinity.AffinityLock;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.concurrent.TimeUnit;

/**
 * The same four affinity calls through corescope (FFM) and OpenHFT Java-Thread-Affinity (JNA on
 * Linux), one thread, in one run: the current CPU, set affinity, get affinity, and acquiring
 * and releasing a CPU reservation (corescope: an {@code flock} on a per-CPU file whose
 * descriptor stays open; OpenHFT: {@code AffinityLock} with its own lock files, not binding
 * the thread), and corescope's pin-and-restore ({@code ThreadAffinity.pin}, a reused handle).
 *
 * <p>BASELINE: each library's call as a user writes it. Bytes per call: run with
 * {@code -prof gc} ({@code gc.alloc.rate.norm}).
 *
 * <p>ORDER: JMH runs benchmarks in the order of their names, so each is named
 * {@code call_library}: the two libraries' versions of a call run one after the other, not all
 * of corescope's before all of OpenHFT's (the machine's load drifts over a run). Two forks, so
 * a figure is not one JVM's luck.
 *
 * <p>PIN + RESTORE: OpenHFT has no pin-and-restore handle; its version is the three calls a
 * user writes (get the mask, set it, set the old one back), against corescope's
 * {@code try (Pinning p = ThreadAffinity.pin(mask)) {}}.
 *
 * <p>HOW TO RUN: {@code ./run.sh} in this folder (installs corescope, builds, runs JMH with -prof gc).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@State(Scope.Thread)
public class AffinityCallsBenchmark {

    private CpuMask allowedMask;
    private BitSet allowedBits;
    private Reservations reservations;
    private Path lockDir;
    private int floorFd;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        allowedMask = ThreadAffinity.allowed();
        allowedBits = Affinity.getAffinity();
        // a directory of this benchmark's own, so it never meets another user's reservations
        lockDir = Files.createTempDirectory("corescope-bench-locks");
        reservations = Reservations.of(lockDir, dev.corescope.topology.Topology.live(), allowedMask);
        int dirFd = dev.corescope.sys.internal.Flock.openDirectory(lockDir.toString());
        floorFd = dev.corescope.sys.internal.Flock.openLockFile(dirFd, "floor.lock", true, 0444);
        dev.corescope.sys.internal.Flock.close(dirFd);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        dev.corescope.sys.internal.Flock.close(floorFd);
        dev.corescope.sys.internal.Affinity.set(0, allowedMask);
        try (var files = Files.list(lockDir)) {
            for (Path f : files.toList()) Files.deleteIfExists(f);
        }
        Files.deleteIfExists(lockDir);
    }

    @Benchmark
    public int currentCpu_corescope() {
        return ThreadAffinity.currentCpu();
    }

    @Benchmark
    public int currentCpu_openhft() {
        return Affinity.getCpu();
    }

    @Benchmark
    public void setAffinity_corescope() {
        dev.corescope.sys.internal.Affinity.set(0, allowedMask);
    }

    /** pin and restore on close: what {@code ThreadAffinity.pin} costs, two set calls and one get. */
    @Benchmark
    public void pinAndRestore_corescope() {
        try (dev.corescope.sys.Pinning p = ThreadAffinity.pin(allowedMask)) {
            // nothing: the pair of calls is the measurement
        }
    }

    @Benchmark
    public void pinAndRestore_openhft() {
        BitSet before = Affinity.getAffinity();
        Affinity.setAffinity(allowedBits);
        Affinity.setAffinity(before);
    }

    @Benchmark
    public void setAffinity_openhft() {
        Affinity.setAffinity(allowedBits);
    }

    @Benchmark
    public CpuMask getAffinity_corescope() {
        return ThreadAffinity.allowed();
    }

    @Benchmark
    public BitSet getAffinity_openhft() {
        return Affinity.getAffinity();
    }

    @Benchmark
    public int reserveRelease_corescope() {
        try (Reservation r = reservations.reserveAny()) {
            return r.cpu();
        }
    }

    /** The floor under {@link #corescopeReserveRelease}: the two {@code flock} calls alone, on an open file. */
    @Benchmark
    public boolean reserveRelease_floorFlockPair() {
        boolean locked = dev.corescope.sys.internal.Flock.tryLockExclusive(floorFd);
        dev.corescope.sys.internal.Flock.unlock(floorFd);
        return locked;
    }

    @Benchmark
    public int reserveRelease_openhft() {
        AffinityLock lock = AffinityLock.acquireLock(false);
        int cpu = lock.cpuId();
        lock.release();
        return cpu;
    }
}
