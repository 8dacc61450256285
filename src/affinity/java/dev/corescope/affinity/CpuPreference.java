package dev.corescope.affinity;

/**
 * Which free CPU {@link Reservations} offers first when a {@link CpuStrategy} leaves a choice.
 * Either way, the isolated CPUs come first and no CPU is ever excluded: on a machine of two
 * CPUs, CPU 0 is still handed out once CPU 1 is taken.
 *
 * <pre>{@code
 * Reservations quiet = Reservations.shared().preferring(CpuPreference.QUIET);  // measures for 200 ms
 * try (Reservation r = quiet.reserveAny(); Pinning p = r.pin()) { ... }       // the quietest free CPU
 * }</pre>
 */
public enum CpuPreference {
    /**
     * From the kernel's configuration, read once, costing nothing: {@code isolcpus} and
     * {@code nohz_full} CPUs first (the kernel keeps them for pinned work); then the rest, with
     * CPU 0 (boot-time and housekeeping work: timers, unbound kernel threads) and the CPUs that
     * service more than twice the median interrupt count ({@code /proc/interrupts}) last; then by
     * number. The default.
     */
    KERNEL_HINTS,
    /**
     * Measured when chosen: after the isolated CPUs, those disturbed least over a short window
     * (200 ms, or the window given to {@link Reservations#preferQuiet}): the least busy time in
     * {@code /proc/stat} (user, system, irq, softirq and steal: whatever ran there, including
     * the hypervisor's steal on a VM), then the fewest interrupts; ties by the kernel hints. It
     * reads counters and spins on no CPU, so it is cheap and disturbs nothing, but it sees only
     * the window: on a machine whose load moves, measure again (choose again) before a run.
     * The library's form of the command line's {@code --cpus quiet}, which runs the jitter
     * probe on each CPU instead (seconds, and more exact).
     */
    QUIET
}
