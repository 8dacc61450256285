package dev.corescope.jitter;

import dev.corescope.topology.proc.CounterTable;
import dev.corescope.topology.proc.KernelHints;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * What happened on one CPU over a window, from the counters' deltas, and the report's reading
 * of it. Per-CPU counts cannot be matched to single gaps without tracing, so the cause is named
 * as the likely one.
 */
public final class Attribution {

    /** Steal below this share of the window is not named as a cause. */
    static final double STEAL_NAMED_PERCENT = 0.5;
    /** Causes named in the one-line reading. */
    static final int NAMED = 3;

    private Attribution() {
    }

    /**
     * Every source that fired on {@code cpu} over the window, most frequent first, with steal
     * and context switches where they are above zero.
     */
    public static List<Cause> causes(int cpu, double seconds, CounterTable interrupts, CounterTable softirqs,
                                     Double stealPercent, Long contextSwitches, KernelHints hints) {
        List<Cause> out = new ArrayList<>();
        if (interrupts != null) {
            int col = interrupts.column(cpu);
            if (col >= 0) {
                for (CounterTable.Row r : interrupts.rows().values()) {
                    long n = r.count(col);
                    if (n <= 0) continue;
                    String affinity = null;
                    if (r.isDeviceIrq() && hints != null) {
                        affinity = hints.affinityOf(Integer.parseInt(r.key())).map(m -> m.toList()).orElse(null);
                    }
                    out.add(new Cause("irq", r.displayName(), r.key(), n / seconds, null, affinity));
                }
            }
        }
        if (softirqs != null) {
            int col = softirqs.column(cpu);
            if (col >= 0) {
                for (CounterTable.Row r : softirqs.rows().values()) {
                    long n = r.count(col);
                    if (n > 0) out.add(new Cause("softirq", "softirq " + r.key(), r.key(), n / seconds, null, null));
                }
            }
        }
        if (contextSwitches != null && contextSwitches > 0) {
            out.add(new Cause("sched", "other tasks (context switches)", null, contextSwitches / seconds, null, null));
        }
        out.sort(Comparator.comparingDouble((Cause c) -> c.perSecond() == null ? 0 : c.perSecond()).reversed());
        if (stealPercent != null && stealPercent > 0) out.addFirst(new Cause("steal", "steal", null, null, stealPercent, null));
        return out;
    }

    /**
     * The likely cause of the worst gaps, in one line. Long gaps (over 100 µs) are another task
     * running (context switches of the spinning thread), steal, or the host; an interrupt or
     * softirq takes microseconds. So: switches first when there were long gaps, then steal
     * when it is a visible share, then {@code host scheduling} when long gaps outnumber every
     * event the guest counted (under a hypervisor), then the most frequent events.
     *
     * @param over10us   gaps longer than 10 µs in the window
     * @param over100us  gaps longer than 100 µs in the window
     * @param hypervisor the hypervisor's name, or null on bare metal
     */
    public static String likelyCause(List<Cause> causes, long over10us, long over100us, double seconds, String hypervisor) {
        List<String> named = new ArrayList<>();
        double events = 0;
        for (Cause c : causes) {
            if (c.kind().equals("irq") || c.kind().equals("sched")) events += c.perSecond() * seconds;
        }
        Cause sched = causes.stream().filter(c -> c.kind().equals("sched")).findFirst().orElse(null);
        if (sched != null && over100us > 0) named.add(sched.describe());
        for (Cause c : causes) {
            if (c.kind().equals("steal") && c.percent() >= STEAL_NAMED_PERCENT) named.add(c.describe());
        }
        if (hypervisor != null && over10us > Math.max(1, Math.round(events))) {
            named.add("host scheduling (" + over10us + " gaps over 10 µs, more than the " + Math.round(events)
                    + " interrupts and switches the guest counted)");
        }
        for (Cause c : causes) {
            if (named.size() >= NAMED) break;
            if (c.kind().equals("steal") || c == sched && over100us > 0) continue;
            named.add(c.describe());
        }
        if (named.isEmpty()) return over10us == 0 ? "nothing counted" : "not attributed (no interrupt, softirq or switch counted)";
        return String.join(", ", named);
    }
}
