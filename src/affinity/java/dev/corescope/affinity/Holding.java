package dev.corescope.affinity;

/**
 * One CPU's line of {@link Reservations#holdings()}: whether its lock is held now and by whom.
 *
 * @param cpu        the CPU; -1 for a file that is no corescope lock file
 * @param state      {@code held}; {@code stale} (held by this process for a thread that has ended
 *                   without closing the reservation); {@code free}; {@code unknown} when
 *                   {@code /proc/locks} cannot be read; {@code unusable} when no reservation can
 *                   use the lock file ({@code holder} says why); {@code foreign} for a file that
 *                   is no corescope lock file
 * @param pid        the holding process from {@code /proc/locks}; -1 when free or unknown
 * @param thisProcess true when this very process holds it
 * @param holder     the line the holder wrote (for a free CPU: the last holder's), e.g.
 *                   {@code pid=4242 thread=main since=2026-11-30T23:01:02Z cmd=java}; empty if none.
 *                   Strings from outside in it (process and thread names) are escaped with
 *                   {@code text.Terminal.escape}.
 */
public record Holding(int cpu, String state, long pid, boolean thisProcess, String holder) {

    /** {@return whether the lock is held (stale or not): true for the states {@code held} and {@code stale}} */
    public boolean held() {
        return state.equals("held") || state.equals("stale");
    }
}
