package dev.corescope.jitter;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.Locale;

/**
 * One thing that took a CPU from the spinning thread during the window.
 *
 * @param kind      {@code irq} (a row of /proc/interrupts), {@code softirq}, {@code steal},
 *                  {@code sched} (the spinning thread was switched out: another task ran), or
 *                  {@code host} (long gaps with no event in the guest to explain them)
 * @param name      what a person calls it: {@code local timer}, {@code virtio1-req.0}, {@code TIMER}
 * @param source    the row's key in /proc ({@code LOC}, {@code 36}, {@code TIMER}); null for steal, sched and host
 * @param perSecond events per second on this CPU; null for steal
 * @param percent   share of the CPU's time, for steal; null otherwise
 * @param affinity  for a device IRQ, the CPUs its {@code smp_affinity_list} allows; null when unknown
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Cause(String kind, String name, String source, Double perSecond, Double percent, String affinity) {

    /** {@code local timer 250/s}, {@code steal 4.0%}, {@code virtio3-rx 12/s (IRQ 41, may go to 0-1)}. */
    public String describe() {
        if (percent != null) return name + " " + String.format(Locale.ROOT, "%.1f%%", percent);
        String s = name + " " + JitterText.num(perSecond == null ? 0 : perSecond) + "/s";
        if (kind.equals("irq") && source != null && source.chars().allMatch(Character::isDigit)) {
            s += " (IRQ " + source + (affinity == null ? "" : ", may go to " + affinity) + ")";
        }
        return s;
    }
}
