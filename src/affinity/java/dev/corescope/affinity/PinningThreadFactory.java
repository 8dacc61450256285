package dev.corescope.affinity;

import dev.corescope.sys.Pinning;

import java.util.Objects;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link ThreadFactory} whose threads each run on a CPU of their own: {@link #newThread}
 * reserves a CPU (the first by preference, each next one relative to the previous thread's CPU
 * by the strategies, in order), and the thread pins itself to it when it starts and releases
 * the reservation when it ends.
 *
 * <pre>{@code
 * ExecutorService pool = Executors.newFixedThreadPool(2,
 *         new PinningThreadFactory("feed", Reservations.shared(), CpuStrategy.SAME_L3, CpuStrategy.ANY));
 * }</pre>
 *
 * <p>When no CPU can be reserved, {@code newThread} throws {@link ReservationException}, so a
 * pool never gets an unpinned thread silently. Since each thread holds its CPU while it lives,
 * a pool larger than the free CPUs fails on the first thread too many.
 *
 * <p><b>Note:</b> thread-safe.
 */
public final class PinningThreadFactory implements ThreadFactory {

    private final String prefix;
    private final Reservations reservations;
    private final CpuStrategy[] strategies;
    private final boolean daemon;
    private final AtomicInteger count = new AtomicInteger();
    private volatile int lastCpu = -1;

    /**
     * A factory reserving in {@code reservations}.
     *
     * @param prefix       thread names are {@code prefix-1}, {@code prefix-2}, ...
     * @param reservations where each new thread reserves its CPU
     * @param strategies   how each thread's CPU relates to the previous thread's (none: {@link CpuStrategy#ANY})
     */
    public PinningThreadFactory(String prefix, Reservations reservations, CpuStrategy... strategies) {
        this(prefix, reservations, false, strategies);
    }

    private PinningThreadFactory(String prefix, Reservations reservations, boolean daemon, CpuStrategy... strategies) {
        this.prefix = Objects.requireNonNull(prefix);
        this.reservations = Objects.requireNonNull(reservations);
        this.daemon = daemon;
        this.strategies = strategies.length == 0 ? new CpuStrategy[]{CpuStrategy.ANY} : strategies.clone();
    }

    /**
     * A factory of daemon threads (or not) reserving in {@link Reservations#shared()}: OpenHFT's
     * {@code new AffinityThreadFactory(name, daemon, strategies...)}.
     *
     * @param prefix     thread names are {@code prefix-1}, {@code prefix-2}, ...
     * @param daemon     whether the threads are daemon threads (they do not keep the JVM alive)
     * @param strategies how each thread's CPU relates to the previous thread's (none: {@link CpuStrategy#ANY})
     * @throws ReservationException when the shared directory cannot be used
     * @since 0.2.0
     */
    public PinningThreadFactory(String prefix, boolean daemon, CpuStrategy... strategies) {
        this(prefix, Reservations.shared(), daemon, strategies);
    }

    /**
     * This factory, making daemon threads (or not); the count of threads made so far starts anew.
     *
     * @param on whether the threads are daemon threads
     * @return a new factory with the same prefix, reservations and strategies
     * @since 0.2.0
     */
    public PinningThreadFactory daemon(boolean on) {
        return new PinningThreadFactory(prefix, reservations, on, strategies);
    }

    /**
     * A factory reserving in {@link Reservations#shared()}.
     *
     * @param prefix     thread names are {@code prefix-1}, {@code prefix-2}, ...
     * @param strategies how each thread's CPU relates to the previous thread's (none: {@link CpuStrategy#ANY})
     * @throws ReservationException when the shared directory cannot be used
     */
    public PinningThreadFactory(String prefix, CpuStrategy... strategies) {
        this(prefix, Reservations.shared(), strategies);
    }

    @Override
    public Thread newThread(Runnable r) {
        Reservation cpu;
        synchronized (this) {
            cpu = reservations.reserve(lastCpu, false, lastCpu < 0 ? new CpuStrategy[]{CpuStrategy.ANY} : strategies);
            lastCpu = cpu.cpu();
        }
        Thread t = new Thread(() -> {
            try (cpu; Pinning ignored = cpu.pin()) {
                r.run();
            }
        }, prefix + "-" + count.incrementAndGet());
        t.setDaemon(daemon);
        cpu.handTo(t);  // the dump names the pool thread, not the one that called newThread
        return t;
    }
}
