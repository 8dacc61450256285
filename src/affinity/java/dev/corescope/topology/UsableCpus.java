package dev.corescope.topology;

import dev.corescope.cpumask.CpuMask;
import dev.corescope.topology.proc.CgroupQuota;
import dev.corescope.topology.proc.CounterTable;
import dev.corescope.topology.proc.KernelHints;
import dev.corescope.topology.proc.SysfsReader;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The one rule for the CPUs a process may use, for the library and the command line alike.
 *
 * <ul>
 * <li>{@link #usable()}: what is chosen when no CPU is named (jitter, {@code --cpus quiet},
 *     reservations, the JMH profiler): the online CPUs of the start mask, plus the CPUs the
 *     kernel isolated ({@code isolcpus=}, {@code cpu/isolated}) or runs tickless
 *     ({@code nohz_full=}) that the cgroup's cpuset allows. A JVM started normally on an
 *     {@code isolcpus} host does not have the isolated CPUs in its mask, yet they are the ones
 *     a low-latency user runs on.</li>
 * <li>{@link #pinnable()}: what a pin that names its CPUs may take: every online CPU the
 *     cgroup's cpuset allows, as {@code taskset -c 0 taskset -c 1} moves to CPU 1 (the kernel's
 *     own rule for {@code sched_setaffinity}). The start mask narrows the default, not what may
 *     be asked for by name.</li>
 * </ul>
 *
 * The start mask is the process's ({@code sched_getaffinity} at start) on the live machine;
 * for a saved tree it is what a process started normally there gets: the cpuset's (or the
 * online) CPUs without the isolated ones. {@link #why} says for each CPU whether it is usable
 * and every reason.
 */
public final class UsableCpus {

    private final Topology t;
    private final CpuMask start;
    private final boolean startMeasured;
    private final CpuMask permitted;
    private final CpuMask quiet;
    private final CpuMask usable;

    private UsableCpus(Topology t, CpuMask start, boolean startMeasured) {
        this.t = t;
        int nbits = Math.max(t.nbits(), start.nbits());
        CpuMask online = t.online().resize(nbits);
        this.permitted = t.cgroupCpus().map(c -> c.resize(nbits).and(online)).orElse(online);
        this.start = start.resize(nbits);
        this.startMeasured = startMeasured;
        this.quiet = t.isolated().resize(nbits).or(t.nohzFull().resize(nbits)).and(permitted);
        this.usable = this.start.and(online).or(quiet);
    }

    /**
     * {@return the rule for the process whose start mask {@code t} holds ({@link Topology#live()}), or for one started on a saved tree}
     *
     * @param t the machine
     */
    public static UsableCpus of(Topology t) {
        if (t.allowed().isPresent()) return new UsableCpus(t, t.allowed().get(), true);
        CpuMask online = t.online();
        CpuMask housekeeping = t.cgroupCpus().map(c -> c.resize(online.nbits()).and(online)).orElse(online).andNot(t.isolated());
        return new UsableCpus(t, housekeeping.isEmpty() ? online : housekeeping, false);
    }

    /**
     * {@return the rule on {@code t} for a process started on {@code start} (tests, a fake OS)}
     *
     * @param t the machine
     * @param start the process's mask at start
     */
    public static UsableCpus of(Topology t, CpuMask start) {
        return new UsableCpus(t, start, true);
    }

    /** {@return the start mask: the process's mask at start, or the modelled one of a saved tree} */
    public CpuMask start() {
        return start;
    }

    /** {@return the CPUs chosen when none are named, as the class comment says; never empty on a machine with an online CPU} */
    public CpuMask usable() {
        return usable;
    }

    /** {@return the online isolated and {@code nohz_full} CPUs the cpuset allows: first choice for a measurement; often empty} */
    public CpuMask quiet() {
        return quiet;
    }

    /** {@return the CPUs a pin may name: the online CPUs the cgroup's cpuset allows (all without one), and the start mask's} */
    public CpuMask pinnable() {
        return permitted.or(start.and(t.online().resize(start.nbits())));
    }

    /**
     * {@return why {@code asked} cannot be pinned to, e.g. {@code CPU 6 is not in the allowed set 0-5 (outside ...; affinity --why 6)};
     * empty when it can}
     *
     * @param asked the CPUs named
     */
    public Optional<String> refusal(CpuMask asked) {
        CpuMask out = asked.andNot(pinnable());
        if (out.isEmpty()) return Optional.empty();
        CpuMask offline = out.andNot(t.online());
        String why = !offline.isEmpty() ? (t.possible().intersects(offline) ? "offline" : "not a CPU of this machine")
                : t.cgroupCpuset().map(c -> "outside the cgroup's cpuset " + c.cpus().toList() + ", " + c.cgroup()).orElse("not online");
        return Optional.of((out.weight() == 1 ? "CPU " + out.toList() + " is" : "CPUs " + out.toList() + " are")
                + " not in the allowed set " + pinnable().toList() + " (" + why + "; affinity --why " + out.toList() + ")");
    }

    /**
     * One reason a CPU is or is not usable.
     *
     * @param reason a fixed name for scripts: {@code offline}, {@code outsideCpuset}, {@code isolated},
     *               {@code managedIrq}, {@code nohzFull}, {@code outsideStartMask}, {@code startMask},
     *               {@code cpuQuota}, {@code deviceIrqs}
     * @param detail a sentence for people, with the sets and files it comes from
     */
    public record Reason(String reason, String detail) {
    }

    /**
     * What one CPU is to this process.
     *
     * @param cpu the CPU
     * @param usable chosen by default ({@link #usable()})
     * @param pinnable may be named ({@link #pinnable()})
     * @param reasons every reason, the deciding ones first
     */
    public record Why(int cpu, boolean usable, boolean pinnable, List<Reason> reasons) {
        /** A CPU's answer; the list is copied. */
        public Why {
            reasons = List.copyOf(reasons);
        }
    }

    /**
     * For each of {@code cpus}, whether it is usable and every reason: offline, outside the
     * cgroup's cpuset, isolated ({@code isolcpus} domain, {@code managed_irq}), {@code nohz_full},
     * outside the start mask, the cgroup's CPU quota, the device interrupts delivered there.
     * The boot options, the quota and {@code /proc/interrupts} are read through {@code r}.
     *
     * @param cpus the CPUs to explain
     * @param r the reader of the same root as the topology
     * @return one answer per CPU, by number
     */
    public List<Why> why(CpuMask cpus, SysfsReader r) {
        int nbits = Math.max(usable.nbits(), cpus.nbits());
        KernelHints hints = KernelHints.read(r, nbits);
        Optional<CgroupQuota> quota = CgroupQuota.read(r);
        Optional<CounterTable> irqs = CounterTable.read(r, CounterTable.INTERRUPTS);
        String isolcpus = hints.cmdline().get("isolcpus");
        CpuMask managedIrq = isolcpus != null && isolcpus.contains("managed_irq") ? KernelHints.cpusOf(isolcpus, nbits) : CpuMask.empty(nbits);
        List<Why> out = new ArrayList<>();
        for (int cpu : cpus.toArray()) {
            List<Reason> rs = new ArrayList<>();
            boolean online = t.online().nbits() > cpu && t.online().test(cpu);
            if (!online) {
                rs.add(new Reason("offline", t.possible().nbits() > cpu && t.possible().test(cpu)
                        ? "offline (online: " + t.online().toList() + ")" : "not a CPU of this machine (possible: " + t.possible().toList() + ")"));
            }
            if (online && t.cgroupCpuset().isPresent() && !test(t.cgroupCpuset().get().cpus(), cpu)) {
                rs.add(new Reason("outsideCpuset", "outside the cgroup's cpuset " + t.cgroupCpuset().get().cpus().toList()
                        + " (" + t.cgroupCpuset().get().cgroup() + "): the kernel refuses it"));
            }
            if (test(t.isolated(), cpu)) {
                rs.add(new Reason("isolated", "isolated from the scheduler's load balancing ("
                        + (isolcpus != null ? "isolcpus=" + isolcpus : "cpu/isolated " + t.isolated().toList()) + ")"
                        + (test(quiet, cpu) ? ": usable, a first choice for measuring" : "")));
            }
            if (test(managedIrq, cpu)) rs.add(new Reason("managedIrq", "managed_irq: the kernel keeps managed device interrupts off it where it can"));
            if (test(t.nohzFull(), cpu)) {
                rs.add(new Reason("nohzFull", "nohz_full: no scheduler tick while one task runs" + (test(quiet, cpu) ? "; usable" : "")));
            }
            if (online && !test(start, cpu)) {
                boolean byName = test(pinnable(), cpu);
                rs.add(new Reason("outsideStartMask", "outside the start mask " + start.toList()
                        + (startMeasured ? "" : " (a saved tree: a process started normally there)")
                        + (test(quiet, cpu) ? "" : byName ? ": taken only when named (--cpus " + cpu + ")" : "")));
            }
            if (online && test(start, cpu) && !test(quiet, cpu)) rs.add(new Reason("startMask", "in the start mask " + start.toList()));
            quota.filter(CgroupQuota::limited).ifPresent(q -> rs.add(new Reason("cpuQuota",
                    "the cgroup's CPU quota " + q.describe() + " throttles this process on every CPU")));
            irqs.ifPresent(table -> deviceIrqs(table, cpu).ifPresent(rs::add));
            out.add(new Why(cpu, test(usable, cpu), test(pinnable(), cpu), rs));
        }
        return out;
    }

    /** The device interrupts counted on {@code cpu} since boot, the busiest three named. */
    private static Optional<Reason> deviceIrqs(CounterTable table, int cpu) {
        int col = table.column(cpu);
        if (col < 0) return Optional.empty();
        List<CounterTable.Row> rows = table.rows().values().stream()
                .filter(CounterTable.Row::isDeviceIrq).filter(row -> row.count(col) > 0)
                .sorted(Comparator.comparingLong((CounterTable.Row row) -> row.count(col)).reversed()).toList();
        if (rows.isEmpty()) return Optional.empty();
        long total = rows.stream().mapToLong(row -> row.count(col)).sum();
        StringBuilder sb = new StringBuilder(rows.size() + " device IRQ" + (rows.size() == 1 ? "" : "s") + " steered here (" + total
                + " since boot, /proc/interrupts): ");
        for (int i = 0; i < Math.min(3, rows.size()); i++) {
            CounterTable.Row row = rows.get(i);
            sb.append(i == 0 ? "" : ", ").append("IRQ ").append(row.key()).append(' ').append(CounterTable.clip(row.displayName()))
                    .append(' ').append(row.count(col));
        }
        if (rows.size() > 3) sb.append(", ...");
        return Optional.of(new Reason("deviceIrqs", sb.toString()));
    }

    private static boolean test(CpuMask m, int cpu) {
        return cpu < m.nbits() && m.test(cpu);
    }
}
