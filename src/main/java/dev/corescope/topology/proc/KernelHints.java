package dev.corescope.topology.proc;

import dev.corescope.cpumask.CpuMask;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the kernel was told about quiet CPUs: the boot options {@code isolcpus=},
 * {@code nohz_full=}, {@code rcu_nocbs=} and {@code irqaffinity=} from {@code /proc/cmdline},
 * the sets the kernel made of them ({@code /sys/devices/system/cpu/isolated} and
 * {@code nohz_full}), and where each device interrupt may go ({@code /proc/irq/N/smp_affinity_list}).
 *
 * @param cmdline          the boot options of interest, as written ({@code nohz_full} → {@code 2-7})
 * @param isolated         {@code /sys/devices/system/cpu/isolated}; empty when none or unreadable
 * @param nohzFull         {@code /sys/devices/system/cpu/nohz_full}; empty when none or unreadable
 * @param rcuNocbs         the CPUs of {@code rcu_nocbs=} (the kernel publishes no file for it)
 * @param irqAffinity      per device IRQ number, the CPUs it may be delivered to
 */
public record KernelHints(Map<String, String> cmdline, CpuMask isolated, CpuMask nohzFull, CpuMask rcuNocbs,
                          Map<Integer, CpuMask> irqAffinity) {

    private static final String[] OPTIONS = {"isolcpus", "nohz_full", "rcu_nocbs", "irqaffinity", "nohz"};

    /** Hints; the maps are copied. */
    public KernelHints {
        cmdline = Collections.unmodifiableMap(new LinkedHashMap<>(cmdline));
        irqAffinity = Collections.unmodifiableMap(new LinkedHashMap<>(irqAffinity));
    }

    /**
     * The options of interest ({@code isolcpus}, {@code nohz_full}, {@code rcu_nocbs},
     * {@code irqaffinity}, {@code nohz}) from a kernel command line, last one winning as the
     * kernel reads them; what follows {@code --} is init's and is ignored.
     *
     * @return option name to value, in first-seen order
     */
    public static Map<String, String> parseCmdline(String line) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String word : line.trim().split("\\s+")) {
            if (word.equals("--")) break; // what follows is init's, not the kernel's
            int eq = word.indexOf('=');
            if (eq < 0) continue;
            String name = word.substring(0, eq);
            for (String o : OPTIONS) if (o.equals(name)) out.put(name, word.substring(eq + 1));
        }
        return out;
    }

    /**
     * The CPUs of an {@code isolcpus=}, {@code nohz_full=} or {@code rcu_nocbs=} value: a
     * cpulist after any flags ({@code isolcpus=managed_irq,domain,2-7}).
     *
     * @return the CPUs; empty when it names none or is not a cpulist
     */
    public static CpuMask cpusOf(String value, int nbits) {
        if (value == null) return CpuMask.empty(nbits);
        String v = value;
        while (v.matches("^[a-z_]+,.*")) v = v.substring(v.indexOf(',') + 1);
        if (v.matches("[a-z_]+")) return CpuMask.empty(nbits);
        try {
            return CpuMask.parseList(v, nbits);
        } catch (IllegalArgumentException e) {
            return CpuMask.empty(nbits);
        }
    }

    /** The kernel command line, relative to a root. */
    public static final String CMDLINE = "proc/cmdline";

    /**
     * Reads under {@code root} ({@code /} for this machine); what is missing or unreadable stays empty.
     *
     * @return the hints, never null
     */
    public static KernelHints read(Path root, int nbits) {
        return read(new SysfsReader(root), nbits);
    }

    /**
     * Reads through {@code r}: {@code /proc/cmdline}, {@code cpu/isolated}, {@code cpu/nohz_full}
     * and every {@code /proc/irq/N/smp_affinity_list}; what is missing stays empty.
     *
     * @return the hints, never null
     */
    public static KernelHints read(SysfsReader r, int nbits) {
        Map<String, String> cmd = parseCmdline(r.read(CMDLINE).orElse(""));
        CpuMask isolated = list(r, "sys/devices/system/cpu/isolated", nbits);
        CpuMask nohz = list(r, "sys/devices/system/cpu/nohz_full", nbits);
        CpuMask rcu = cpusOf(cmd.get("rcu_nocbs"), nbits);
        Map<Integer, CpuMask> irqs = new LinkedHashMap<>();
        List<Integer> numbers = new ArrayList<>();
        for (String name : r.list("proc/irq")) if (name.matches("\\d{1,9}")) numbers.add(Integer.parseInt(name));
        numbers.sort(null);
        for (int irq : numbers) {
            String text = r.read("proc/irq/" + irq + "/smp_affinity_list").orElse("");
            if (text.isEmpty()) continue;
            try {
                irqs.put(irq, CpuMask.parseList(text, Math.max(nbits, 1)));
            } catch (IllegalArgumentException e) {
                // an odd file: this IRQ's placement stays unknown
            }
        }
        return new KernelHints(cmd, isolated, nohz, rcu, irqs);
    }

    /**
     * Where an IRQ may be delivered.
     *
     * @return its {@code smp_affinity_list}, or empty when unknown
     */
    public Optional<CpuMask> affinityOf(int irq) {
        return Optional.ofNullable(irqAffinity.get(irq));
    }

    /**
     * The kernel's special treatment of one CPU, for tables.
     *
     * @return {@code isolated, nohz_full, rcu_nocbs} as they apply; empty when none does
     */
    public String flagsOf(int cpu) {
        StringBuilder sb = new StringBuilder();
        if (isolated.nbits() > cpu && isolated.test(cpu)) sb.append("isolated");
        if (nohzFull.nbits() > cpu && nohzFull.test(cpu)) sb.append(sb.isEmpty() ? "" : ", ").append("nohz_full");
        if (rcuNocbs.nbits() > cpu && rcuNocbs.test(cpu)) sb.append(sb.isEmpty() ? "" : ", ").append("rcu_nocbs");
        return sb.toString();
    }

    private static CpuMask list(SysfsReader r, String rel, int nbits) {
        String s = r.read(rel).orElse("");
        if (s.isEmpty()) return CpuMask.empty(nbits);
        try {
            return CpuMask.parseList(s, nbits);
        } catch (IllegalArgumentException e) {
            return CpuMask.empty(nbits);
        }
    }
}
