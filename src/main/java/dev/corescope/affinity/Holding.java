package dev.corescope.affinity;

/**
 * One CPU's line of {@link Reservations#holdings()}: whether its lock is held now and by whom.
 *
 * @param cpu        the CPU
 * @param state      {@code held}, {@code free}, or {@code unknown} when {@code /proc/locks} cannot be read
 * @param pid        the holding process from {@code /proc/locks}; -1 when free or unknown
 * @param thisProcess true when this very process holds it
 * @param holder     the line the holder wrote (for a free CPU: the last holder's), e.g.
 *                   {@code pid=4242 thread=main since=2026-11-30T23:01:02Z cmd=java}; empty if none
 */
public record Holding(int cpu, String state, long pid, boolean thisProcess, String holder) {

    public boolean held() {
        return state.equals("held");
    }
}
