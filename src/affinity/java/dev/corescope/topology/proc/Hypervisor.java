package dev.corescope.topology.proc;

import java.util.Optional;

/**
 * Whether the machine is a virtual one, and what is known of its hypervisor, best source first:
 * {@code sys/hypervisor/type} ({@code xen}); else, when cpuinfo has the {@code hypervisor} flag,
 * the DMI vendor and product ({@code QEMU Standard PC (Q35 + ICH9, 2009)}), the {@link Clocksource}
 * ({@code kvm-clock}, {@code hyperv_*}, {@code xen}), or only the flag.
 */
public final class Hypervisor {

    private static final String TYPE = "sys/hypervisor/type";
    private static final String DMI_VENDOR = "sys/class/dmi/id/sys_vendor";
    private static final String DMI_PRODUCT = "sys/class/dmi/id/product_name";

    private Hypervisor() {
    }

    /** {@return what is known of the hypervisor, through {@code r}, at the least that the flag is set; empty on bare metal} */
    public static Optional<String> read(SysfsReader r, CpuInfo cpuinfo) {
        Optional<String> type = r.read(TYPE).filter(t -> !t.isBlank());
        if (type.isPresent()) return Optional.of(type.get().strip());
        if (!cpuinfo.flags().contains("hypervisor")) return Optional.empty();
        String vendor = r.read(DMI_VENDOR).map(String::strip).orElse(null);
        String product = r.read(DMI_PRODUCT).map(String::strip).orElse(null);
        String clock = Clocksource.read(r).orElse("");
        if (product != null && !product.isBlank()) return Optional.of((vendor == null ? "" : vendor + " ") + product);
        if (clock.startsWith("kvm")) return Optional.of("KVM (kvm-clock)");
        if (clock.startsWith("hyperv")) return Optional.of("Hyper-V (" + clock + ")");
        if (clock.startsWith("xen")) return Optional.of("Xen (" + clock + ")");
        return Optional.of("vendor unknown (cpuinfo flag 'hypervisor')");
    }
}
