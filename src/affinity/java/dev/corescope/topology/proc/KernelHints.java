package dev.corescope.topology.proc;

import dev.corescope.cpumask.CpuMask;

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

    /** {@return the options of interest of a kernel command line, in first-seen order, the last value winning as the kernel reads them} */
    public static Map<String, String> parseCmdline(String line) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String word : line.trim().split("\\s+")) {
            if (word.equals("--")) break; // what follows is init's
            int eq = word.indexOf('=');
            if (eq < 0) continue;
            String name = word.substring(0, eq);
            for (String o : OPTIONS) if (o.equals(name)) out.put(name, word.substring(eq + 1));
        }
        return out;
    }

    /** {@return the CPUs of an {@code isolcpus=} ({@code managed_irq,domain,2-7}), {@code nohz_full=} or {@code rcu_nocbs=} value; empty for none} */
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


    /** {@return the hints read through {@code r}; what is missing or unreadable stays empty} */
    public static KernelHints read(SysfsReader r, int nbits) {
        Map<String, String> cmd = parseCmdline(r.read(CMDLINE).orElse(""));
        CpuMask isolated = cpusOf(r.read("sys/devices/system/cpu/isolated").orElse(""), nbits);
        CpuMask nohz = cpusOf(r.read("sys/devices/system/cpu/nohz_full").orElse(""), nbits);
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

    /** {@return where an IRQ may be delivered (its {@code smp_affinity_list}); empty when unknown} */
    public Optional<CpuMask> affinityOf(int irq) {
        return Optional.ofNullable(irqAffinity.get(irq));
    }

    /** {@return the kernel's special treatment of one CPU, for tables: {@code isolated, nohz_full, rcu_nocbs} as they apply} */
    public String flagsOf(int cpu) {
        StringBuilder sb = new StringBuilder();
        if (isolated.nbits() > cpu && isolated.test(cpu)) sb.append("isolated");
        if (nohzFull.nbits() > cpu && nohzFull.test(cpu)) sb.append(sb.isEmpty() ? "" : ", ").append("nohz_full");
        if (rcuNocbs.nbits() > cpu && rcuNocbs.test(cpu)) sb.append(sb.isEmpty() ? "" : ", ").append("rcu_nocbs");
        return sb.toString();
    }
}
